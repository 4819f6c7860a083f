/**
 * The messages between the bot and a strategy's worker thread (`isolate: worker`): snapshots
 * in, intents out. Everything that crosses is structured-cloned, so only plain data travels;
 * class instances (a recording's lazy quotes) are copied into plain objects first.
 */
import type { MessagePort } from 'node:worker_threads';
import type { Market, Quote } from '../../domain/index.ts';
import { createSnapshot, type Snapshot } from '../../market/snapshot.ts';
import type { Bar } from '../bars/bar.ts';
import type { Fill } from '../../domain/index.ts';

/** What the worker is started with (`workerData`). */
export interface WorkerStart {
  /** Instance name, symbols and the module's file, as the main thread resolved them. */
  readonly name: string;
  readonly symbols: readonly string[];
  readonly file: string;
  /** The params as configured; the worker parses them with the strategy's own schema. */
  readonly rawParams: unknown;
  /** The bot's log level, so lines the bot would drop are not sent at all. */
  readonly logLevel: string;
  /** 4 bytes: how many answers the main thread has posted on `answers` (sync-answers.ts). */
  readonly flag: SharedArrayBuffer;
  /** Where the answers to the worker's questions arrive (read synchronously). */
  readonly answers: MessagePort;
}

/** A snapshot as sent: the markets only when they changed since the last one sent. */
export interface PackedSnapshot {
  readonly seq: number;
  readonly takenAt: number;
  readonly stale: boolean;
  readonly markets?: ReadonlyMap<number, Market>;
  readonly quotes?: readonly Quote[];
}

/** A call of one strategy function, main thread → worker. */
export type WorkerCall =
  | { readonly kind: 'init'; readonly id: number }
  | {
      readonly kind: 'snapshot';
      readonly id: number;
      readonly snapshot: PackedSnapshot;
      /** `ctx.marketIds` as the host resolved them for this snapshot. */
      readonly marketIds: readonly number[];
    }
  | {
      readonly kind: 'bar';
      readonly id: number;
      readonly bar: Bar;
      readonly marketIds: readonly number[];
    }
  | { readonly kind: 'fill'; readonly id: number; readonly fill: Fill }
  | { readonly kind: 'stop'; readonly id: number };

/**
 * A `ctx` function the worker cannot answer itself: asked of the main thread, which answers
 * through the host's own context (positions, orders, the store, the clock), while the worker
 * waits, so the strategy sees exactly what it would in the bot's thread.
 */
export type WorkerQuestion =
  | { readonly what: 'position'; readonly marketId: number }
  | { readonly what: 'openOrders' }
  | { readonly what: 'now' }
  | {
      readonly what: 'entryPrice' | 'unrealizedPnl' | 'liquidationPrice';
      readonly marketId: number;
    }
  | { readonly what: 'equity' | 'freeMargin' }
  | { readonly what: 'bars'; readonly market: number | string; readonly timeframe: string }
  | { readonly what: 'indicators'; readonly market: number | string }
  | { readonly what: 'storeGet'; readonly key: string }
  | { readonly what: 'storeSet'; readonly key: string; readonly value: string };

/** An error as it crosses from the worker (its class is lost; name, message and stack are not). */
export interface ErrorText {
  readonly name: string;
  readonly message: string;
  readonly stack?: string | undefined;
}

/** A message from the worker. */
export type WorkerReport =
  | { readonly kind: 'done'; readonly id: number; readonly value: unknown }
  | { readonly kind: 'failed'; readonly id: number; readonly error: ErrorText }
  /** `id` counts the worker's questions; the answer carries it back. */
  | { readonly kind: 'ask'; readonly id: number; readonly question: WorkerQuestion }
  | { readonly kind: 'log'; readonly line: string }
  | { readonly kind: 'plot'; readonly name: string; readonly value: number | string };

/** `error` as text that survives structured cloning. */
export function errorText(error: unknown): ErrorText {
  if (error instanceof Error)
    return { name: error.name, message: error.message, stack: error.stack };
  return { name: 'Error', message: String(error) };
}

/** The error a worker reported, rebuilt on the main thread (for the host's log line). */
export function errorFrom(text: ErrorText): Error {
  const error = new Error(text.message);
  error.name = text.name;
  if (text.stack !== undefined) error.stack = text.stack;
  return error;
}

/**
 * Packs a snapshot to send: `lastMarkets` is the markets map sent last time (sent again only
 * when the snapshot's differs), quotes become plain objects (a recorded quote builds its levels
 * behind getters, which structured cloning would not read).
 */
export function packSnapshot(
  snapshot: Snapshot,
  lastMarkets: ReadonlyMap<number, Market> | undefined,
): PackedSnapshot {
  const quotes =
    snapshot.quotes === undefined
      ? undefined
      : [...snapshot.quotes.values()].map(({ marketId, timestamp, bids, asks }) => ({
          marketId,
          timestamp,
          bids,
          asks,
        }));
  return {
    seq: snapshot.seq,
    takenAt: snapshot.takenAt,
    stale: snapshot.stale,
    ...(snapshot.markets === lastMarkets ? {} : { markets: snapshot.markets }),
    ...(quotes === undefined ? {} : { quotes }),
  };
}

/**
 * Rebuilds a packed snapshot in the worker; `lastMarkets` is the map kept from the last one that
 * carried markets (the same object for every snapshot until the markets change, as in the bot).
 */
export function unpackSnapshot(
  packed: PackedSnapshot,
  lastMarkets: ReadonlyMap<number, Market> | undefined,
): Snapshot {
  // Frozen as the bot's own are: a strategy cannot change what it is shown.
  for (const market of packed.markets?.values() ?? []) Object.freeze(market);
  const markets = packed.markets ?? lastMarkets;
  if (markets === undefined) throw new Error(`snapshot ${packed.seq} arrived without markets`);
  return createSnapshot({
    seq: packed.seq,
    takenAt: packed.takenAt,
    markets: markets as Map<number, Market>,
    quotes: packed.quotes,
    stale: packed.stale,
  });
}

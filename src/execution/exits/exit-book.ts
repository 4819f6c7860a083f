import type { Logger } from '../../log/logger.ts';
import { bestPriceX18 } from '../../market/best-price.ts';
import type { Snapshot } from '../../market/snapshot.ts';
import { formatX18 } from '../../money/index.ts';
import type { ExitSpec, OrderIntent } from '../../domain/index.ts';
import { exitSpecSchema } from '../../domain/intent-schema.ts';
import { evaluateExit, type ExitProgress } from './exit-rules.ts';

/** Where exits are kept: the order journal's `exits` table. */
export interface ExitStore {
  exitsAll(): readonly {
    readonly strategy: string;
    readonly marketId: number;
    readonly state: string;
  }[];
  exitSet(strategy: string, marketId: number, state: string): void;
  exitDelete(strategy: string, marketId: number): void;
}

/** Options of {@link ExitBook}. */
export interface ExitBookOptions {
  readonly store: ExitStore;
  /** A strategy's own position in a market (signed) and its average entry price. */
  readonly positionOf: (
    strategy: string,
    marketId: number,
  ) => { readonly amountX18: bigint; readonly avgEntryPriceX18: bigint };
  /** True while an exit order of the strategy in the market is in flight or resting. */
  readonly exitPending: (strategy: string, marketId: number) => boolean;
  readonly now: () => number;
  readonly log: Logger;
}

interface Entry {
  spec: ExitSpec;
  progress: ExitProgress;
}

/** The prefix of an exit order's tag: `exit:stop-loss`, `exit:take-profit`… */
export const EXIT_TAG_PREFIX = 'exit:';

const keyOf = (strategy: string, marketId: number): string => `${marketId}\u0000${strategy}`;

/**
 * The protective exits of every strategy's positions (one per strategy and market), kept in the
 * journal so a restart keeps them. On every snapshot, {@link intents} evaluates each exit whose
 * strategy holds a position against the price a closing order would get (best bid for a long,
 * best ask for a short) and returns a reduce-only MARKET order of the whole position for each
 * that fires, tagged `exit:<reason>`; the executor then sizes and checks it like any intent
 * (capped to the position: it never opens or flips one). Nothing is sent when flat: an exit
 * waits for its position, and is removed once a position it saw open is flat again. While an
 * exit order is pending no other is sent for that position.
 */
export class ExitBook {
  readonly #options: ExitBookOptions;
  readonly #entries = new Map<string, Entry & { strategy: string; marketId: number }>();

  constructor(options: ExitBookOptions) {
    this.#options = options;
    for (const row of options.store.exitsAll()) {
      const parsed = JSON.parse(row.state) as {
        spec: unknown;
        openedAt: number | null;
        best: string | null;
      };
      this.#entries.set(keyOf(row.strategy, row.marketId), {
        strategy: row.strategy,
        marketId: row.marketId,
        spec: exitSpecSchema.parse(parsed.spec) as ExitSpec,
        progress: {
          openedAt: parsed.openedAt,
          bestX18: parsed.best === null ? null : BigInt(parsed.best),
        },
      });
    }
  }

  /** The exits of a strategy's position in a market, or undefined. */
  get(strategy: string, marketId: number): ExitSpec | undefined {
    return this.#entries.get(keyOf(strategy, marketId))?.spec;
  }

  /**
   * Sets (replaces) the exits of a strategy's position in a market; null removes them. The
   * progress of a position already open (its open time, its best price) is kept.
   */
  set(strategy: string, marketId: number, spec: ExitSpec | null): void {
    const key = keyOf(strategy, marketId);
    if (spec === null || Object.keys(spec).length === 0) {
      if (this.#entries.delete(key)) this.#options.store.exitDelete(strategy, marketId);
      return;
    }
    const progress = this.#entries.get(key)?.progress ?? { openedAt: null, bestX18: null };
    const entry = { strategy, marketId, spec: exitSpecSchema.parse(spec) as ExitSpec, progress };
    this.#entries.set(key, entry);
    this.#save(entry);
  }

  #save(entry: Entry & { strategy: string; marketId: number }): void {
    const state = JSON.stringify({
      spec: entry.spec,
      openedAt: entry.progress.openedAt,
      best: entry.progress.bestX18 === null ? null : entry.progress.bestX18.toString(),
    });
    this.#options.store.exitSet(entry.strategy, entry.marketId, state);
  }

  /** The closing orders of the exits that fire on `snapshot` (see the class doc). */
  intents(snapshot: Snapshot): { strategy: string; intent: OrderIntent }[] {
    const out: { strategy: string; intent: OrderIntent }[] = [];
    if (this.#entries.size === 0 || snapshot.stale === true) return out;
    const { positionOf, exitPending, log } = this.#options;
    const now = this.#options.now();
    for (const [key, entry] of this.#entries) {
      const { strategy, marketId } = entry;
      const position = positionOf(strategy, marketId);
      if (position.amountX18 === 0n) {
        // A position it saw open is closed (by the exit or the strategy): the exit ends with it.
        if (entry.progress.openedAt !== null && !exitPending(strategy, marketId)) {
          this.#entries.delete(key);
          this.#options.store.exitDelete(strategy, marketId);
        }
        continue;
      }
      const long = position.amountX18 > 0n;
      const quote = snapshot.quotes?.get(marketId);
      const { progress, reason } = evaluateExit(entry.spec, entry.progress, {
        amountX18: position.amountX18,
        entryPriceX18: position.avgEntryPriceX18,
        closingPriceX18: bestPriceX18(quote, long ? 'bids' : 'asks'),
        now,
      });
      if (
        progress.openedAt !== entry.progress.openedAt ||
        (progress.bestX18 !== entry.progress.bestX18 && entry.spec.trailingStop !== undefined)
      ) {
        entry.progress = progress;
        this.#save(entry);
      } else entry.progress = progress;
      if (reason === undefined || exitPending(strategy, marketId)) continue;
      const amount = formatX18(long ? position.amountX18 : -position.amountX18);
      log.info(
        { strategy, marketId, reason, amount },
        `exit ${reason}: closing ${strategy}'s position of ${formatX18(position.amountX18)} in market ${marketId}`,
      );
      out.push({
        strategy,
        intent: {
          marketId,
          side: long ? 'SELL' : 'BUY',
          type: 'MARKET',
          amount,
          reduceOnly: true,
          tag: `${EXIT_TAG_PREFIX}${reason}`,
        },
      });
    }
    return out;
  }
}

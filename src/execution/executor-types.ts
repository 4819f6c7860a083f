import type { VenueClockCheck } from '../clock/venue-clock.ts';
import type { Fill } from '../domain/index.ts';
import type { Logger } from '../log/logger.ts';
import type { OrderFinder, OrderLookup } from '../venue/venue-client.ts';
import type { Dispatcher } from './dispatcher.ts';
import type { OrderJournal } from './journal.ts';
import type { OrderSigner } from './order-factory.ts';
import type { OrderRecord } from './order-record.ts';
import type { Refusal, RefusalReason } from './refusal.ts';
import type { RiskLimits, StrategyShares } from './pre-trade/index.ts';
import type { TradingMode } from './trading-mode.ts';

/** Options of `Executor` (executor.ts). */
export interface ExecutorOptions {
  readonly journal: OrderJournal;
  readonly dispatcher: Dispatcher;
  readonly signer: OrderSigner;
  readonly limits: RiskLimits;
  /** Checked before every intent; true stops all sending. */
  readonly killSwitchOn: () => boolean;
  /** The trading mode, asked before every intent (see `TradingModes`); default `trading`. */
  readonly tradingMode?: () => TradingMode;
  /** Told about orders as they progress (metrics, alerts); must not throw. */
  readonly observer?: ExecutorObserver;
  /** The wall clock: order times, expiries, the day of the daily loss limit. */
  readonly now: () => number;
  /**
   * The monotonic clock (`Clock.monotonic`) durations are measured on: send latency, the refusal
   * log's once-a-minute spacing. Default `now` (virtual time, where the two are one).
   */
  readonly monotonic?: () => number;
  readonly log: Logger;
  /** Default validity of an order (`execution.orderTtlMs`). */
  readonly orderTtlMs: number;
  /** Reads an order back from the venue (docs/conventions.md §6 lookup); undefined where unsupported. */
  readonly lookupOrder?: OrderLookup;
  /** Finds an order by its request's signature (docs/conventions.md §6); undefined where unsupported. */
  readonly findOrder?: OrderFinder;
  /** Told about every fill, with the strategy that owns the order. */
  readonly onFill?: (strategy: string, fill: Fill) => void | Promise<void>;
  /** Each strategy's share of the order budget; absent (backtests): no share. */
  readonly shares?: StrategyShares;
  /**
   * This host's clock against the venue's (`VenueClock`). Asked before an order valid for `ttlMs`
   * is signed why the clock must not sign it now (`refusal`); and whether the clock is known now
   * to be within the allowed skew (`withinSkew`): only then is an order the venue never saw, past
   * its expiry on this clock, taken for one that can no longer land. Absent: no check, and the
   * clock is the venue's (backtests, whose venue runs on the same virtual clock).
   */
  readonly venueClock?: VenueClockCheck;
  /**
   * Asked before an order is signed: why no credential can carry it to the venue now (refused by
   * the venue, or expiring too soon: `CredentialManager.signingRefusal`), or undefined. Absent: no
   * check (backtests).
   */
  readonly credentialRefusal?: (queuedMs: number) => string | undefined;
  /** The base of the account's equity (see `RiskEngine.equityX18`); undefined: not known. */
  readonly capitalX18?: bigint | undefined;
}

/** What the executor tells metrics and alerts about orders. */
export interface ExecutorObserver {
  /** A dispatch ended (placed, refused, unknown…) after `roundTripMs` from its start. */
  readonly dispatched?: (record: OrderRecord, roundTripMs: number) => void;
  /** An order's journal row changed after an answer or a final outcome. */
  readonly updated?: (record: OrderRecord) => void;
}

/** What became of one intent. */
export type SubmitOutcome =
  | { readonly kind: 'refused'; readonly refusal: Refusal }
  | { readonly kind: 'sent'; readonly record: OrderRecord };

/** Counters for metrics and the shutdown summary. */
export interface ExecutorStats {
  readonly refusals: Readonly<Partial<Record<RefusalReason, number>>>;
  /** The same refusals by strategy instance, then reason. */
  readonly refusalsByStrategy: Readonly<Record<string, Partial<Record<RefusalReason, number>>>>;
  readonly ordersByState: Readonly<Record<string, number>>;
  /** Orders of unknown outcome, counted at full size against the limits until resolved. */
  readonly unresolvedOrders: number;
  /** Order lookups (by venue id or by signature) that failed since start. */
  readonly lookupFailures: number;
}

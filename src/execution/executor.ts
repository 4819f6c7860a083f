import { summarizeError } from '../errors/index.ts';
import type { Logger } from '../log/logger.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { displayX18, formatX18, MONEY_DECIMALS } from '../money/index.ts';
import type { Fill } from '../domain/index.ts';
import type { OrderIntent } from '../domain/index.ts';
import {
  OPEN_ORDER_STATES,
  RESTING_STATES,
  UNRESOLVED_STATES,
  isInFlightState,
  isUnresolvedState,
  type Market,
  type OrderSide,
} from '../domain/index.ts';
import type { OrderRequestBody, VenueOrder } from '../venue/types.ts';
import type { OrderFinder, OrderLookup } from '../venue/venue-client.ts';
import { referencePriceX18, type RiskLimits } from './checks.ts';
import { type Dispatcher, type DispatchResult, type SignedOrderRequest } from './dispatcher.ts';
import { NextEvent } from './next-event.ts';
import type { NewOrder, OrderJournal } from './journal.ts';
import type { OrderRecord } from './order-record.ts';
import { Portfolio, type BookedFill, type Liquidity } from './portfolio.ts';
import { unrealizedPnlX18, type PositionBook } from './positions.ts';
import { markPriceX18 } from '../market/mark-price.ts';
import { expiryFloorOf, nextExpiryTs } from './expiry-floor.ts';
import { recoverJournal } from './recovery.ts';
import { RiskEngine } from './risk.ts';
import { venueRecordOf } from './venue-record.ts';
import { refuse, type Refusal, type RefusalReason } from './refusal.ts';
import { RefusalLog } from './refusal-log.ts';
import { unplacedOrderOutcome } from './retry-policy.ts';
import type { SizedOrder } from './sizing.ts';
import type { StrategyShares } from './strategy-shares.ts';
import type { TradingMode } from './trading-mode.ts';

const exposureKey = (marketId: number, side: OrderSide): string => `${marketId}:${side}`;

/** The journal key-value scope where risk keeps its day baseline (not a strategy name). */
const RISK_SCOPE = 'quanta:risk';

/** Signs an order body with the registered signing key. */
export interface OrderSigner {
  sign(body: OrderRequestBody): Promise<{ signature: string; signer: string }>;
}

/** Options of {@link Executor}. */
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
   * Asked before an order valid for `ttlMs` is signed: why this host's clock must not sign it
   * now (its skew against the venue's, `VenueClock.refusal`), or undefined. Absent: no check
   * (backtests, whose venue runs on the same virtual clock).
   */
  readonly clockRefusal?: (ttlMs: number) => string | undefined;
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

/** An intent accepted, signed and counted in flight, waiting for its batch to be journaled. */
interface Staged {
  readonly order: NewOrder;
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
}

/**
 * The order path of docs/design.md §1: intent → sizing → checks → journal → dispatcher → venue, and back
 * to positions. The same code runs live, on paper and in backtests.
 */
export class Executor {
  readonly #options: ExecutorOptions;
  readonly #portfolio = new Portfolio();
  readonly #risk: RiskEngine;
  /** Signed amounts of orders sent but not yet answered, per market: counted by risk checks. */
  readonly #inFlightExposure = new Map<string, bigint>();
  /**
   * Orders whose outcome is unknown (UNKNOWN, or ACCEPTED with its fill unknown), by id: risk
   * counts each at its full size until a lookup resolves it (docs/design.md §4 rule 6).
   */
  readonly #unresolved = new Map<number, OrderRecord>();
  readonly #running = new Set<Promise<unknown>>();
  /** A tracked send finished: what settleAllBut waits on. */
  readonly #sendFinished = new NextEvent();
  readonly #refusals: RefusalLog;
  #lastExpiryTs = 0;
  /** Journaled expiries beyond the recovered floor: never signed again (see `expiryFloorOf`). */
  #takenExpiries: ReadonlySet<number> = new Set();

  constructor(options: ExecutorOptions) {
    this.#options = options;
    this.#refusals = new RefusalLog({ now: options.monotonic ?? options.now, log: options.log });
    const { journal } = options;
    this.#risk = new RiskEngine({
      limits: options.limits,
      killSwitchOn: options.killSwitchOn,
      tradingMode: options.tradingMode,
      capitalX18: options.capitalX18,
      now: options.now,
      store: {
        get: (key) => journal.kvGet(RISK_SCOPE, key),
        set: (key, value) => journal.kvSet(RISK_SCOPE, key, value),
      },
    });
  }

  /** The account-wide position book. */
  get positions(): PositionBook {
    return this.#portfolio.account;
  }

  /** One strategy's own positions (what its `ctx.position` reports). */
  strategyPositions(strategy: string): PositionBook {
    return this.#portfolio.strategy(strategy);
  }

  /** Books a position the venue closed on its own, a liquidation (see `Portfolio.bookClosure`). */
  bookClosure(marketId: number, priceX18: bigint, feeX18: bigint): BookedFill[] {
    return this.#portfolio.bookClosure(marketId, priceX18, feeX18);
  }

  /** The account's equity at the marks of `snapshot` (see `RiskEngine.equityX18`). */
  equityX18(snapshot: Snapshot): bigint | undefined {
    return this.#risk.equityX18(snapshot, this.#portfolio);
  }

  /** The unrealized PnL of one strategy's position at the mark of `snapshot`; undefined without a mark. */
  unrealizedPnlX18(strategy: string, marketId: number, snapshot: Snapshot): bigint | undefined {
    const position = this.#portfolio.strategy(strategy).get(marketId);
    if (position.amountX18 === 0n) return 0n;
    const mark = markPriceX18(snapshot.quotes?.get(marketId));
    return mark === undefined ? undefined : unrealizedPnlX18(position, mark);
  }

  /** Refusals by reason and journaled orders by state. */
  stats(): ExecutorStats {
    // One GROUP BY query: metrics read the stats on every scrape of a weeks-long journal.
    const ordersByState: Record<string, number> = { ...this.#options.journal.countByState() };
    return {
      refusals: this.#refusals.totals(),
      refusalsByStrategy: this.#refusals.byStrategy(),
      ordersByState,
      unresolvedOrders: this.#unresolved.size,
    };
  }

  /**
   * Counts an intent refused before it reached the executor's own checks (a strategy host
   * found it malformed); logged at most once per strategy and reason per minute.
   */
  refuse(strategy: string, reason: RefusalReason, detail: string): void {
    this.#refusals.record(strategy, reason, detail);
  }

  /**
   * Start-up recovery (see {@link recoverJournal}): positions from every journaled fill at the
   * fees recorded with it, then orders a crash left in flight resent or marked.
   *
   * @param markets - the venue's current listing: fees for orders resent now.
   */
  recover(markets: Iterable<Market>): void {
    for (const market of markets) this.#portfolio.rememberMarket(market);
    const { journal, now, log } = this.#options;
    const records = journal.all();
    const at = now();
    const floor = expiryFloorOf(records, at, this.#options.orderTtlMs);
    this.#lastExpiryTs = floor.floorTs;
    this.#takenExpiries = floor.taken;
    const [first] = floor.fromTheFuture;
    if (first !== undefined) {
      const ids = floor.fromTheFuture.map((record) => record.id);
      log.warn(
        { orderIds: ids.slice(0, 20), orders: ids.length, createdAt: first.createdAt, now: at },
        `${ids.length} journaled orders were written after this clock's now and expire beyond now + execution.orderTtlMs (a run whose clock was ahead wrote them, e.g. order ${first.id} created ${new Date(first.createdAt).toISOString()}): new orders' expiries do not start after theirs`,
      );
    }
    recoverJournal(
      records,
      at,
      {
        bookRecordedFills: (record) => this.#bookRecorded(record),
        resend: (record) => this.#track(this.#send(record)),
        finish: (record, outcome) => this.#finish(record, outcome),
      },
      log,
    );
    for (const record of journal.inStates(UNRESOLVED_STATES))
      this.#unresolved.set(record.id, record);
  }

  // A recovered order's fills are booked at the average fill price and the fee charged when
  // they were booked live, both kept in its journal row.
  #bookRecorded(record: OrderRecord): void {
    this.#portfolio.bookRecord(record, this.#recordedFeesX18(record));
  }

  // Rows from journals that predate per-order fees are priced at the taker rate (the higher
  // one: never understated), with a line saying so; never silently as free.
  #recordedFeesX18(record: OrderRecord): bigint {
    if (record.feesX18 !== null) return record.feesX18;
    if (record.filledX18 === 0n || record.avgFillPriceX18 === null) return 0n;
    const estimate = this.#portfolio.feeOf(
      record.marketId,
      record.type,
      'taker',
      record.filledX18,
      record.avgFillPriceX18,
    );
    this.#options.log.warn(
      {
        orderId: record.id,
        fee: estimate === undefined ? null : displayX18(estimate, MONEY_DECIMALS, true),
      },
      estimate === undefined
        ? `order ${record.id}: fee not recorded and market ${record.marketId} not listed; booked without fee`
        : `order ${record.id}: fee not recorded (older journal); booked at the taker rate`,
    );
    return estimate ?? 0n;
  }

  /**
   * Takes one intent from a strategy (see {@link submitAll}, of which this is the one-intent
   * case).
   */
  async submit(strategy: string, intent: OrderIntent, snapshot: Snapshot): Promise<SubmitOutcome> {
    const [outcome] = await this.submitAll([{ strategy, intent }], snapshot);
    if (outcome === undefined) throw new Error('unreachable: one intent, no outcome');
    return outcome;
  }

  /**
   * Takes the intents of one snapshot, in order. Each goes through sizing and the checks
   * (counting the ones accepted before it as in flight) and is signed; refusals are logged and
   * counted, never sent. The accepted ones are then journaled together in one transaction (one
   * fsync), and only then is any of them sent (docs/design.md §4 rule 3); the sends continue
   * in the background (see {@link settle}). When signing or journaling fails, nothing of the
   * batch is journaled or sent, and the error is thrown.
   *
   * @returns one outcome per intent, in the order given.
   */
  async submitAll(
    intents: readonly { readonly strategy: string; readonly intent: OrderIntent }[],
    snapshot: Snapshot,
  ): Promise<SubmitOutcome[]> {
    const decisions: (Staged | { readonly refusal: Refusal })[] = [];
    const staged: Staged[] = [];
    let records: OrderRecord[];
    try {
      for (const { strategy, intent } of intents) {
        const decision = await this.#stage(strategy, intent, snapshot, staged.length);
        decisions.push(decision);
        if ('order' in decision) staged.push(decision);
      }
      records = this.#options.journal.insertPendingMany(
        staged.map((entry) => entry.order),
        this.#options.now(),
      );
    } catch (error) {
      // Nothing of this batch was journaled, so nothing of it is sent or counted in flight.
      for (const entry of staged) this.#releaseExposure(entry.order);
      throw error;
    }
    const journaled = new Map(staged.map((entry, i) => [entry, records[i]]));
    const outcomes = decisions.map((decision): SubmitOutcome => {
      if ('refusal' in decision) return { kind: 'refused', refusal: decision.refusal };
      const record = journaled.get(decision);
      if (record === undefined) throw new Error('unreachable: staged order not journaled');
      return { kind: 'sent', record };
    });
    // (The lines are built only when they are written: a backtest logs nothing.)
    const logged = this.#options.log.isLevelEnabled('info');
    for (const outcome of outcomes) {
      if (outcome.kind !== 'sent') continue;
      const { record } = outcome;
      if (logged) this.#logSent(record);
      this.#track(this.#send(record, true));
    }
    return outcomes;
  }

  #logSent(record: OrderRecord): void {
    const amount = formatX18(record.amountX18);
    this.#options.log.info(
      {
        orderId: record.id,
        strategy: record.strategy,
        symbol: record.symbol,
        side: record.side,
        type: record.type,
        amount,
        // A MARKET order has no price of its own (0 in its body): the best quote it was sent at.
        ...(record.type === 'MARKET'
          ? {
              referencePrice:
                record.referencePriceX18 === null ? null : formatX18(record.referencePriceX18),
            }
          : { price: formatX18(record.priceX18) }),
        tag: record.tag,
      },
      `order ${record.id}: ${record.side} ${amount} ${record.symbol} ${record.type}`,
    );
  }

  /**
   * Checks, sizes and signs one intent; an accepted one is counted in flight from here on, so
   * the checks of the intents after it in the same batch see it.
   * @param ahead - orders of this batch accepted before it (not yet handed to the dispatcher).
   */
  async #stage(
    strategy: string,
    intent: OrderIntent,
    snapshot: Snapshot,
    ahead: number,
  ): Promise<Staged | { readonly refusal: Refusal }> {
    const { shares } = this.#options;
    // First and cheap: a flooding strategy's intents past its share cost no checks or signing.
    if (shares !== undefined && !shares.allows(strategy)) {
      const refusal = refuse(
        'STRATEGY_THROTTLED',
        `more orders than this strategy's share of the rate budget (${shares.perStrategy} per window)`,
      );
      this.#refusals.record(strategy, refusal.reason, refusal.detail);
      return { refusal };
    }
    const evaluated = this.#risk.evaluate(intent, snapshot, this.#portfolio, (marketId) =>
      this.#pendingExposureX18(marketId, intent.side),
    );
    if ('refused' in evaluated) {
      this.#refusals.record(strategy, evaluated.reason, evaluated.detail, { intent });
      return { refusal: evaluated };
    }
    const market = snapshot.markets.get(evaluated.marketId);
    if (market === undefined) throw new Error('unreachable: evaluated order without market');
    const ttlMs = intent.expiresInMs ?? this.#options.orderTtlMs;
    // An expiry signed on a clock that is off the venue's would not mean what it says there.
    const clockRefusal = this.#options.clockRefusal?.(ttlMs);
    if (clockRefusal !== undefined) {
      const refusal = refuse('CLOCK_SKEW', clockRefusal);
      this.#refusals.record(strategy, refusal.reason, refusal.detail, { intent });
      return { refusal };
    }
    // Shed load knowingly: an order the send backlog would carry past its expiry is refused
    // now, counted, instead of being signed, queued and left to die in the queue.
    const { dispatcher } = this.#options;
    const waitMs = dispatcher.estimatedWaitMs(ahead);
    if (waitMs + dispatcher.expiryMarginMs >= ttlMs) {
      const refusal = refuse(
        'SEND_BACKLOG',
        `${dispatcher.pending + ahead} orders are waiting to be sent (about ${waitMs} ms at the rate limit), longer than this order's ${ttlMs} ms validity: not queued`,
      );
      this.#refusals.record(strategy, refusal.reason, refusal.detail, { intent });
      return { refusal };
    }
    // Kept for the fees of this order's fills (lookups may answer after the market changed).
    this.#portfolio.rememberMarket(market);
    const order = await this.#signNew(
      strategy,
      intent,
      evaluated,
      market,
      referencePriceX18(evaluated, snapshot.quotes?.get(market.id)) ?? null,
      this.#options.now(),
    );
    this.#holdExposure(order);
    shares?.admit(strategy);
    return { order };
  }

  async #signNew(
    strategy: string,
    intent: OrderIntent,
    order: SizedOrder,
    market: Market,
    referencePrice: bigint | null,
    now: number,
  ): Promise<NewOrder> {
    // Strictly increasing expiry makes every body, and so every signature, unique: two equal
    // intents in the same millisecond would otherwise sign to the same bytes and the second
    // would be answered "signature already used".
    const expiryTs = nextExpiryTs(
      now + (intent.expiresInMs ?? this.#options.orderTtlMs),
      this.#lastExpiryTs,
      this.#takenExpiries,
    );
    this.#lastExpiryTs = expiryTs;
    const body: OrderRequestBody = {
      marketId: order.marketId,
      isBuy: order.side === 'BUY',
      orderType: order.type,
      amount: formatX18(order.amountX18),
      price: formatX18(order.priceX18),
      expiryTs,
      isReduce: order.reduceOnly,
    };
    const { signature, signer } = await this.#options.signer.sign(body);
    return {
      strategy,
      tag: intent.tag ?? null,
      marketId: market.id,
      symbol: market.symbol,
      side: order.side,
      type: order.type,
      amountX18: order.amountX18,
      priceX18: order.priceX18,
      reduceOnly: order.reduceOnly,
      body: JSON.stringify(body),
      signature,
      signer,
      expiryTs,
      referencePriceX18: referencePrice,
    };
  }

  #holdExposure(order: Pick<OrderRecord, 'marketId' | 'side' | 'amountX18'>): void {
    const key = exposureKey(order.marketId, order.side);
    this.#inFlightExposure.set(key, (this.#inFlightExposure.get(key) ?? 0n) + order.amountX18);
  }

  #releaseExposure(order: Pick<OrderRecord, 'marketId' | 'side' | 'amountX18'>): void {
    const key = exposureKey(order.marketId, order.side);
    this.#inFlightExposure.set(key, (this.#inFlightExposure.get(key) ?? 0n) - order.amountX18);
  }

  /** @param held - the order is already counted in flight (staged by {@link submitAll}). */
  async #send(record: OrderRecord, held = false): Promise<void> {
    if (!held) this.#holdExposure(record);
    let result: DispatchResult;
    const monotonic = this.#options.monotonic ?? this.#options.now;
    const startedAt = monotonic();
    try {
      const request: SignedOrderRequest = {
        body: record.body,
        signature: record.signature,
        signer: record.signer,
      };
      result = await this.#options.dispatcher.dispatch(record.id, request, record.expiryTs);
    } finally {
      this.#releaseExposure(record);
    }
    const current = this.#options.journal.get(record.id);
    if (result.kind !== 'interrupted')
      this.#options.observer?.dispatched?.(current, monotonic() - startedAt);
    try {
      await this.#afterDispatch(record, current, result);
    } catch (error) {
      // Its outcome could not be written (the journal refused a write: a full disk). Its bytes
      // may have landed, so it is counted at full size and looked up every poll until the
      // venue's record of it is written; left SENT, nothing would ever ask about it again.
      const now = this.#options.journal.get(record.id);
      if (
        result.kind !== 'interrupted' &&
        (isInFlightState(now.state) || isUnresolvedState(now.state))
      )
        this.#unresolved.set(record.id, now);
      throw error;
    }
  }

  async #afterDispatch(
    record: OrderRecord,
    current: OrderRecord,
    result: DispatchResult,
  ): Promise<void> {
    switch (result.kind) {
      case 'placed':
        await this.#applyVenueOrder(current, result.order);
        return;
      case 'accepted':
      case 'rejected':
      case 'unsent':
      case 'unknown':
        // The error registry decides, counting attempts of earlier runs too.
        this.#finish(current, unplacedOrderOutcome(result, current.attempts));
        return;
      case 'interrupted':
        // Stopped before it ever left: the file no longer counts the attempt it was journaled with.
        if (result.attempts === 0) this.#options.journal.releaseUnsentAttempt(record.id);
        this.#options.log.warn(
          { orderId: record.id },
          'send interrupted by shutdown; it will be resent (identical bytes) on the next start',
        );
        return;
    }
  }

  #finish(
    record: OrderRecord,
    outcome: { state: 'EXPIRED' | 'ACCEPTED' | 'REJECTED' | 'UNKNOWN'; error: string },
  ): void {
    const updated = this.#options.journal.recordOutcome(record.id, outcome, this.#options.now());
    if (isUnresolvedState(updated.state)) this.#unresolved.set(updated.id, updated);
    this.#options.observer?.updated?.(updated);
    const level = outcome.state === 'EXPIRED' ? 'info' : 'warn';
    this.#options.log[level](
      { orderId: record.id, state: outcome.state, error: outcome.error },
      `order ${record.id} ${outcome.state}: ${outcome.error}`,
    );
  }

  async #applyVenueOrder(record: OrderRecord, order: VenueOrder): Promise<void> {
    const newlyFilled = order.totalFilledX18 - record.filledX18;
    const reported =
      order.avgFillPriceX18 !== undefined && order.avgFillPriceX18 > 0n
        ? order.avgFillPriceX18
        : undefined;
    const priceX18 = reported ?? record.referencePriceX18 ?? record.priceX18;
    const estimated = reported === undefined;
    // A LIMIT order known to rest on the venue before this fill made liquidity (maker).
    const liquidity: Liquidity = record.venueOrderId !== null ? 'maker' : 'taker';
    const feeX18 =
      newlyFilled > 0n
        ? this.#portfolio.feeOf(record.marketId, record.type, liquidity, newlyFilled, priceX18)
        : 0n;
    if (feeX18 === undefined) {
      // Never book a fill at a guessed fee of 0: the market is always remembered before sending.
      throw new Error(`order ${record.id}: market ${record.marketId} unknown, fee cannot be set`);
    }
    const updated = this.#options.journal.recordOutcome(
      record.id,
      {
        state: order.status,
        venueOrderId: order.id,
        filledX18: order.totalFilledX18,
        avgFillPriceX18: order.totalFilledX18 > 0n ? priceX18 : null,
        fillPriceEstimated: order.totalFilledX18 > 0n && estimated,
        feesX18: this.#recordedFeesX18(record) + feeX18,
      },
      this.#options.now(),
    );
    if (this.#options.log.isLevelEnabled('info')) {
      const filled = formatX18(order.totalFilledX18);
      // As a person reads them: the average price to the market's tick, the fee to the cent
      // (the journal keeps both exact).
      const priceExpo = this.#portfolio.market(record.marketId)?.priceExpo;
      this.#options.log.info(
        {
          orderId: record.id,
          venueOrderId: order.id,
          state: order.status,
          filled,
          avgPrice: priceExpo === undefined ? formatX18(priceX18) : displayX18(priceX18, priceExpo),
          priceEstimated: estimated,
          fee: displayX18(feeX18, MONEY_DECIMALS, true),
          liquidity,
        },
        `order ${record.id} ${order.status}: filled ${filled} ${record.symbol}`,
      );
    }
    // The venue told us what became of it: no longer counted at full size.
    this.#unresolved.delete(record.id);
    this.#options.observer?.updated?.(updated);
    if (newlyFilled <= 0n) return;
    // A later partial fill is valued at the order's average price, the best the venue tells us.
    this.#portfolio.book({
      strategy: updated.strategy,
      marketId: updated.marketId,
      side: updated.side,
      amountX18: newlyFilled,
      priceX18,
      feeX18,
    });
    await this.#options.onFill?.(record.strategy, {
      orderId: record.id,
      marketId: record.marketId,
      side: record.side,
      amount: formatX18(newlyFilled),
      price: formatX18(priceX18),
      priceEstimated: estimated,
      tag: record.tag,
    });
  }

  /**
   * Asks the venue about resting LIMIT orders (OPEN/PARTIAL) and orders of unknown outcome
   * (ACCEPTED/UNKNOWN: by venue id, or by signature when the answer with the id was lost), and
   * books what changed; an UNKNOWN order the venue never accepted is marked EXPIRED once it can
   * no longer land (see {@link venueRecordOf}). Does nothing on a venue without lookups.
   */
  async refreshOpenOrders(): Promise<void> {
    const { lookupOrder, findOrder } = this.#options;
    if (lookupOrder === undefined && findOrder === undefined) return;
    // Resting orders are looked up after every snapshot (fills, cancels); unresolved ones until
    // resolved, releasing the full size risk counted for them.
    const resting = this.#options.journal.inStates(RESTING_STATES);
    // Nothing to look up (most snapshots of most strategies): no list is built.
    if (resting.length === 0 && this.#unresolved.size === 0) return;
    for (const record of [...resting, ...this.#unresolved.values()]) {
      try {
        const answer = await venueRecordOf(record, this.#options, this.#options.now());
        if (answer.kind === 'never-landed') this.#expireUnseen(record);
        else if (
          answer.kind === 'order' &&
          (answer.order.status !== record.state || answer.order.totalFilledX18 !== record.filledX18)
        )
          await this.#applyVenueOrder(record, answer.order);
      } catch (error) {
        this.#options.log.warn(
          { orderId: record.id, err: summarizeError(error) },
          'order lookup failed; will try again next poll',
        );
      }
    }
  }

  // The venue has no order with this one's signature, and it can no longer land.
  #expireUnseen(record: OrderRecord): void {
    const expired = {
      event: 'expired',
      error: 'the venue has no order with its signature and it expired: it never landed',
    } as const;
    let updated = this.#options.journal.recordOutcome(record.id, expired, this.#options.now());
    // A SENT one (its outcome could not be written) is UNKNOWN to the state machine first.
    if (updated.state === 'UNKNOWN')
      updated = this.#options.journal.recordOutcome(record.id, expired, this.#options.now());
    this.#unresolved.delete(record.id);
    this.#options.observer?.updated?.(updated);
    this.#options.log.info(
      { orderId: record.id, state: updated.state },
      `order ${record.id} EXPIRED: the venue never accepted it`,
    );
  }

  /** A strategy's open orders (in flight or resting), for `ctx.openOrders()`. */
  openOrders(strategy: string): OrderRecord[] {
    return this.#options.journal.inStates(OPEN_ORDER_STATES).filter((r) => r.strategy === strategy);
  }

  /** Orders whose outcome is not known (counted at full size by risk until resolved). */
  get unresolvedCount(): number {
    return this.#unresolved.size;
  }

  // What may trade without the portfolio knowing yet, on the side of a new order: orders in
  // flight, orders of unknown outcome at their full size, and the unfilled rest of resting
  // LIMIT orders (they fill whenever the market comes to them: issue 31's simulation saw two
  // resting sells fill after market sells had used the room, past the cap). Only the same side
  // counts: a pending order on the other side may never fill, so it must not make room.
  #pendingExposureX18(marketId: number, side: OrderSide): bigint {
    let total = this.#inFlightExposure.get(exposureKey(marketId, side)) ?? 0n;
    for (const record of this.#unresolved.values())
      if (record.marketId === marketId && record.side === side) total += record.amountX18;
    for (const record of this.#options.journal.inStates(RESTING_STATES))
      if (record.marketId === marketId && record.side === side)
        total += record.amountX18 - record.filledX18;
    return side === 'BUY' ? total : -total;
  }

  /** Resolves once every send started so far has finished. */
  async settle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  /**
   * Resolves once every send started so far has finished but `waiting()` of them: sends that
   * wait on something only the caller can release (a backtest's orders still on their way to
   * the simulated venue). Promise work only: no turn of the event loop.
   *
   * @param waitingGrew - resolves when one more send starts waiting there: a send may still be
   *   on its way to that wait when this is called, and then nothing finishes to say so.
   */
  async settleAllBut(waiting: () => number, waitingGrew: () => Promise<unknown>): Promise<void> {
    while (this.#running.size > waiting()) {
      await Promise.race([this.#sendFinished.next(), waitingGrew()]);
    }
  }

  #track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => {
      this.#options.log.error({ err: summarizeError(error) }, 'order bookkeeping failed');
    });
    this.#running.add(tracked);
    void tracked.finally(() => {
      this.#running.delete(tracked);
      this.#sendFinished.fire();
    });
  }
}

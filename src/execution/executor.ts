import type { Snapshot } from '../market/snapshot.ts';
import type { OrderIntent } from '../domain/index.ts';
import {
  OPEN_ORDER_STATES,
  RESTING_STATES,
  isInFlightState,
  isUnresolvedState,
  type Market,
} from '../domain/index.ts';
import type { DispatchResult, SignedOrderRequest } from './dispatcher.ts';
import { ExposureBook } from './exposure-book.ts';
import { FillBooking } from './fill-booking.ts';
import type { NewOrder } from './journal.ts';
import { OrderFactory } from './order-factory.ts';
import type { OrderRecord } from './order-record.ts';
import type { VenueOrder } from '../venue/types.ts';
import { Portfolio, type BookedFill } from './portfolio.ts';
import { unrealizedPnlX18, type PositionBook } from './positions.ts';
import { markPriceX18 } from '../market/mark-price.ts';
import { recoverOrders, refreshOpenOrders } from './reconciliation.ts';
import {
  admitIntent,
  referencePriceX18,
  RiskEngine,
  type AdmissionContext,
} from './pre-trade/index.ts';
import type { Refusal, RefusalReason } from './refusal.ts';
import { RefusalLog } from './refusal-log.ts';
import { LookupFailures } from './lookup-failures.ts';
import { unplacedOrderOutcome } from './retry-policy.ts';
import { logSent, SendTracker } from './send-tracker.ts';

export type { OrderSigner } from './order-factory.ts';
export type {
  ExecutorObserver,
  ExecutorOptions,
  ExecutorStats,
  SubmitOutcome,
} from './executor-types.ts';
import type { ExecutorOptions, ExecutorStats, SubmitOutcome } from './executor-types.ts';

/** The journal key-value scope where risk keeps its day baseline (not a strategy name). */
export const RISK_SCOPE = 'quanta:risk';

/** An intent accepted, signed and counted in flight, waiting for its batch to be journaled. */
interface Staged {
  readonly order: NewOrder;
}

/**
 * The order path of docs/design.md §1: intent → sizing and checks → signing → journal →
 * dispatcher → venue, and back to positions. The executor coordinates; the steps are their own
 * modules: `order-factory.ts`, the journal, `dispatcher.ts`, `fill-booking.ts`,
 * `exposure-book.ts`, `reconciliation.ts`, `send-tracker.ts`. The same code runs live, on paper
 * and in backtests.
 */
export class Executor {
  readonly #options: ExecutorOptions;
  readonly #portfolio = new Portfolio();
  readonly #risk: RiskEngine;
  readonly #exposure: ExposureBook;
  readonly #factory: OrderFactory;
  readonly #fills: FillBooking;
  readonly #sends: SendTracker;
  readonly #refusals: RefusalLog;
  readonly #lookupFailures: LookupFailures;
  readonly #admission: AdmissionContext;
  /** What a lookup's answer books (one function for every refresh, not one per call). */
  readonly #applyLookedUp = (record: OrderRecord, order: VenueOrder): Promise<void> =>
    this.#fills.apply(record, order, 'lookup');

  constructor(options: ExecutorOptions) {
    this.#options = options;
    this.#refusals = new RefusalLog({ now: options.monotonic ?? options.now, log: options.log });
    this.#lookupFailures = new LookupFailures({
      monotonic: options.monotonic ?? options.now,
      log: options.log,
    });
    const { journal } = options;
    this.#exposure = new ExposureBook(() => journal.inStates(RESTING_STATES));
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
    this.#factory = new OrderFactory({ signer: options.signer, orderTtlMs: options.orderTtlMs });
    this.#fills = new FillBooking({
      journal,
      portfolio: this.#portfolio,
      exposure: this.#exposure,
      now: options.now,
      log: options.log,
      updated: options.observer?.updated,
      onFill: options.onFill,
    });
    this.#sends = new SendTracker(options.log);
    const { venueClock } = options;
    this.#admission = {
      risk: this.#risk,
      portfolio: this.#portfolio,
      pendingX18: (marketId, side) => this.#exposure.pendingX18(marketId, side),
      dispatcher: options.dispatcher,
      orderTtlMs: options.orderTtlMs,
      shares: options.shares,
      clockRefusal: venueClock === undefined ? undefined : (ttlMs) => venueClock.refusal(ttlMs),
      credentialRefusal: options.credentialRefusal,
    };
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
    // Counted by the journal: metrics read the stats on every scrape of a weeks-long journal.
    const ordersByState: Record<string, number> = { ...this.#options.journal.countByState() };
    return {
      refusals: this.#refusals.totals(),
      refusalsByStrategy: this.#refusals.byStrategy(),
      ordersByState,
      unresolvedOrders: this.#exposure.unresolvedCount,
      lookupFailures: this.#lookupFailures.count,
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
   * Start-up recovery (see `recoverJournal`): positions from every journaled fill at the fees
   * recorded with it, then orders a crash left in flight resent or marked.
   *
   * @param markets - the venue's current listing: fees for orders resent now.
   */
  recover(markets: Iterable<Market>): void {
    for (const market of markets) this.#portfolio.rememberMarket(market);
    const { journal, now, log, orderTtlMs } = this.#options;
    const floor = recoverOrders(
      journal,
      { at: now(), orderTtlMs, exposure: this.#exposure, log },
      {
        bookRecordedFills: (record) => this.#fills.bookRecorded(record),
        resend: (record) => this.#sends.track(this.#send(record)),
        finish: (record, outcome) => this.#fills.finish(record, outcome),
      },
    );
    this.#factory.startAfter(floor);
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
      for (const entry of staged) this.#exposure.release(entry.order);
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
      if (logged) logSent(this.#options.log, record);
      this.#sends.track(this.#send(record, true));
    }
    return outcomes;
  }

  /**
   * Admits (the pre-trade stage, `pre-trade/index.ts`) and signs one intent; an accepted one is
   * counted in flight from here on, so the checks of the intents after it in the same batch see
   * it.
   * @param ahead - orders of this batch accepted before it (not yet handed to the dispatcher).
   */
  async #stage(
    strategy: string,
    intent: OrderIntent,
    snapshot: Snapshot,
    ahead: number,
  ): Promise<Staged | { readonly refusal: Refusal }> {
    const admitted = admitIntent(this.#admission, strategy, intent, snapshot, ahead);
    if ('refusal' in admitted) {
      const { refusal } = admitted;
      if (admitted.withIntent)
        this.#refusals.record(strategy, refusal.reason, refusal.detail, { intent });
      else this.#refusals.record(strategy, refusal.reason, refusal.detail);
      return { refusal };
    }
    const { market } = admitted;
    // Kept for the fees of this order's fills (lookups may answer after the market changed).
    this.#portfolio.rememberMarket(market);
    const order = await this.#factory.sign(
      strategy,
      intent,
      admitted.order,
      market,
      referencePriceX18(admitted.order, snapshot.quotes?.get(market.id)) ?? null,
      this.#options.now(),
    );
    this.#exposure.hold(order);
    this.#options.shares?.admit(strategy);
    return { order };
  }

  /** @param held - the order is already counted in flight (staged by {@link submitAll}). */
  async #send(record: OrderRecord, held = false): Promise<void> {
    if (!held) this.#exposure.hold(record);
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
      this.#exposure.release(record);
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
        this.#exposure.unresolved(now);
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
        await this.#fills.apply(current, result.order, 'placing');
        return;
      case 'accepted':
      case 'rejected':
      case 'unsent':
      case 'unknown':
        // The error registry decides, counting attempts of earlier runs too.
        this.#fills.finish(current, unplacedOrderOutcome(result, current.attempts));
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

  /**
   * Asks the venue about resting and unresolved orders and books what changed (see
   * `refreshOpenOrders` in reconciliation.ts). Does nothing on a venue without lookups.
   */
  async refreshOpenOrders(): Promise<void> {
    const { journal, now, log, observer } = this.#options;
    // No order that may still change (most snapshots of a backtest): nothing to look up, so
    // no context is built. A writing journal knows this without a query.
    if (journal.allFinal && this.#exposure.unresolvedCount === 0) return;
    await refreshOpenOrders({
      journal,
      exposure: this.#exposure,
      lookups: this.#options,
      now,
      // Without a clock check (backtests, on the venue's own clock), the clock is the venue's.
      clockWithinSkew: () => this.#options.venueClock?.withinSkew() ?? true,
      failures: this.#lookupFailures,
      log,
      apply: this.#applyLookedUp,
      updated: observer?.updated,
    });
  }

  /** A strategy's open orders (in flight or resting), for `ctx.openOrders()`. */
  openOrders(strategy: string): OrderRecord[] {
    return this.#options.journal.inStates(OPEN_ORDER_STATES).filter((r) => r.strategy === strategy);
  }

  /** Orders whose outcome is not known (counted at full size by risk until resolved). */
  get unresolvedCount(): number {
    return this.#exposure.unresolvedCount;
  }

  /** Resolves once every send started so far has finished. */
  async settle(): Promise<void> {
    await this.#sends.settle();
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
    await this.#sends.settleAllBut(waiting, waitingGrew);
  }
}

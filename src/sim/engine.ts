import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { formatX18, quantumX18 } from '../money/index.ts';
import {
  INITIAL_ORDER_STATE,
  isOrderStatus,
  isRestingState,
  midPriceX18,
  transition,
  type FillLiquidity,
  type Market,
  type OrderEvent,
  type OrderSide,
  type OrderState,
  type OrderStatus,
  type OrderType,
  type Quote,
  type QuoteLevel,
} from '../domain/index.ts';
import { type Book, type BookLevel, takeLiquidity } from './book-level.ts';
import { bookFromQuote, lazyBookFromQuote } from './external-book.ts';
import { fillFeeX18 } from '../money/index.ts';
import { AccountLedger } from './ledger.ts';
import {
  type ResolvedSimOptions,
  type SimEngineOptions,
  BOOK_DEPTH,
  resolveSimOptions,
} from './options.ts';
import { drawShockPpb, nextMidX18, snapPriceToGrid } from './price-walk.ts';
import { SeededRandom, deriveSeed } from './random.ts';
import { buildSyntheticBook } from './synthetic-book.ts';
import type { SimAccount, SimFill, SimOrder, SimOrderRequest, SimPosition } from './types.ts';
import { SimRejection } from './sim-rejection.ts';
import { validateOrderRequest } from './validate-order.ts';
import { marginAccount } from '../domain/account/index.ts';
import { checkSimOrderMargin, ledgerAccount, type SimLiquidation } from './sim-margin.ts';
import { MarginWatch } from './margin-watch.ts';

// Date's own range: any clock reading outside it cannot be written as an ISO timestamp.
const MAX_CLOCK_MS = 8.64e15;

interface MarketSim {
  market: Market;
  readonly rng: SeededRandom;
  readonly levelSizeX18: bigint;
  readonly priceQuantumX18: bigint;
  midX18: bigint;
  /** The synthetic book of the current step; `null` until someone needs it (built lazily). */
  syntheticBook: Book | null;
  /**
   * Replay mode: the last external quote, and the book made of it with its mid once someone
   * needed them (`replayQuotes` parses lazily: `book` stays null until an order, a resting order
   * or a mid reading touches the market, and then each side is parsed when first read).
   */
  external: ExternalBook | null;
}

interface ExternalBook {
  // Replaced in place by `replayQuotes` (one object per market, not one per market and step):
  // nothing holds an ExternalBook beyond the step, only the Book made of it.
  quote: Quote;
  book: Book | null;
  /** The book's mid once read (`{ x18: undefined }` for a quote with an empty side). */
  mid: { readonly x18: bigint | undefined } | null;
}

/** An order the engine holds: the request, its fills so far and its state. */
interface BookedOrder {
  readonly id: number;
  readonly accountId: string;
  readonly market: Market;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly amountX18: bigint;
  readonly priceX18: bigint;
  readonly expiryTs: number;
  readonly isReduce: boolean;
  readonly createdAt: string;
  /** What may fill at all: the amount, or for reduce-only the part that reduced at placement. */
  readonly capacityX18: bigint;
  /** Changed only through the domain's `transition`, like every order state. */
  status: OrderState;
  totalFilledX18: bigint;
  filledNotionalX36: bigint;
  feesPaidX18: bigint;
  updatedAt: string;
  readonly fills: SimFill[];
}

interface ActivityChange {
  readonly marketId: number;
  readonly active: boolean;
  readonly atMs: number;
}

let isoMs = Number.NaN;
let isoText = '';

/** `ms` as an ISO timestamp; the last one is kept (a replay places its orders at one time). */
function iso(ms: number): string {
  if (ms !== isoMs) {
    isoText = new Date(ms).toISOString();
    isoMs = ms;
  }
  return isoText;
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

// The one mid rule (domain/mid-price.ts): a one-sided replayed book has no mid.
function bookMid(book: Book): bigint | undefined {
  return midPriceX18(book.bids[0]?.priceX18, book.asks[0]?.priceX18);
}

function quoteLevels(levels: readonly BookLevel[]): QuoteLevel[] {
  const out: QuoteLevel[] = [];
  for (const level of levels) {
    if (out.length === BOOK_DEPTH) break;
    if (level.remainingX18 > 0n) {
      out.push({ price: formatX18(level.priceX18), quantity: formatX18(level.remainingX18) });
    }
  }
  return out;
}

// Resting orders meet the book best price first, then oldest first.
function restingPriority(a: BookedOrder, b: BookedOrder): number {
  if (a.side !== b.side) return a.side === 'BUY' ? -1 : 1;
  if (a.priceX18 !== b.priceX18) {
    const better = a.side === 'BUY' ? a.priceX18 > b.priceX18 : a.priceX18 < b.priceX18;
    return better ? -1 : 1;
  }
  return a.id - b.id;
}

/** What the venue reports about an order after its fills so far. */
function settledEvent(order: BookedOrder): OrderEvent {
  const filled = order.totalFilledX18;
  if (filled === order.amountX18) return 'filled';
  // A MARKET order is immediate-or-cancel; a reduce-only one stops once it reduced all it could.
  if (order.type === 'MARKET' || filled === order.capacityX18) return 'cancelled';
  return filled > 0n ? 'partiallyFilled' : 'opened';
}

/** The order's state as a venue status; every order is settled before anyone sees it. */
function reportedStatus(order: BookedOrder): OrderStatus {
  if (isOrderStatus(order.status)) return order.status;
  throw new Error(`unreachable: order ${order.id} is ${order.status}, not yet settled`);
}

/**
 * The deterministic trading simulation behind the paper venue and the backtester: markets,
 * a seeded random-walk mid per market (or replayed quotes), a synthetic order book around it,
 * MARKET and LIMIT orders with maker/taker fees, and cash and positions per account. No HTTP,
 * no timers: time is whatever the injected clock says, read once per call, and the price walk
 * advances step by step (`stepMs`) up to it. The same options, the same clock readings and the
 * same calls give the same answers.
 *
 * Simplifications, on purpose: resting orders are not shown in the quotes and never trade with
 * each other; a resting order that the book crosses fills at its own limit price (maker) up to
 * the crossing liquidity. Margin is the account model's (docs/margin.md): an order beyond the free
 * margin is refused, and an account below its maintenance margin is liquidated.
 *
 * @example
 * let now = Date.parse('2026-01-05T00:00:00Z');
 * const engine = new SimEngine({ clock: () => now, seed: 7 });
 * const order = engine.placeOrder('acct-1', {
 *   marketId: 1, side: 'BUY', type: 'MARKET', amountX18: 10n ** 17n, priceX18: 0n,
 *   expiryTs: now + 60_000, isReduce: false,
 * });
 * order.status; // 'FILLED'
 * now += 5_000; // five price steps later
 * engine.quotes(1);
 */
export class SimEngine {
  readonly #options: ResolvedSimOptions;
  readonly #markets = new Map<number, MarketSim>();
  readonly #accounts = new Map<string, AccountLedger>();
  readonly #orders = new Map<number, BookedOrder>();
  /** OPEN and PARTIALLY_FILLED orders, in id order (Map keeps insertion order). */
  readonly #resting = new Map<number, BookedOrder>();
  #schedule: ActivityChange[] = [];
  #nextOrderId = 1;
  readonly #liquidations: SimLiquidation[] = [];
  readonly #liquidated = new Set<string>();
  /** The last mark of each market, held while its replayed book is one-sided. */
  readonly #lastMark = new Map<number, bigint>();
  readonly #marginWatch = new MarginWatch(
    (marketId) => this.#markets.get(marketId)?.market,
    (marketId) => this.#markOf(marketId),
  );
  readonly #source: SimEngineOptions;
  readonly #startedAt: number;
  #now: number;
  #nextStepAt: number;

  /**
   * @throws QuantaError `QUANTA_SIM_INVALID_INPUT` for a bad option (see `SimEngineOptions`),
   *   `QUANTA_INVALID_DECIMAL` for a malformed decimal option.
   */
  constructor(options: SimEngineOptions) {
    this.#options = resolveSimOptions(options);
    this.#source = options;
    this.#now = this.#readClock();
    this.#startedAt = this.#now;
    this.#nextStepAt = this.#now + this.#options.stepMs;
    for (const { market, initialMidX18, levelSizeX18 } of this.#options.markets) {
      this.#markets.set(market.id, {
        market,
        rng: new SeededRandom(deriveSeed(this.#options.seed, market.id)),
        levelSizeX18,
        priceQuantumX18: quantumX18(market.priceExpo),
        midX18: initialMidX18,
        syntheticBook: null,
        external: null,
      });
    }
    for (const listing of this.#options.listings) {
      if (listing.activeAtMs > this.#now) {
        this.#setActive(listing.marketId, false, this.#now);
        this.#addScheduled({ marketId: listing.marketId, active: true, atMs: listing.activeAtMs });
      } else {
        this.#setActive(listing.marketId, true, this.#now);
      }
    }
  }

  /** The markets in listing order, with their current `isActive`. */
  listMarkets(): Market[] {
    this.#sync();
    return [...this.#markets.values()].map((sim) => sim.market);
  }

  /** One market by id, or `undefined`. */
  market(marketId: number): Market | undefined {
    this.#sync();
    return this.#markets.get(marketId)?.market;
  }

  /**
   * Turns a market on or off, now or at a later time (a scheduled listing or delisting).
   * Resting orders stay, but do not fill while their market is inactive.
   *
   * @param atMs - when the change takes effect; omitted or not in the future means now.
   * @throws QuantaError `QUANTA_SIM_INVALID_INPUT` for an unknown market.
   */
  setMarketActive(marketId: number, active: boolean, atMs?: number): void {
    const now = this.#sync();
    if (!this.#markets.has(marketId))
      throw this.#invalid(`setMarketActive: market ${marketId} not found`);
    if (atMs !== undefined && !Number.isFinite(atMs)) {
      throw this.#invalid(`setMarketActive: market ${marketId} atMs must be a number of ms`);
    }
    if (atMs !== undefined && atMs > now) this.#addScheduled({ marketId, active, atMs });
    else this.#setActive(marketId, active, now);
  }

  /**
   * The current book of each active market (or of one), docs/conventions.md §6 shape: decimal strings,
   * best level first, at most 10 levels per side, levels already consumed left out,
   * `timestamp` = the engine time (the clock reading, unless the clock went back: engine time
   * never does). An unknown or inactive market gives an empty list.
   */
  quotes(marketId?: number): Quote[] {
    const now = this.#sync();
    const sims =
      marketId === undefined
        ? [...this.#markets.values()]
        : [this.#markets.get(marketId)].filter((s) => s !== undefined);
    return sims
      .filter((sim) => sim.market.isActive)
      .map((sim) => {
        const book = this.#bookOf(sim);
        return {
          marketId: sim.market.id,
          timestamp: now,
          bids: quoteLevels(book.bids),
          asks: quoteLevels(book.asks),
        };
      });
  }

  /**
   * The current mid price x18: the random walk's mid, or in replay mode the middle of the last
   * quote's best bid and ask (floored, by the one mid rule `midPriceX18`). `undefined` for an
   * unknown market or a replayed quote with an empty side.
   */
  midPriceX18(marketId: number): bigint | undefined {
    this.#sync();
    const sim = this.#markets.get(marketId);
    if (sim === undefined) return undefined;
    if (sim.external === null) return sim.midX18;
    return this.#externalMid(sim.external);
  }

  /**
   * Replay mode: from now on each quoted market's book is exactly the quote's levels (parsed
   * exactly, sorted best first) instead of the synthetic book, until the next quote for that
   * market replaces it (restoring consumed liquidity) or `clearExternalQuotes` ends replay.
   * Resting orders that the new book crosses fill at once (maker).
   *
   * @throws QuantaError `QUANTA_SIM_INVALID_INPUT` for a quote of an unknown market,
   *   `QUANTA_INVALID_DECIMAL` for a malformed level; nothing is applied then.
   */
  setExternalQuotes(quotes: readonly Quote[]): void {
    const now = this.#sync();
    const parsed = quotes.map((quote) => {
      const sim = this.#markets.get(quote.marketId);
      if (sim === undefined)
        throw this.#invalid(`external quote: market ${quote.marketId} not found`);
      return { sim, quote, book: bookFromQuote(quote) };
    });
    for (const { sim, quote, book } of parsed) {
      sim.external = { quote, book, mid: { x18: bookMid(book) } };
      this.#matchResting(sim, now);
    }
    this.#liquidateDue(now);
  }

  /**
   * Replay mode like `setExternalQuotes`, for a replay that hands over every market's quote at
   * every step (the backtest): the quotes are kept as they are and parsed only when an order, a
   * resting order or `midPriceX18` touches the market, so a market nobody trades costs nothing.
   * Resting orders that the new book crosses fill at once (maker), as with `setExternalQuotes`.
   *
   * @throws QuantaError `QUANTA_SIM_INVALID_INPUT` for a quote of an unknown market (nothing is
   *   applied then); `QUANTA_INVALID_DECIMAL` for a malformed level when that market's book is
   *   first needed.
   */
  replayQuotes(quotes: ReadonlyMap<number, Quote> | readonly Quote[]): void {
    const now = this.#sync();
    for (const quote of quotes.values()) {
      if (!this.#markets.has(quote.marketId))
        throw this.#invalid(`external quote: market ${quote.marketId} not found`);
    }
    const matching = this.#resting.size > 0;
    for (const quote of quotes.values()) {
      const sim = this.#markets.get(quote.marketId) as MarketSim;
      const external = sim.external;
      if (external === null) sim.external = { quote, book: null, mid: null };
      else {
        external.quote = quote;
        external.book = null;
        external.mid = null;
      }
      if (matching) this.#matchResting(sim, now);
    }
    this.#liquidateDue(now);
  }

  /**
   * Adds a market the engine did not start with (a replay meets it later), as if it had been
   * there from the start: its random walk is stepped through the steps already taken.
   *
   * @throws QuantaError `QUANTA_SIM_INVALID_INPUT` when the id is already listed.
   */
  addMarket(market: Market): void {
    this.#sync();
    if (this.#markets.has(market.id))
      throw this.#invalid(`addMarket: market ${market.id} is already listed`);
    const [resolved] = resolveSimOptions({ ...this.#source, markets: [market] }).markets;
    if (resolved === undefined) throw new Error('unreachable: one market resolved');
    const sim: MarketSim = {
      market: resolved.market,
      rng: new SeededRandom(deriveSeed(this.#options.seed, market.id)),
      levelSizeX18: resolved.levelSizeX18,
      priceQuantumX18: quantumX18(market.priceExpo),
      midX18: resolved.initialMidX18,
      syntheticBook: null,
      external: null,
    };
    for (
      let at = this.#startedAt + this.#options.stepMs;
      at < this.#nextStepAt;
      at += this.#options.stepMs
    ) {
      sim.midX18 = nextMidX18(
        sim.midX18,
        drawShockPpb(sim.rng, this.#options.volatilityPpb),
        sim.priceQuantumX18,
      );
    }
    this.#markets.set(market.id, sim);
  }

  /**
   * Ends replay mode for one market (or all): the synthetic walk resumes from the replayed
   * mid (snapped to the grid) when there was one.
   */
  clearExternalQuotes(marketId?: number): void {
    this.#sync();
    for (const sim of this.#markets.values()) {
      if (sim.external === null || (marketId !== undefined && sim.market.id !== marketId)) continue;
      const midX18 = this.#externalMid(sim.external);
      if (midX18 !== undefined) sim.midX18 = snapPriceToGrid(midX18, sim.market.priceExpo);
      sim.external = null;
      sim.syntheticBook = null;
    }
  }

  /**
   * Checks an order as the venue does (docs/conventions.md §4.4 order, without the signature) without
   * placing it. The HTTP layer runs this before verifying the signature.
   *
   * @throws SimRejection with the venue's exact message.
   */
  validateOrder(request: SimOrderRequest): void {
    const now = this.#sync();
    validateOrderRequest(this.#markets.get(request.marketId)?.market, request, now);
  }

  /**
   * Validates and executes an order for `accountId` (created on first use with the initial
   * balance). MARKET orders walk the book immediate-or-cancel: `FILLED`, or `CANCELLED` with
   * whatever filled. LIMIT orders take what crosses (taker fee), then rest until `expiryTs`
   * (`OPEN`/`PARTIALLY_FILLED`), filling later when a price step crosses them (maker fee), and are
   * `CANCELLED` at expiry. Reduce-only orders fill at most the size of the opposite position;
   * once that part is filled the rest is `CANCELLED`.
   *
   * @returns the order after its immediate fills.
   * @throws SimRejection with the venue's exact message when validation fails.
   */
  placeOrder(accountId: string, request: SimOrderRequest): SimOrder {
    const now = this.#sync();
    const sim = this.#markets.get(request.marketId);
    validateOrderRequest(sim?.market, request, now);
    // Validation already refused an unknown market; this only tells the compiler.
    if (sim === undefined) throw new SimRejection(`market ${request.marketId} not found`);

    const account = this.#account(accountId);
    if (this.#liquidated.has(accountId) && !this.#options.margin.continueAfterLiquidation) {
      throw new SimRejection('account liquidated: its trading has ended');
    }
    checkSimOrderMargin(
      this.#options.margin,
      account,
      sim.market,
      request.side,
      request.amountX18,
      request.type === 'LIMIT' ? request.priceX18 : this.#bestPrice(sim, request.side),
      () => this.#marginInput(account),
    );
    const at = iso(now);
    const order: BookedOrder = {
      id: this.#nextOrderId,
      accountId,
      market: sim.market,
      side: request.side,
      type: request.type,
      amountX18: request.amountX18,
      priceX18: request.priceX18,
      expiryTs: request.expiryTs,
      isReduce: request.isReduce,
      createdAt: at,
      capacityX18: request.isReduce
        ? min(request.amountX18, account.reducibleX18(sim.market.id, request.side))
        : request.amountX18,
      // The order has reached the venue; its first fills decide what it becomes.
      status: transition(INITIAL_ORDER_STATE, 'sent'),
      totalFilledX18: 0n,
      filledNotionalX36: 0n,
      feesPaidX18: 0n,
      updatedAt: at,
      fills: [],
    };
    this.#nextOrderId += 1;
    this.#orders.set(order.id, order);

    const limit = request.type === 'LIMIT' ? request.priceX18 : null;
    for (const take of takeLiquidity(this.#bookOf(sim), request.side, order.capacityX18, limit)) {
      this.#fill(order, take.amountX18, take.priceX18, 'TAKER', now);
    }
    this.#settle(order);
    return this.#view(order);
  }

  /** An order of `accountId` by id, with its fills so far; `undefined` if none (or another account's). */
  getOrder(accountId: string, orderId: number): SimOrder | undefined {
    this.#sync();
    const order = this.#orders.get(orderId);
    return order === undefined || order.accountId !== accountId ? undefined : this.#view(order);
  }

  /** The account's `OPEN` and `PARTIALLY_FILLED` orders, oldest first. */
  listOpenOrders(accountId: string): SimOrder[] {
    this.#sync();
    return [...this.#resting.values()]
      .filter((o) => o.accountId === accountId)
      .map((o) => this.#view(o));
  }

  /** The account's position in a market (flat when it never traded there). */
  position(accountId: string, marketId: number): SimPosition {
    this.#sync();
    const ledger = this.#accounts.get(accountId);
    return ledger === undefined
      ? { marketId, amountX18: 0n, avgEntryPriceX18: 0n, realizedPnlX18: 0n }
      : ledger.position(marketId);
  }

  /** The account's cash, fees, realised PnL and positions (the initial balance if it never traded). */
  account(accountId: string): SimAccount {
    this.#sync();
    return (
      this.#accounts.get(accountId) ?? new AccountLedger(accountId, this.#options.initialBalanceX18)
    ).view();
  }

  /**
   * The liquidations so far (of one account, or all), oldest first: each position the
   * simulation closed because the account's equity fell below its maintenance margin
   * (docs/margin.md, "Simulation").
   */
  liquidations(accountId?: string): SimLiquidation[] {
    this.#sync();
    return this.#liquidations.filter((l) => accountId === undefined || l.accountId === accountId);
  }

  #invalid(message: string): QuantaError {
    return new QuantaError(ErrorCodes.SIM_INVALID_INPUT, message);
  }

  #readClock(): number {
    const now = this.#options.clock();
    if (typeof now !== 'number' || !Number.isFinite(now) || Math.abs(now) > MAX_CLOCK_MS) {
      throw this.#invalid(`sim clock returned ${String(now)}: expected ms since the epoch`);
    }
    return now;
  }

  /** Reads the clock once and brings the simulation up to it; time never goes back. */
  #sync(): number {
    const target = Math.max(this.#readClock(), this.#now);
    while (this.#nextStepAt <= target) {
      const at = this.#nextStepAt;
      this.#applyScheduleUntil(at);
      this.#expireUntil(at);
      for (const sim of this.#markets.values()) {
        if (sim.external !== null) continue;
        sim.midX18 = nextMidX18(
          sim.midX18,
          drawShockPpb(sim.rng, this.#options.volatilityPpb),
          sim.priceQuantumX18,
        );
        sim.syntheticBook = null;
        if (this.#resting.size > 0) this.#matchResting(sim, at);
      }
      this.#liquidateDue(at);
      this.#nextStepAt += this.#options.stepMs;
    }
    this.#applyScheduleUntil(target);
    this.#expireUntil(target);
    this.#now = target;
    return target;
  }

  // A replayed quote's book: each side parsed when first read (an order reads one side).
  #externalBook(external: ExternalBook): Book {
    external.book ??= lazyBookFromQuote(external.quote);
    return external.book;
  }

  #externalMid(external: ExternalBook): bigint | undefined {
    external.mid ??= { x18: bookMid(this.#externalBook(external)) };
    return external.mid.x18;
  }

  #bookOf(sim: MarketSim): Book {
    if (sim.external !== null) return this.#externalBook(sim.external);
    sim.syntheticBook ??= buildSyntheticBook(
      sim.midX18,
      sim.market.priceExpo,
      sim.levelSizeX18,
      this.#options.shape,
    );
    return sim.syntheticBook;
  }

  #account(accountId: string): AccountLedger {
    let ledger = this.#accounts.get(accountId);
    if (ledger === undefined) {
      ledger = new AccountLedger(accountId, this.#options.initialBalanceX18);
      this.#accounts.set(accountId, ledger);
    }
    return ledger;
  }

  #setActive(marketId: number, active: boolean, atMs: number): void {
    const sim = this.#markets.get(marketId);
    if (sim === undefined || sim.market.isActive === active) return;
    sim.market = { ...sim.market, isActive: active, updatedAt: iso(atMs) };
  }

  #addScheduled(change: ActivityChange): void {
    // Stable by time: changes at the same instant apply in the order they were asked for.
    const index = this.#schedule.findIndex((c) => c.atMs > change.atMs);
    if (index === -1) this.#schedule.push(change);
    else this.#schedule.splice(index, 0, change);
  }

  #applyScheduleUntil(atMs: number): void {
    while (this.#schedule.length > 0 && (this.#schedule[0]?.atMs ?? Infinity) <= atMs) {
      const change = this.#schedule.shift();
      if (change !== undefined) this.#setActive(change.marketId, change.active, change.atMs);
    }
  }

  #expireUntil(atMs: number): void {
    for (const order of this.#resting.values()) {
      if (order.expiryTs > atMs) continue;
      // The venue reports an order that reached its expiry as CANCELLED (docs/conventions.md §4.5), and
      // the engine is the venue: EXPIRED is the bot's word for an order that never got there.
      order.status = transition(order.status, 'cancelled');
      order.updatedAt = iso(order.expiryTs);
      this.#resting.delete(order.id);
    }
  }

  #matchResting(sim: MarketSim, at: number): void {
    if (!sim.market.isActive) return;
    const marketId = sim.market.id;
    const orders: BookedOrder[] = [];
    for (const order of this.#resting.values())
      if (order.market.id === marketId) orders.push(order);
    if (orders.length === 0) return;
    orders.sort(restingPriority);
    const book = this.#bookOf(sim);
    for (const order of orders) {
      let want = order.capacityX18 - order.totalFilledX18;
      if (order.isReduce) {
        const reducible = this.#account(order.accountId).reducibleX18(marketId, order.side);
        if (reducible === 0n) {
          // Nothing left to reduce: the rest of a reduce-only order can never fill.
          order.status = transition(order.status, 'cancelled');
          order.updatedAt = iso(at);
          this.#resting.delete(order.id);
          continue;
        }
        want = min(want, reducible);
      }
      let amount = 0n;
      for (const take of takeLiquidity(book, order.side, want, order.priceX18))
        amount += take.amountX18;
      if (amount === 0n) continue;
      this.#fill(order, amount, order.priceX18, 'MAKER', at);
      this.#settle(order);
    }
  }

  /** The best price an order on `side` would meet now, undefined when that side is empty. */
  #bestPrice(sim: MarketSim, side: OrderSide): bigint | undefined {
    const levels = side === 'BUY' ? this.#bookOf(sim).asks : this.#bookOf(sim).bids;
    return levels.find((level) => level.remainingX18 > 0n)?.priceX18;
  }

  /** A market's mark by the one mid rule; the last one held while its book is one-sided. */
  #markOf(marketId: number): bigint | undefined {
    const sim = this.#markets.get(marketId);
    if (sim === undefined) return undefined;
    const mid = sim.external === null ? sim.midX18 : this.#externalMid(sim.external);
    if (mid === undefined) return this.#lastMark.get(marketId);
    this.#lastMark.set(marketId, mid);
    return mid;
  }

  #marginInput(ledger: AccountLedger): ReturnType<typeof ledgerAccount> {
    return ledgerAccount(
      ledger,
      (marketId) => this.#markets.get(marketId)?.market,
      (marketId) => this.#markOf(marketId),
    );
  }

  /**
   * The liquidation rule (docs/margin.md): an account whose equity is below its maintenance
   * margin has its resting orders cancelled and every PERPETUAL position closed against the
   * book as a MARKET order would be, each fill charged the liquidation fee.
   */
  #liquidateDue(at: number): void {
    for (const ledger of this.#accounts.values()) {
      if (!this.#marginWatch.liquidatable(ledger)) continue;
      const input = this.#marginInput(ledger);
      if (input === undefined) continue;
      const view = marginAccount(input);
      for (const order of this.#resting.values()) {
        if (order.accountId !== ledger.accountId) continue;
        order.status = transition(order.status, 'cancelled');
        order.updatedAt = iso(at);
        this.#resting.delete(order.id);
      }
      for (const position of input.positions) {
        if (position.type !== 'PERPETUAL') continue;
        const sim = this.#markets.get(position.marketId);
        if (sim === undefined) continue;
        const side: OrderSide = position.amountX18 > 0n ? 'SELL' : 'BUY';
        const want = position.amountX18 > 0n ? position.amountX18 : -position.amountX18;
        let amountX18 = 0n;
        let notionalX36 = 0n;
        let feeX18 = 0n;
        for (const take of takeLiquidity(this.#bookOf(sim), side, want, null)) {
          const fee = fillFeeX18(
            take.amountX18,
            take.priceX18,
            this.#options.margin.liquidationFeeX18,
          );
          ledger.applyFill(sim.market.id, side, take.amountX18, take.priceX18, fee);
          amountX18 += take.amountX18;
          notionalX36 += take.amountX18 * take.priceX18;
          feeX18 += fee;
        }
        if (amountX18 === 0n) continue;
        this.#liquidations.push({
          accountId: ledger.accountId,
          at,
          marketId: sim.market.id,
          side,
          amountX18,
          priceX18: notionalX36 / amountX18,
          markX18: position.markX18,
          feeX18,
          equityX18: view.equityX18,
          maintenanceMarginX18: view.maintenanceMarginX18,
        });
      }
      this.#liquidated.add(ledger.accountId);
    }
  }

  #fill(
    order: BookedOrder,
    amountX18: bigint,
    priceX18: bigint,
    liquidity: FillLiquidity,
    at: number,
  ): void {
    const fraction = liquidity === 'TAKER' ? order.market.takerFeeX18 : order.market.makerFeeX18;
    const feeX18 = fillFeeX18(amountX18, priceX18, fraction);
    this.#account(order.accountId).applyFill(
      order.market.id,
      order.side,
      amountX18,
      priceX18,
      feeX18,
    );
    order.totalFilledX18 += amountX18;
    order.filledNotionalX36 += amountX18 * priceX18;
    order.feesPaidX18 += feeX18;
    order.updatedAt = iso(at);
    order.fills.push({ priceX18, amountX18, feeX18, liquidity, at });
  }

  /**
   * Moves the order on after placement or fills (what the venue would report now); puts a LIMIT
   * order that can still fill on (or keeps it on) the book.
   */
  #settle(order: BookedOrder): void {
    order.status = transition(order.status, settledEvent(order));
    if (isRestingState(order.status)) this.#resting.set(order.id, order);
    else this.#resting.delete(order.id);
  }

  #view(order: BookedOrder): SimOrder {
    const filled = order.totalFilledX18;
    return {
      id: order.id,
      accountId: order.accountId,
      marketId: order.market.id,
      marketSymbol: order.market.symbol,
      marketType: order.market.type,
      side: order.side,
      type: order.type,
      status: reportedStatus(order),
      amountX18: order.amountX18,
      priceX18: order.priceX18,
      totalFilledX18: filled,
      avgFillPriceX18: filled === 0n ? 0n : order.filledNotionalX36 / filled,
      feesPaidX18: order.feesPaidX18,
      expiryTs: order.expiryTs,
      isReduce: order.isReduce,
      createdAt: order.createdAt,
      updatedAt: order.updatedAt,
      fills: [...order.fills],
    };
  }
}

import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { Market, Quote } from '../domain/index.ts';
import { takeLiquidity } from './book-level.ts';
import { fillOrder, newBookedOrder, orderView, type BookedOrder } from './booked-order.ts';
import { IsoTimestamps } from './iso-time.ts';
import { ListingSchedule } from './listing-schedule.ts';
import { Liquidator } from './liquidator.ts';
import { type ResolvedSimOptions, type SimEngineOptions, resolveSimOptions } from './options.ts';
import { jumpMid, midOf } from './market-sim.ts';
import { replayLazily, replayParsed } from './replayed-book.ts';
import { RestingOrders } from './resting-orders.ts';
import { SimAccounts } from './sim-accounts.ts';
import { readSimClock } from './sim-clock.ts';
import { SimMarkets } from './sim-markets.ts';
import type { SimAccount, SimOrder, SimOrderRequest, SimPosition } from './types.ts';
import { SimRejection } from './sim-rejection.ts';
import { validateOrderRequest } from './validate-order.ts';
import { checkSimOrderMargin, type SimLiquidation } from './sim-margin.ts';

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
 * The engine only coordinates: each market's price process and book (sim-markets.ts,
 * market-sim.ts, replayed-book.ts), the listing schedule (listing-schedule.ts), validation
 * (validate-order.ts), resting orders' matching and expiry (resting-orders.ts), the accounts'
 * ledgers (sim-accounts.ts, ledger.ts) and liquidations (liquidator.ts).
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
  readonly #source: SimEngineOptions;
  readonly #iso = new IsoTimestamps();
  readonly #markets: SimMarkets;
  readonly #accounts: SimAccounts;
  readonly #orders = new Map<number, BookedOrder>();
  readonly #resting = new RestingOrders(this.#iso);
  readonly #schedule = new ListingSchedule();
  readonly #liquidator: Liquidator;
  #nextOrderId = 1;
  #now: number;
  #nextStepAt: number;
  /** Price steps taken since the start (a market added later is walked through as many). */
  #stepsTaken = 0;

  /**
   * @throws QuantaError `QUANTA_SIM_INVALID_INPUT` for a bad option (see `SimEngineOptions`),
   *   `QUANTA_INVALID_DECIMAL` for a malformed decimal option.
   */
  constructor(options: SimEngineOptions) {
    this.#options = resolveSimOptions(options);
    this.#source = options;
    this.#markets = new SimMarkets(this.#options, this.#iso);
    this.#accounts = new SimAccounts(this.#options.initialBalanceX18);
    this.#liquidator = new Liquidator(
      this.#options.margin,
      this.#markets,
      this.#accounts,
      this.#resting,
    );
    this.#now = readSimClock(this.#options.clock);
    this.#nextStepAt = this.#now + this.#options.stepMs;
    for (const resolved of this.#options.markets) this.#markets.add(resolved, 0);
    for (const listing of this.#options.listings) {
      if (listing.activeAtMs > this.#now) {
        this.#markets.setActive(listing.marketId, false, this.#now);
        this.#schedule.add({ marketId: listing.marketId, active: true, atMs: listing.activeAtMs });
      } else {
        this.#markets.setActive(listing.marketId, true, this.#now);
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
    return this.#markets.market(marketId);
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
    if (atMs !== undefined && atMs > now) this.#schedule.add({ marketId, active, atMs });
    else this.#markets.setActive(marketId, active, now);
  }

  /**
   * A price jump (a gap: news, a cascade): the walk's mid of `marketId` moves by `ppb` parts per
   * billion of itself at once, on its grid, and walks on from there. Resting orders the new book
   * crosses fill (maker, at their price); positions past maintenance are liquidated.
   *
   * @throws QuantaError `QUANTA_SIM_INVALID_INPUT` for an unknown market or one replaying quotes.
   */
  jumpMid(marketId: number, ppb: bigint): void {
    const now = this.#sync();
    const sim = this.#markets.get(marketId);
    if (sim === undefined || sim.external !== null)
      throw this.#invalid(`jumpMid: market ${marketId} not found or replaying quotes`);
    jumpMid(sim, ppb);
    this.#matchResting(sim.market, now);
    this.#liquidator.liquidateDue(now);
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
    return sims.filter((sim) => sim.market.isActive).map((sim) => this.#markets.quote(sim, now));
  }

  /**
   * {@link quotes} as the JSON text of the venue's quotes body, `{"quotes":[...]}`: the bytes
   * `JSON.stringify` writes of their wire form. The quotes are polled every second, and writing
   * the text straight from the books costs less than making the quotes, copying them to the wire
   * form and writing that.
   */
  quotesJson(marketId?: number): string {
    const now = this.#sync();
    let text = '{"quotes":[';
    let first = true;
    for (const sim of this.#markets.values()) {
      if (!sim.market.isActive || (marketId !== undefined && sim.market.id !== marketId)) continue;
      text += first ? this.#markets.quoteJson(sim, now) : `,${this.#markets.quoteJson(sim, now)}`;
      first = false;
    }
    return `${text}]}`;
  }

  /**
   * The current mid price x18: the random walk's mid, or in replay mode the middle of the last
   * quote's best bid and ask (floored, by the one mid rule `midPriceX18`). `undefined` for an
   * unknown market or a replayed quote with an empty side.
   */
  midPriceX18(marketId: number): bigint | undefined {
    this.#sync();
    const sim = this.#markets.get(marketId);
    return sim === undefined ? undefined : midOf(sim);
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
      return { sim, replayed: replayParsed(quote) };
    });
    for (const { sim, replayed } of parsed) {
      sim.external = replayed;
      this.#matchResting(sim.market, now);
    }
    this.#liquidator.liquidateDue(now);
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
      const sim = this.#markets.get(quote.marketId);
      if (sim === undefined) continue; // checked above
      sim.external = replayLazily(sim.external, quote);
      if (matching) this.#matchResting(sim.market, now);
    }
    this.#liquidator.liquidateDue(now);
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
    this.#markets.add(resolved, this.#stepsTaken);
  }

  /**
   * Ends replay mode for one market (or all): the synthetic walk resumes from the replayed
   * mid (snapped to the grid) when there was one.
   */
  clearExternalQuotes(marketId?: number): void {
    this.#sync();
    this.#markets.endReplay(marketId);
  }

  /**
   * Checks an order as the venue does (docs/conventions.md §4.4 order, without the signature) without
   * placing it. The HTTP layer runs this before verifying the signature.
   *
   * @throws SimRejection with the venue's exact message.
   */
  validateOrder(request: SimOrderRequest): void {
    const now = this.#sync();
    validateOrderRequest(this.#markets.market(request.marketId), request, now);
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

    const account = this.#accounts.ledger(accountId);
    if (this.#liquidator.liquidated(accountId) && !this.#options.margin.continueAfterLiquidation) {
      throw new SimRejection('account liquidated: its trading has ended');
    }
    checkSimOrderMargin(
      this.#options.margin,
      account,
      sim.market,
      request.side,
      request.amountX18,
      request.type === 'LIMIT' ? request.priceX18 : this.#markets.bestPrice(sim, request.side),
      () => this.#markets.marginInput(account),
    );
    const placement = { id: this.#nextOrderId, ledger: account, market: sim.market };
    const order = newBookedOrder(placement, request, this.#iso.of(now));
    this.#nextOrderId += 1;
    this.#orders.set(order.id, order);

    const limit = request.type === 'LIMIT' ? request.priceX18 : null;
    const book = this.#markets.bookOf(sim);
    for (const take of takeLiquidity(book, request.side, order.capacityX18, limit)) {
      fillOrder(order, account, {
        amountX18: take.amountX18,
        priceX18: take.priceX18,
        liquidity: 'TAKER',
        at: now,
        atIso: this.#iso.of(now),
      });
    }
    this.#resting.settle(order);
    return orderView(order);
  }

  /** An order of `accountId` by id, with its fills so far; `undefined` if none (or another account's). */
  getOrder(accountId: string, orderId: number): SimOrder | undefined {
    this.#sync();
    const order = this.#orders.get(orderId);
    return order === undefined || order.accountId !== accountId ? undefined : orderView(order);
  }

  /** The account's `OPEN` and `PARTIALLY_FILLED` orders, oldest first. */
  listOpenOrders(accountId: string): SimOrder[] {
    this.#sync();
    return this.#resting.ofAccount(accountId).map(orderView);
  }

  /** The account's position in a market (flat when it never traded there). */
  position(accountId: string, marketId: number): SimPosition {
    this.#sync();
    return this.#accounts.position(accountId, marketId);
  }

  /** The account's cash, fees, realised PnL and positions (the initial balance if it never traded). */
  account(accountId: string): SimAccount {
    this.#sync();
    return this.#accounts.view(accountId);
  }

  /**
   * The liquidations so far (of one account, or all), oldest first: each position the
   * simulation closed because the account's equity fell below its maintenance margin
   * (docs/margin.md, "Simulation").
   */
  liquidations(accountId?: string): SimLiquidation[] {
    this.#sync();
    return this.#liquidator.list(accountId);
  }

  #invalid(message: string): QuantaError {
    return new QuantaError(ErrorCodes.SIM_INVALID_INPUT, message);
  }

  /** Reads the clock once and brings the simulation up to it; time never goes back. */
  #sync(): number {
    const target = Math.max(readSimClock(this.#options.clock), this.#now);
    while (this.#nextStepAt <= target) {
      const at = this.#nextStepAt;
      this.#applyScheduleUntil(at);
      this.#resting.expireUntil(at);
      this.#markets.step((sim) => {
        if (this.#resting.size > 0) this.#matchResting(sim.market, at);
      });
      this.#liquidator.liquidateDue(at);
      this.#nextStepAt += this.#options.stepMs;
      this.#stepsTaken += 1;
    }
    this.#applyScheduleUntil(target);
    this.#resting.expireUntil(target);
    this.#now = target;
    return target;
  }

  #applyScheduleUntil(atMs: number): void {
    this.#schedule.applyUntil(atMs, (change) =>
      this.#markets.setActive(change.marketId, change.active, change.atMs),
    );
  }

  /** Fills the resting orders of an active market that its book now crosses. */
  #matchResting(market: Market, at: number): void {
    if (!market.isActive) return;
    const sim = this.#markets.get(market.id);
    if (sim === undefined) return;
    this.#resting.match(
      market.id,
      () => this.#markets.bookOf(sim),
      (accountId) => this.#accounts.ledger(accountId),
      at,
    );
  }
}

import { formatX18 } from '../money/index.ts';
import type { Market, OrderSide, Quote, QuoteLevel } from '../domain/index.ts';
import type { Book, BookLevel } from './book-level.ts';
import type { IsoTimestamps } from './iso-time.ts';
import type { AccountLedger } from './ledger.ts';
import { bookOf, midOf, newMarketSim, stepMid, type MarketSim } from './market-sim.ts';
import { BOOK_DEPTH, type ResolvedMarket } from './options.ts';
import { snapPriceToGrid } from './price-walk.ts';
import { replayedMidOf } from './replayed-book.ts';
import { ledgerAccount } from './sim-margin.ts';
import { levelFactors, type BookShape, type LevelFactors } from './synthetic-book.ts';

/** Texts kept by {@link DecimalTexts} before it starts over. */
const KEPT_TEXTS = 4096;

/**
 * `formatX18` of the values a replayed book quotes, kept: a recorded book's levels come back
 * from one quote to the next.
 */
class DecimalTexts {
  readonly #texts = new Map<bigint, string>();

  of(value: bigint): string {
    let text = this.#texts.get(value);
    if (text === undefined) {
      if (this.#texts.size >= KEPT_TEXTS) this.#texts.clear();
      text = formatX18(value);
      this.#texts.set(value, text);
    }
    return text;
  }
}

/**
 * Hands each quoted level of one side to `take` as price and quantity texts, best first,
 * consumed levels left out, at most BOOK_DEPTH: the one walk behind a quote as objects and as
 * JSON text. A size is formatted once per run of equal sizes (a synthetic side holds the same
 * size at every level no fill touched). Prices go through `texts` when given (a replayed book:
 * its levels come back step after step); a synthetic book's are formatted as they come: the
 * walk moves every level's price at each step, so a kept text was about never asked again, and
 * the map cost more than it saved (it also kept thousands of texts alive through young-generation
 * collections).
 */
function eachQuotedLevel(
  levels: readonly BookLevel[],
  texts: DecimalTexts | undefined,
  take: (price: string, quantity: string) => void,
): void {
  let count = 0;
  let size = -1n;
  let sizeText = '';
  for (const level of levels) {
    if (count === BOOK_DEPTH) break;
    const remaining = level.remainingX18;
    if (remaining > 0n) {
      if (remaining !== size) {
        size = remaining;
        sizeText = texts === undefined ? formatX18(remaining) : texts.of(remaining);
      }
      take(texts === undefined ? formatX18(level.priceX18) : texts.of(level.priceX18), sizeText);
      count += 1;
    }
  }
}

/** The quoted levels of one side (see {@link eachQuotedLevel}). */
function quoteLevels(levels: readonly BookLevel[], texts: DecimalTexts | undefined): QuoteLevel[] {
  const out: QuoteLevel[] = [];
  eachQuotedLevel(levels, texts, (price, quantity) => out.push({ price, quantity }));
  return out;
}

/**
 * The quoted levels of one side as the JSON array `JSON.stringify` writes of
 * {@link quoteLevels}: the texts are formatX18's (digits, `.` and `-`), which JSON writes as they
 * are, between quotes.
 */
function levelsJson(levels: readonly BookLevel[], texts: DecimalTexts | undefined): string {
  let text = '[';
  eachQuotedLevel(levels, texts, (price, quantity) => {
    text += `${text.length === 1 ? '' : ','}{"price":"${price}","quantity":"${quantity}"}`;
  });
  return `${text}]`;
}

/** How the engine's markets move and quote, from the engine's resolved options. */
export interface SimMarketRules {
  readonly seed: number;
  readonly volatilityPpb: bigint;
  readonly shape: BookShape;
}

/**
 * The engine's markets by id, in listing order: their listings, books and marks (the last mark
 * of each market is held while its replayed book is one-sided).
 */
export class SimMarkets {
  readonly #sims = new Map<number, MarketSim>();
  readonly #rules: SimMarketRules;
  readonly #iso: IsoTimestamps;
  readonly #texts = new DecimalTexts();
  readonly #factors: LevelFactors;
  // Made once for `marginInput`: every order's margin check reads the marks.
  readonly #marketOf = (marketId: number): Market | undefined => this.market(marketId);
  readonly #markOfId = (marketId: number): bigint | undefined => this.markOf(marketId);

  constructor(rules: SimMarketRules, iso: IsoTimestamps) {
    this.#rules = rules;
    this.#iso = iso;
    this.#factors = levelFactors(rules.shape);
  }

  /**
   * Lists a market at its initial mid and walks it through `stepsTaken` steps, as if it had been
   * there from the start.
   */
  add(resolved: ResolvedMarket, stepsTaken: number): void {
    const sim = newMarketSim(resolved, this.#rules.seed);
    for (let step = 0; step < stepsTaken; step++) stepMid(sim, this.#rules.volatilityPpb);
    this.#sims.set(sim.market.id, sim);
  }

  get(marketId: number): MarketSim | undefined {
    return this.#sims.get(marketId);
  }

  has(marketId: number): boolean {
    return this.#sims.has(marketId);
  }

  /** Every market, in listing order. */
  values(): IterableIterator<MarketSim> {
    return this.#sims.values();
  }

  market(marketId: number): Market | undefined {
    return this.#sims.get(marketId)?.market;
  }

  /** Turns a market on or off (its `updatedAt` becomes `atMs`); nothing when it already is. */
  setActive(marketId: number, active: boolean, atMs: number): void {
    const sim = this.#sims.get(marketId);
    if (sim === undefined || sim.market.isActive === active) return;
    sim.market = { ...sim.market, isActive: active, updatedAt: this.#iso.of(atMs) };
  }

  /** The price process of every market not replaying quotes: one walk step each, `then` after each. */
  step(then: (sim: MarketSim) => void): void {
    for (const sim of this.#sims.values()) {
      if (sim.external !== null) continue;
      stepMid(sim, this.#rules.volatilityPpb);
      then(sim);
    }
  }

  bookOf(sim: MarketSim): Book {
    return bookOf(sim, this.#rules.shape, this.#factors);
  }

  /** The market's book as a quote at `timestamp`, consumed levels left out (at most BOOK_DEPTH). */
  quote(sim: MarketSim, timestamp: number): Quote {
    const book = this.bookOf(sim);
    const texts = sim.external === null ? undefined : this.#texts;
    return {
      marketId: sim.market.id,
      timestamp,
      bids: quoteLevels(book.bids, texts),
      asks: quoteLevels(book.asks, texts),
    };
  }

  /**
   * {@link quote} as the JSON text `JSON.stringify` writes of its wire form (keys in the wire
   * schema's order), for the venue's quotes answer: no quote and level objects made to be
   * written out at once.
   */
  quoteJson(sim: MarketSim, timestamp: number): string {
    const book = this.bookOf(sim);
    const texts = sim.external === null ? undefined : this.#texts;
    const head = `{"marketId":${JSON.stringify(sim.market.id)},"timestamp":${JSON.stringify(timestamp)}`;
    return `${head},"bids":${levelsJson(book.bids, texts)},"asks":${levelsJson(book.asks, texts)}}`;
  }

  /** The best price an order on `side` would meet now, undefined when that side is empty. */
  bestPrice(sim: MarketSim, side: OrderSide): bigint | undefined {
    const book = this.bookOf(sim);
    for (const level of side === 'BUY' ? book.asks : book.bids)
      if (level.remainingX18 > 0n) return level.priceX18;
    return undefined;
  }

  /** A market's mark by the one mid rule; the last one held while its book is one-sided. */
  markOf(marketId: number): bigint | undefined {
    const sim = this.#sims.get(marketId);
    if (sim === undefined) return undefined;
    const mid = midOf(sim);
    // Kept on the market, not in a Map by id: the liquidation check reads every held market's
    // mark at every replayed snapshot.
    if (mid === undefined) return sim.lastMarkX18;
    sim.lastMarkX18 = mid;
    return mid;
  }

  /** The account model's input for `ledger` at the current marks. */
  marginInput(ledger: AccountLedger): ReturnType<typeof ledgerAccount> {
    return ledgerAccount(ledger, this.#marketOf, this.#markOfId);
  }

  /**
   * Ends replay mode for one market (or all): the walk resumes from the replayed mid (snapped to
   * the grid) when there was one.
   */
  endReplay(marketId?: number): void {
    for (const sim of this.#sims.values()) {
      if (sim.external === null || (marketId !== undefined && sim.market.id !== marketId)) continue;
      const midX18 = replayedMidOf(sim.external);
      if (midX18 !== undefined) sim.midX18 = snapPriceToGrid(midX18, sim.market.priceExpo);
      sim.external = null;
      sim.syntheticBook = null;
    }
  }
}

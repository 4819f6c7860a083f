import { quantumX18 } from '../money/index.ts';
import type { Market } from '../domain/index.ts';
import type { Book } from './book-level.ts';
import type { ResolvedMarket } from './options.ts';
import { drawShockPpb, nextMidX18 } from './price-walk.ts';
import { SeededRandom, deriveSeed } from './random.ts';
import { replayedBookOf, replayedMidOf, type ReplayedBook } from './replayed-book.ts';
import { buildSyntheticBook, type BookShape, type LevelFactors } from './synthetic-book.ts';

/** One simulated market: its listing, its price process and its current book. */
export interface MarketSim {
  market: Market;
  readonly rng: SeededRandom;
  readonly levelSizeX18: bigint;
  readonly priceQuantumX18: bigint;
  midX18: bigint;
  /** The synthetic book of the current step; `null` until someone needs it (built lazily). */
  syntheticBook: Book | null;
  /**
   * Replay mode: the last external quote, parsed lazily (see `ReplayedBook`); `null` while the
   * random walk sets the price.
   */
  external: ReplayedBook | null;
  /**
   * The last mark the margin rules read (`SimMarkets.markOf`), held while the book is one-sided;
   * undefined until a mark was read.
   */
  lastMarkX18: bigint | undefined;
}

/** A market at its initial mid, its random walk seeded from the engine seed and its id. */
export function newMarketSim(resolved: ResolvedMarket, seed: number): MarketSim {
  return {
    market: resolved.market,
    rng: new SeededRandom(deriveSeed(seed, resolved.market.id)),
    levelSizeX18: resolved.levelSizeX18,
    priceQuantumX18: quantumX18(resolved.market.priceExpo),
    midX18: resolved.initialMidX18,
    syntheticBook: null,
    external: null,
    lastMarkX18: undefined,
  };
}

/** The price process: one step of the market's random walk (its book is rebuilt when next read). */
export function stepMid(sim: MarketSim, volatilityPpb: bigint): void {
  sim.midX18 = nextMidX18(sim.midX18, drawShockPpb(sim.rng, volatilityPpb), sim.priceQuantumX18);
  sim.syntheticBook = null;
}

/** A jump of the walk's mid by `ppb` of itself, on the grid (its book is rebuilt when next read). */
export function jumpMid(sim: MarketSim, ppb: bigint): void {
  sim.midX18 = nextMidX18(sim.midX18, ppb, sim.priceQuantumX18);
  sim.syntheticBook = null;
}

/** The market's book now: the replayed quote's, or the synthetic book around the walk's mid. */
export function bookOf(sim: MarketSim, shape: BookShape, factors: LevelFactors): Book {
  if (sim.external !== null) return replayedBookOf(sim.external);
  sim.syntheticBook ??= buildSyntheticBook(
    sim.midX18,
    sim.market.priceExpo,
    sim.levelSizeX18,
    shape,
    factors,
  );
  return sim.syntheticBook;
}

/** The market's mid now: the walk's, or the replayed quote's (`undefined` when one-sided). */
export function midOf(sim: MarketSim): bigint | undefined {
  return sim.external === null ? sim.midX18 : replayedMidOf(sim.external);
}

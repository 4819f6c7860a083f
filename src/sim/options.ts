import { ErrorCodes, QuantaError } from '../errors/index.ts';
import {
  X18_SCALE,
  floorToGrid,
  formatX18,
  parseDecimalToX18,
  quantumX18,
} from '../money/index.ts';
import type { Market } from '../domain/index.ts';
import { DEFAULT_INITIAL_PRICES, DEFAULT_SIM_MARKETS } from './default-markets.ts';
import { snapPriceToGrid } from './price-walk.ts';
import type { BookShape } from './synthetic-book.ts';
import { DEFAULT_LIQUIDATION_FEE, type SimMarginRules } from './sim-margin.ts';

/** A market that turns active at a given time (a "new listing"); inactive until then. */
export interface SimListing {
  readonly marketId: number;
  readonly activeAtMs: number;
}

/**
 * Options of `new SimEngine(...)`. Only `clock` is required. Values keyed "by id or symbol"
 * accept either key: `{ 1: '3000' }` or `{ 'ETH-USD': '3000' }` (the id wins when both are set).
 */
export interface SimEngineOptions {
  /** Milliseconds since the epoch. Read once per engine call; the engine never reads a timer. */
  readonly clock: () => number;
  /** The markets to simulate, in listing order. Default: `DEFAULT_SIM_MARKETS` (docs/conventions.md §7). */
  readonly markets?: readonly Market[];
  /** Seed of the price walks, a non-negative safe integer. Default 1. */
  readonly seed?: number;
  /**
   * Length of one price step in ms. Default 1000. Catching up after a long idle gap walks every
   * step (a few µs per market per step), so a day idle costs about a second on the next call.
   */
  readonly stepMs?: number;
  /** Per-step relative standard deviation of the mid, in basis points (may be fractional). Default 2. */
  readonly volatilityBps?: number;
  /** Distance from best bid to best ask, in basis points of the mid. Default 10. */
  readonly spreadBps?: number;
  /** Extra distance between consecutive levels of a side, in basis points. Default 5. */
  readonly levelStepBps?: number;
  /** Base amount per book level (decimal string) by market id or symbol; floored to the amount grid. */
  readonly levelSize?: Readonly<Record<string, string>>;
  /** For markets without `levelSize`: each level holds this much quote value at the initial price. Default "25000". */
  readonly levelNotional?: string;
  /** Starting cash of every account, quote units (decimal string). Default "100000". */
  readonly initialBalance?: string;
  /** Starting mid (decimal string) by market id or symbol. Default `DEFAULT_INITIAL_PRICES`. */
  readonly initialPrices?: Readonly<Record<string, string>>;
  /** Starting mid of a market named nowhere else. Default "100". */
  readonly defaultInitialPrice?: string;
  /** Markets that become active at a given time; they start inactive. */
  readonly listings?: readonly SimListing[];
  /**
   * Refuse an order whose initial margin and fee exceed the account's free margin
   * (docs/margin.md). Default true; false only in tests that need the liquidation without it.
   */
  readonly marginChecks?: boolean;
  /** Fraction of the closed notional a liquidation costs (decimal string). Default "0.01". */
  readonly liquidationFee?: string;
  /** After a liquidation the account's orders are refused unless this is true. Default false. */
  readonly continueAfterLiquidation?: boolean;
}

/** Levels per side of every synthetic book (docs/conventions.md §6: depth ≤ 10). */
export const BOOK_DEPTH = 10;

/** What the engine needs per market, checked and converted. */
export interface ResolvedMarket {
  readonly market: Market;
  readonly initialMidX18: bigint;
  readonly levelSizeX18: bigint;
}

/** `SimEngineOptions` checked, defaulted and converted to exact units. */
export interface ResolvedSimOptions {
  readonly clock: () => number;
  readonly markets: readonly ResolvedMarket[];
  readonly seed: number;
  readonly stepMs: number;
  readonly volatilityPpb: bigint;
  readonly shape: BookShape;
  readonly initialBalanceX18: bigint;
  readonly listings: readonly SimListing[];
  readonly margin: SimMarginRules;
}

function invalid(message: string): QuantaError {
  return new QuantaError(ErrorCodes.SIM_INVALID_INPUT, message);
}

function bpsToPpb(name: string, bps: number, max: number): bigint {
  if (!Number.isFinite(bps) || bps < 0 || bps > max) {
    throw invalid(
      `sim option ${name}: expected a number of basis points from 0 to ${max}, got ${bps}`,
    );
  }
  // Configuration only: bps → ppb is a scale by 10^5, rounded to whole ppb.
  return BigInt(Math.round(bps * 100_000));
}

function byIdOrSymbol(
  record: Readonly<Record<string, string>> | undefined,
  market: Market,
): string | undefined {
  if (record === undefined) return undefined;
  const byId = Object.hasOwn(record, String(market.id)) ? record[String(market.id)] : undefined;
  if (byId !== undefined) return byId;
  return Object.hasOwn(record, market.symbol) ? record[market.symbol] : undefined;
}

function resolveMarket(
  market: Market,
  options: SimEngineOptions,
  levelNotionalX18: bigint,
): ResolvedMarket {
  const where = `market ${market.id} ${market.symbol}`;
  const priceText =
    byIdOrSymbol(options.initialPrices, market) ??
    byIdOrSymbol(DEFAULT_INITIAL_PRICES, market) ??
    options.defaultInitialPrice ??
    '100';
  const initialMidX18 = snapPriceToGrid(
    parseDecimalToX18(priceText, `${where} initial price`),
    market.priceExpo,
  );

  const sizeText = byIdOrSymbol(options.levelSize, market);
  let levelSizeX18: bigint;
  if (sizeText !== undefined) {
    levelSizeX18 = floorToGrid(
      parseDecimalToX18(sizeText, `${where} levelSize`),
      market.amountExpo,
    );
    if (levelSizeX18 === 0n) {
      throw invalid(
        `sim option levelSize for ${where}: ${sizeText} is below one amount quantum ` +
          `${formatX18(quantumX18(market.amountExpo))}`,
      );
    }
  } else {
    const fromNotional = floorToGrid(
      (levelNotionalX18 * X18_SCALE) / initialMidX18,
      market.amountExpo,
    );
    levelSizeX18 = fromNotional > 0n ? fromNotional : quantumX18(market.amountExpo);
  }
  return { market, initialMidX18, levelSizeX18 };
}

/**
 * Checks and converts engine options.
 *
 * @throws QuantaError `QUANTA_SIM_INVALID_INPUT` naming the option and the rule;
 *   `QUANTA_INVALID_DECIMAL` for a malformed decimal string; `QUANTA_INVALID_EXPO` for a
 *   market whose expo is out of range.
 */
export function resolveSimOptions(options: SimEngineOptions): ResolvedSimOptions {
  if (typeof options.clock !== 'function')
    throw invalid('sim option clock: expected a function returning ms');
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw invalid(`sim option seed: expected a non-negative safe integer, got ${seed}`);
  }
  const stepMs = options.stepMs ?? 1000;
  if (!Number.isSafeInteger(stepMs) || stepMs <= 0) {
    throw invalid(`sim option stepMs: expected a positive integer of ms, got ${stepMs}`);
  }
  const volatilityPpb = bpsToPpb('volatilityBps', options.volatilityBps ?? 2, 1000);
  const spreadPpb = bpsToPpb('spreadBps', options.spreadBps ?? 10, 10_000);
  const levelStepPpb = bpsToPpb('levelStepBps', options.levelStepBps ?? 5, 1000);
  const levelNotionalX18 = parseDecimalToX18(
    options.levelNotional ?? '25000',
    'sim option levelNotional',
  );
  const initialBalanceX18 = parseDecimalToX18(
    options.initialBalance ?? '100000',
    'sim option initialBalance',
  );

  const seen = new Set<number>();
  const markets = (options.markets ?? DEFAULT_SIM_MARKETS).map((market) => {
    if (seen.has(market.id))
      throw invalid(`sim option markets: market id ${market.id} appears twice`);
    seen.add(market.id);
    return resolveMarket(market, options, levelNotionalX18);
  });

  const listings = options.listings ?? [];
  for (const listing of listings) {
    if (!seen.has(listing.marketId))
      throw invalid(`sim option listings: market ${listing.marketId} not found`);
    if (!Number.isFinite(listing.activeAtMs)) {
      throw invalid(
        `sim option listings: market ${listing.marketId} activeAtMs must be a number of ms`,
      );
    }
  }

  return {
    clock: options.clock,
    markets,
    seed,
    stepMs,
    volatilityPpb,
    shape: { halfSpreadPpb: spreadPpb / 2n, levelStepPpb, depth: BOOK_DEPTH },
    initialBalanceX18,
    listings,
    margin: {
      checks: options.marginChecks ?? true,
      liquidationFeeX18: parseDecimalToX18(
        options.liquidationFee ?? DEFAULT_LIQUIDATION_FEE,
        'sim option liquidationFee',
      ),
      continueAfterLiquidation: options.continueAfterLiquidation ?? false,
    },
  };
}

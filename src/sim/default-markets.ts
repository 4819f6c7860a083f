import type { Market } from '../domain/index.ts';

const LISTED_AT = '2026-01-05T00:00:00Z';
const X18 = 10n ** 18n;
const BP = 10n ** 14n;
const PERCENT = 10n ** 16n;

function market(
  fields: Pick<
    Market,
    | 'id'
    | 'symbol'
    | 'type'
    | 'baseAsset'
    | 'amountExpo'
    | 'priceExpo'
    | 'minAmountX18'
    | 'maxPositionValueX18'
    | 'makerFeeX18'
    | 'takerFeeX18'
    | 'initialMarginX18'
    | 'maintenanceMarginX18'
  >,
): Market {
  return {
    quoteAsset: 'USDC',
    isActive: true,
    createdAt: LISTED_AT,
    updatedAt: LISTED_AT,
    deletedAt: null,
    ...fields,
  };
}

/**
 * The sample markets of docs/conventions.md §7, the paper venue's defaults. Pass another `Market[]`
 * (for example parsed from a markets file) to `new SimEngine({ markets })` to simulate others.
 */
export const DEFAULT_SIM_MARKETS: readonly Market[] = Object.freeze([
  market({
    id: 1,
    symbol: 'ETH-USD',
    type: 'PERPETUAL',
    baseAsset: 'ETH',
    amountExpo: 9,
    priceExpo: 6,
    minAmountX18: X18 / 10_000n,
    maxPositionValueX18: 1_000_000_000n * X18,
    makerFeeX18: 5n * BP,
    takerFeeX18: 5n * BP,
    initialMarginX18: 5n * PERCENT,
    maintenanceMarginX18: 2n * PERCENT,
  }),
  market({
    id: 3,
    symbol: 'BTC-USD',
    type: 'PERPETUAL',
    baseAsset: 'BTC',
    amountExpo: 6,
    priceExpo: 1,
    minAmountX18: X18 / 10_000n,
    maxPositionValueX18: 1_000_000_000n * X18,
    makerFeeX18: 5n * BP,
    takerFeeX18: 5n * BP,
    initialMarginX18: 5n * PERCENT,
    maintenanceMarginX18: 2n * PERCENT,
  }),
  market({
    id: 5,
    symbol: 'SOL-USD',
    type: 'PERPETUAL',
    baseAsset: 'SOL',
    amountExpo: 9,
    priceExpo: 6,
    minAmountX18: X18 / 100n,
    maxPositionValueX18: 1_000_000n * X18,
    makerFeeX18: 2n * BP,
    takerFeeX18: 5n * BP,
    initialMarginX18: 10n * PERCENT,
    maintenanceMarginX18: 5n * PERCENT,
  }),
  market({
    id: 103,
    symbol: 'TSLA-USD',
    type: 'PERPETUAL',
    baseAsset: 'TSLA',
    amountExpo: 9,
    priceExpo: 6,
    minAmountX18: X18 / 1_000n,
    maxPositionValueX18: 1_000_000n * X18,
    makerFeeX18: 2n * BP,
    takerFeeX18: 5n * BP,
    initialMarginX18: 10n * PERCENT,
    maintenanceMarginX18: 5n * PERCENT,
  }),
  market({
    id: 2,
    symbol: 'ETH-USDC',
    type: 'SPOT',
    baseAsset: 'ETH',
    amountExpo: 9,
    priceExpo: 6,
    minAmountX18: X18 / 1_000n,
    maxPositionValueX18: 1_000_000n * X18,
    makerFeeX18: 1n * BP,
    takerFeeX18: 2n * BP,
    initialMarginX18: 100n * PERCENT,
    maintenanceMarginX18: 100n * PERCENT,
  }),
]);

/**
 * Starting mid prices of the default markets, as decimal strings keyed by symbol (symbols, not
 * ids, so a markets file that numbers its markets differently still gets sensible prices).
 */
export const DEFAULT_INITIAL_PRICES: Readonly<Record<string, string>> = Object.freeze({
  'ETH-USD': '3000',
  'BTC-USD': '65000',
  'SOL-USD': '150',
  'TSLA-USD': '250',
  'ETH-USDC': '3000',
});

export { SimEngine } from './engine.ts';
export { type SimEngineOptions, type SimListing, BOOK_DEPTH } from './options.ts';
export { DEFAULT_SIM_MARKETS, DEFAULT_INITIAL_PRICES } from './default-markets.ts';
export { SimRejection } from './sim-rejection.ts';
export { DEFAULT_LIQUIDATION_FEE, type SimLiquidation } from './sim-margin.ts';
export { validateOrderRequest, MAX_ORDER_EXPIRY_AHEAD_MS } from './validate-order.ts';

export { SeededRandom, deriveSeed } from './random.ts';
export type { SimOrderRequest, SimOrder, SimFill, SimPosition, SimAccount } from './types.ts';

/** Market kinds a venue lists. */
export type MarketType = 'PERPETUAL' | 'SPOT';

/**
 * A market's trading parameters, as every layer sees them (the wire row of docs/trading-service-api.md §2.6 is mapped
 * to this at the venue edge; the simulation lists these directly).
 *
 * `amountExpo`/`priceExpo` are the conversion exponents: one amount quantum is
 * `10^(-amountExpo)` base units. All x18 fields are bigint.
 */
export interface Market {
  readonly id: number;
  readonly symbol: string;
  readonly type: MarketType;
  readonly baseAsset: string;
  readonly quoteAsset: string;
  readonly amountExpo: number;
  readonly priceExpo: number;
  readonly minAmountX18: bigint;
  readonly maxPositionValueX18: bigint;
  readonly makerFeeX18: bigint;
  readonly takerFeeX18: bigint;
  readonly initialMarginX18: bigint;
  readonly maintenanceMarginX18: bigint;
  readonly isActive: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly deletedAt: string | null;
}

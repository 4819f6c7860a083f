/**
 * Parsed venue values: what the wire schemas turn JSON into. Amounts and prices are bigint x18;
 * nothing past this boundary re-parses strings.
 */

/** Market kinds the venue lists. */
export type MarketType = 'PERPETUAL' | 'SPOT';
/** Order sides of conventions §4.5. */
export type OrderSide = 'BUY' | 'SELL';
/** Order types of conventions §4.5. */
export type OrderType = 'MARKET' | 'LIMIT';
/** Order states of conventions §4.5. */
export type OrderStatus = 'OPEN' | 'PARTIAL' | 'FILLED' | 'CANCELLED';

/**
 * A market's trading parameters, parsed from a wire market row (spec §2.6).
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

/** One price level of a quote: decimal strings, as the venue sends them. */
export interface QuoteLevel {
  readonly price: string;
  readonly quantity: string;
}

/** Top of book for one market (conventions §6 extension): best level first. */
export interface Quote {
  readonly marketId: number;
  readonly timestamp: number;
  readonly bids: readonly QuoteLevel[];
  readonly asks: readonly QuoteLevel[];
}

/** The order creation request body of spec §2.4, exactly as sent. */
export interface OrderRequestBody {
  readonly marketId: number;
  readonly isBuy: boolean;
  readonly orderType: OrderType;
  readonly amount: string;
  readonly price: string;
  readonly expiryTs: number;
  readonly isReduce: boolean;
}

/** An order as the venue answers it (spec §2.5), parsed. */
export interface VenueOrder {
  readonly id: number;
  readonly brokerId: number;
  readonly subaccountId: string;
  readonly marketSymbol: string;
  readonly marketType: MarketType;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly status: OrderStatus;
  readonly amountX18: bigint;
  readonly priceX18: bigint;
  readonly totalFilledX18: bigint;
  /** Conventions §6 extension; absent when the venue does not report fill prices. */
  readonly avgFillPriceX18?: bigint;
  readonly expiryTs: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Registration result (spec §2.3). The secret never leaves the account module's store. */
export interface ServiceCredentials {
  readonly serviceKey: string;
  readonly serviceSecret: string;
}

/** EIP-712 domain values that differ between deployments (conventions §3-§4). */
export interface SigningDomainConfig {
  readonly name: string;
  readonly version: string;
  readonly registerVerifyingContract: `0x${string}`;
  readonly orderVerifyingContract: `0x${string}`;
  /** The chain id used in order signatures (struct and domain). */
  readonly orderChainId: number;
}

/** Paper venue defaults of conventions §3-§4. */
export const DEFAULT_SIGNING_DOMAIN: SigningDomainConfig = {
  name: 'TradingService',
  version: '1',
  registerVerifyingContract: '0x0000000000000000000000000000000000000001',
  orderVerifyingContract: '0x0000000000000000000000000000000000000002',
  orderChainId: 1,
};

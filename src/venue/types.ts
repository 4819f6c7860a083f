/**
 * Wire shapes: the request bodies the bot signs and sends, and the venue's answers once parsed
 * (amounts and prices bigint x18, statuses mapped to domain terms). Domain types live in
 * `src/domain`; the schemas in `./schemas` map between the two at this edge.
 */
import type { MarketType, OrderSide, OrderStatus, OrderType } from '../domain/index.ts';

/** The order creation request body of docs/trading-service-api.md §2.4, exactly as sent. */
export interface OrderRequestBody {
  readonly marketId: number;
  readonly isBuy: boolean;
  readonly orderType: OrderType;
  readonly amount: string;
  readonly price: string;
  readonly expiryTs: number;
  readonly isReduce: boolean;
}

/** An order as the venue answers it (docs/trading-service-api.md §2.5), parsed. */
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
  /** docs/conventions.md §6 extension; absent when the venue does not report fill prices. */
  readonly avgFillPriceX18?: bigint;
  readonly expiryTs: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Registration result (docs/trading-service-api.md §2.3). The secret never leaves the account module's store. */
export interface ServiceCredentials {
  readonly serviceKey: string;
  readonly serviceSecret: string;
}

/** EIP-712 domain values that differ between deployments (docs/conventions.md §3-§4). */
export interface SigningDomainConfig {
  readonly name: string;
  readonly version: string;
  readonly registerVerifyingContract: `0x${string}`;
  readonly orderVerifyingContract: `0x${string}`;
  /** The chain id used in order signatures (struct and domain). */
  readonly orderChainId: number;
}

/** Paper venue defaults of docs/conventions.md §3-§4. */
export const DEFAULT_SIGNING_DOMAIN: SigningDomainConfig = {
  name: 'TradingService',
  version: '1',
  registerVerifyingContract: '0x0000000000000000000000000000000000000001',
  orderVerifyingContract: '0x0000000000000000000000000000000000000002',
  orderChainId: 1,
};

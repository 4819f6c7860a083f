import { getAddress, type Address, type Hex, type TypedDataDefinition } from 'viem';
import { parseDecimalToX18 } from '../../money/index.ts';
import { ErrorCodes } from '../../errors/index.ts';
import { hexAddress, parseOrderRequestBody, parseWire } from '../schemas/index.ts';
import type { OrderRequestBody, SigningDomainConfig } from '../types.ts';
import { packSubaccountId } from './subaccount.ts';

/**
 * The Order struct of docs/conventions.md §4.2:
 * `Order(bytes32 subAccountId,int128 priceX18,int128 amount,uint64 expiration,bool isReduce,address sessionKey,uint256 chainId,uint32 productId)`.
 */
export const ORDER_TYPES = {
  Order: [
    { name: 'subAccountId', type: 'bytes32' },
    { name: 'priceX18', type: 'int128' },
    { name: 'amount', type: 'int128' },
    { name: 'expiration', type: 'uint64' },
    { name: 'isReduce', type: 'bool' },
    { name: 'sessionKey', type: 'address' },
    { name: 'chainId', type: 'uint256' },
    { name: 'productId', type: 'uint32' },
  ],
} as const;

/** The viem typed-data definition an order signature is made over. */
export type OrderTypedData = TypedDataDefinition<typeof ORDER_TYPES, 'Order'> & {
  readonly domain: {
    readonly name: string;
    readonly version: string;
    readonly chainId: number;
    readonly verifyingContract: Address;
  };
  readonly message: {
    readonly subAccountId: Hex;
    readonly priceX18: bigint;
    readonly amount: bigint;
    readonly expiration: bigint;
    readonly isReduce: boolean;
    readonly sessionKey: Address;
    readonly chainId: bigint;
    readonly productId: number;
  };
};

/** What an order signature covers. */
export interface OrderSigningInput {
  /** `<brokerId>_<address>_<n>`. */
  readonly subaccountId: string;
  /** The request body exactly as it will be sent. */
  readonly body: OrderRequestBody;
  /** The registered signing key's address (the struct's sessionKey). */
  readonly signer: Address;
}

/**
 * Builds the EIP-712 typed data of an order (docs/conventions.md §4.2): priceX18 = price × 10^18 (0 for
 * MARKET), amount = amount × 10^18 negated for a sell, expiration = expiryTs, sessionKey =
 * signer, productId = marketId, chainId = `domain.orderChainId` in struct and domain,
 * verifyingContract = `domain.orderVerifyingContract`.
 *
 * @throws QuantaError `QUANTA_INVALID_WIRE_DATA` for a malformed body or signer address,
 *   `QUANTA_INVALID_SUBACCOUNT` for a bad subaccount id.
 */
export function buildOrderTypedData(
  input: OrderSigningInput,
  domain: SigningDomainConfig,
): OrderTypedData {
  const body = parseOrderRequestBody(input.body);
  const signer = parseWire(hexAddress, input.signer, {
    code: ErrorCodes.INVALID_WIRE_DATA,
    what: 'order signer',
  });
  const amountX18 = parseDecimalToX18(body.amount, 'amount');
  return {
    domain: {
      name: domain.name,
      version: domain.version,
      chainId: domain.orderChainId,
      verifyingContract: domain.orderVerifyingContract,
    },
    types: ORDER_TYPES,
    primaryType: 'Order',
    message: {
      subAccountId: packSubaccountId(input.subaccountId),
      priceX18: body.orderType === 'MARKET' ? 0n : parseDecimalToX18(body.price, 'price'),
      amount: body.isBuy ? amountX18 : -amountX18,
      expiration: BigInt(body.expiryTs),
      isReduce: body.isReduce,
      sessionKey: getAddress(signer),
      chainId: BigInt(domain.orderChainId),
      productId: body.marketId,
    },
  };
}

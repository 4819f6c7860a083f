import { hashDomain, keccak256, toBytes, type Address } from 'viem';
import { keccak256Bytes } from './keccak256.ts';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import { parseDecimalToX18 } from '../../money/index.ts';
import type { OrderRequestBody, SigningDomainConfig } from '../types.ts';
import { packSubaccountId } from './subaccount.ts';
import { keepBounded } from './bounded-cache.ts';

/**
 * The EIP-712 digest of an order (docs/conventions.md §4.2), computed directly: the Order struct's nine
 * 32-byte words (type hash and eight fields) are written into one buffer and hashed, the domain
 * separator and the type hash are computed once per domain, and the subaccount's `bytes32` once
 * per subaccount. Equal to viem's `hashTypedData(buildOrderTypedData(…))` for every signable
 * order: the known-answer vectors and a property test against viem pin that.
 *
 * The body is trusted to be a validated {@link OrderRequestBody} (the executor builds it from a
 * sized order; `signOrder` parses untrusted input with the wire schema first). What the direct
 * encoding could get silently wrong is still refused: a value outside its Solidity type would
 * wrap around instead of failing as viem's ABI encoder does.
 */

const ORDER_TYPE =
  'Order(bytes32 subAccountId,int128 priceX18,int128 amount,uint64 expiration,bool isReduce,address sessionKey,uint256 chainId,uint32 productId)';
const ORDER_TYPE_HASH = keccak256(toBytes(ORDER_TYPE), 'bytes');

const STRUCT_WORDS = 9;
const INT128_MAX = (1n << 127n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;
const UINT32_MAX = 2 ** 32 - 1;
const TWO_256 = 1n << 256n;

// Bounded: a bot signs for one domain and one subaccount at a time (a few over a renewal).
const CACHE_LIMIT = 16;

function remember<K, V>(cache: Map<K, V>, key: K, value: V): V {
  keepBounded(cache, key, value, CACHE_LIMIT);
  return value;
}

const domainSeparators = new Map<string, Uint8Array>();

/** The order domain's separator (name, version, chainId, verifyingContract), once per domain. */
export function orderDomainSeparator(domain: SigningDomainConfig): Uint8Array {
  const key = `${domain.name}\n${domain.version}\n${domain.orderChainId}\n${domain.orderVerifyingContract.toLowerCase()}`;
  const cached = domainSeparators.get(key);
  if (cached !== undefined) return cached;
  const typedDomain = {
    name: domain.name,
    version: domain.version,
    chainId: domain.orderChainId,
    verifyingContract: domain.orderVerifyingContract,
  };
  const separator = hashDomain<Record<string, unknown>>({
    domain: typedDomain,
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
    },
  });
  return remember(domainSeparators, key, toBytes(separator));
}

const packedSubaccounts = new Map<string, Buffer>();

function subaccountWord(subaccountId: string): Buffer {
  const cached = packedSubaccounts.get(subaccountId);
  if (cached !== undefined) return cached;
  // Validates the id (QUANTA_INVALID_SUBACCOUNT) the first time it is seen.
  const word = Buffer.from(packSubaccountId(subaccountId).slice(2), 'hex');
  return remember(packedSubaccounts, subaccountId, word);
}

function outOfRange(what: string, value: bigint | number, rule: string): never {
  throw new QuantaError(
    ErrorCodes.INVALID_WIRE_DATA,
    `order request: ${what} ${String(value)} does not fit the signed struct (${rule})`,
  );
}

/** Writes `value` (already range-checked) as a 32-byte big-endian two's complement word. */
function writeWord(buffer: Buffer, word: number, value: bigint): void {
  const unsigned = value < 0n ? TWO_256 + value : value;
  buffer.write(unsigned.toString(16).padStart(64, '0'), word * 32, 32, 'hex');
}

/**
 * keccak256 of the order struct (EIP-712 `hashStruct`).
 *
 * @param signer - the signing key's address (the struct's sessionKey).
 * @throws QuantaError `QUANTA_INVALID_DECIMAL` for a malformed amount or price,
 *   `QUANTA_INVALID_WIRE_DATA` for a value outside its struct type or a malformed signer,
 *   `QUANTA_INVALID_SUBACCOUNT` for a bad subaccount id.
 */
export function orderStructHash(
  subaccountId: string,
  body: OrderRequestBody,
  signer: Address,
  domain: SigningDomainConfig,
): Uint8Array {
  const amountX18 = parseDecimalToX18(body.amount, 'amount');
  const priceX18 = body.orderType === 'MARKET' ? 0n : parseDecimalToX18(body.price, 'price');
  if (amountX18 > INT128_MAX) outOfRange('amount', amountX18, 'int128');
  if (priceX18 > INT128_MAX) outOfRange('price', priceX18, 'int128');
  const expiration = BigInt(body.expiryTs);
  if (expiration < 0n || expiration > UINT64_MAX) outOfRange('expiryTs', expiration, 'uint64');
  const productId = body.marketId;
  if (!Number.isInteger(productId) || productId < 0 || productId > UINT32_MAX)
    outOfRange('marketId', productId, 'uint32');
  if (!/^0x[0-9a-fA-F]{40}$/.test(signer)) outOfRange('signer', 0, 'an address');
  const words = Buffer.alloc(STRUCT_WORDS * 32);
  words.set(ORDER_TYPE_HASH, 0);
  words.set(subaccountWord(subaccountId), 32);
  writeWord(words, 2, priceX18);
  writeWord(words, 3, body.isBuy ? amountX18 : -amountX18);
  writeWord(words, 4, expiration);
  if (body.isReduce) words[5 * 32 + 31] = 1;
  words.write(signer.slice(2), 6 * 32 + 12, 20, 'hex');
  writeWord(words, 7, BigInt(domain.orderChainId));
  writeWord(words, 8, BigInt(productId));
  return keccak256Bytes(words);
}

/**
 * Digests computed last, by their inputs ({@link digestKey}): the signer of an order and the
 * venue that checks it compute the same digest (the paper venue of `quanta sim` does so in the
 * same process, right after the bot signed). Bounded: a few orders are in flight at a time.
 */
const digests = new Map<string, Uint8Array>();
const DIGESTS_LIMIT = 64;

/**
 * The inputs of a digest as one string. JSON of the values: inputs with the same key have the
 * same values (a number's -0 and 0 aside, which the struct writes alike), so the same digest;
 * inputs for which no digest can be computed (NaN, a non-string decimal) are never kept.
 */
function digestKey(
  subaccountId: string,
  body: OrderRequestBody,
  signer: Address,
  domain: SigningDomainConfig,
): string {
  return JSON.stringify([
    subaccountId,
    signer,
    domain.name,
    domain.version,
    domain.orderChainId,
    domain.orderVerifyingContract,
    body.marketId,
    body.isBuy,
    body.orderType,
    body.amount,
    body.price,
    body.expiryTs,
    body.isReduce,
  ]);
}

/**
 * The EIP-712 digest `keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(order))` to sign. A
 * fresh array each call (the last ones are kept by their inputs and copied out).
 */
export function orderDigest(
  subaccountId: string,
  body: OrderRequestBody,
  signer: Address,
  domain: SigningDomainConfig,
): Uint8Array {
  const key = digestKey(subaccountId, body, signer, domain);
  const kept = digests.get(key);
  if (kept !== undefined) return kept.slice();
  const message = new Uint8Array(66);
  message[0] = 0x19;
  message[1] = 0x01;
  message.set(orderDomainSeparator(domain), 2);
  message.set(orderStructHash(subaccountId, body, signer, domain), 34);
  const digest = keccak256Bytes(message);
  if (digests.size >= DIGESTS_LIMIT) digests.clear();
  digests.set(key, digest.slice());
  return digest;
}

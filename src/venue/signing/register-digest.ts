import { hashDomain, isAddress, keccak256, toBytes, validateTypedData } from 'viem';
import { keccak256Bytes } from './keccak256.ts';
import { REGISTER_TYPES, type RegisterTypedData } from './register-typed-data.ts';

/**
 * The EIP-712 digest of a registration's Register struct (docs/conventions.md §3), computed
 * directly as order-digest.ts does for orders: the struct's seven 32-byte words (type hash and
 * six fields) written into one buffer and hashed, and the domain separator computed once per
 * domain by viem. Equal to viem's `hashTypedData(typedData)` for every typed data
 * `buildRegisterTypedData` makes, and refusing (throwing) what viem's validation refuses: an
 * address that is not one (`isAddress`, viem's own check), a `subAccountId` that is not 32
 * bytes, an integer outside its type; a domain viem refuses is refused the first time it is
 * seen, and never kept. The known-answer vectors and a property test against viem pin it.
 *
 * Why: viem's `hashTypedData` validates the typed data field by field with regular expressions
 * and ABI-encodes it through generic code, a few milliseconds a call; a registration is hashed
 * by the bot that signs it and again by the venue that checks it (the paper venue of
 * `quanta sim` does both in one process, several times a schedule).
 */

const REGISTER_TYPE = `Register(${REGISTER_TYPES.Register.map((field) => `${field.type} ${field.name}`).join(',')})`;
const REGISTER_TYPE_HASH = keccak256(toBytes(REGISTER_TYPE), 'bytes');

const STRUCT_WORDS = 7;
const UINT128_LIMIT = 1n << 128n;
const UINT256_LIMIT = 1n << 256n;
const BYTES32 = /^0x[0-9a-fA-F]{64}$/;

/** Domain separators by their inputs; bounded: a bot registers on one domain at a time. */
const separators = new Map<string, Uint8Array>();
const SEPARATORS_LIMIT = 16;

function domainSeparatorOf(domain: RegisterTypedData['domain']): Uint8Array {
  const key = JSON.stringify([
    domain.name,
    domain.version,
    domain.chainId,
    domain.verifyingContract,
  ]);
  const kept = separators.get(key);
  if (kept !== undefined) return kept;
  const types = {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
  } as const;
  // What viem's hashTypedData checks of the domain (it throws for a bad verifyingContract or
  // chainId), before the separator is computed and kept.
  validateTypedData<Record<string, unknown>, 'EIP712Domain'>({
    domain,
    types,
    primaryType: 'EIP712Domain',
  });
  const separator = toBytes(hashDomain<Record<string, unknown>>({ domain, types }));
  if (separators.size >= SEPARATORS_LIMIT) separators.clear();
  separators.set(key, separator);
  return separator;
}

function refuse(what: string): never {
  throw new Error(`registration typed data: ${what}`);
}

/** Writes an unsigned integer below `limit` as the 32-byte big-endian word `word`. */
function writeUint(words: Buffer, word: number, value: bigint, limit: bigint, what: string): void {
  if (value < 0n || value >= limit) refuse(`${what} out of range`);
  words.write(value.toString(16).padStart(64, '0'), word * 32, 32, 'hex');
}

/** Writes an address (checked as viem checks it) right-aligned in the word `word`. */
function writeAddress(words: Buffer, word: number, address: string, what: string): void {
  if (!isAddress(address)) refuse(`${what} is not an address`);
  words.write(address.slice(2), word * 32 + 12, 20, 'hex');
}

/**
 * `keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(Register))` of `typedData`: what viem's
 * `hashTypedData(typedData)` gives, as bytes.
 *
 * @throws Error where viem's validation throws (see above).
 */
export function registerDigest(typedData: RegisterTypedData): Uint8Array {
  const { message } = typedData;
  const separator = domainSeparatorOf(typedData.domain);
  const words = Buffer.alloc(STRUCT_WORDS * 32);
  words.set(REGISTER_TYPE_HASH, 0);
  if (!BYTES32.test(message.subAccountId)) refuse('subAccountId is not 32 bytes');
  words.write(message.subAccountId.slice(2), 32, 32, 'hex');
  writeAddress(words, 2, message.userAddress, 'userAddress');
  writeAddress(words, 3, message.sessionKey, 'sessionKey');
  writeUint(words, 4, message.expiryTimeStamp, UINT128_LIMIT, 'expiryTimeStamp');
  writeUint(words, 5, message.nonce, UINT128_LIMIT, 'nonce');
  writeUint(words, 6, message.chainId, UINT256_LIMIT, 'chainId');
  const signed = new Uint8Array(66);
  signed[0] = 0x19;
  signed[1] = 0x01;
  signed.set(separator, 2);
  signed.set(keccak256Bytes(words), 34);
  return keccak256Bytes(signed);
}

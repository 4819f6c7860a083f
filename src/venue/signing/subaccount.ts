import { concatHex, isAddress, numberToHex, type Address, type Hex } from 'viem';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';

/** Exclusive upper bound of brokerId and n: both are packed into 6 bytes (docs/conventions.md §3). */
export const SUBACCOUNT_PART_LIMIT = 2n ** 48n;

// Canonical decimal only ("01" would name the same subaccount twice and break string equality).
const CANONICAL_UINT = /^(?:0|[1-9]\d*)$/;

/** The three parts of a subaccount id `<brokerId>_<address>_<n>`. */
export interface SubaccountParts {
  readonly brokerId: bigint;
  readonly address: Address;
  /** The `n` of docs/conventions.md §3: 0 < n < 2^48. */
  readonly index: bigint;
}

/** What `formatSubaccountId` takes; small values may be given as numbers. */
export interface SubaccountInput {
  readonly brokerId: bigint | number;
  readonly address: Address;
  readonly index: bigint | number;
}

function fail(id: string, part: string, rule: string): never {
  throw new QuantaError(
    ErrorCodes.INVALID_SUBACCOUNT,
    `subaccount id ${JSON.stringify(id)}: ${part}: ${rule}`,
    {
      details: ['A subaccount id is "<brokerId>_<0x wallet address>_<n>", e.g. "1_0xf39F…2266_1".'],
    },
  );
}

function toBigInt(value: bigint | number): bigint | undefined {
  if (typeof value === 'bigint') return value;
  return Number.isSafeInteger(value) ? BigInt(value) : undefined;
}

function checkBrokerId(id: string, value: bigint | undefined, got: string): bigint {
  if (value === undefined || value < 0n || value >= SUBACCOUNT_PART_LIMIT) {
    fail(id, 'brokerId', `expected an integer 0 <= brokerId < 2^48, got ${got}`);
  }
  return value;
}

function checkIndex(id: string, value: bigint | undefined, got: string): bigint {
  if (value === undefined || value <= 0n || value >= SUBACCOUNT_PART_LIMIT) {
    fail(id, 'index', `expected an integer 0 < n < 2^48, got ${got}`);
  }
  return value;
}

function checkAddress(id: string, address: string): Address {
  // Mixed case must be a valid EIP-55 checksum; all-lower and all-upper are accepted as is.
  if (!isAddress(address)) {
    fail(
      id,
      'address',
      `expected a 0x-prefixed 20-byte hex address with a valid checksum, got ${JSON.stringify(address)}`,
    );
  }
  return address;
}

/**
 * Builds the subaccount id `"<brokerId>_<address>_<n>"` (docs/conventions.md §3). The address is kept
 * exactly as given, because the venue compares it with the request's `ethAddress` as written.
 *
 * @throws QuantaError `QUANTA_INVALID_SUBACCOUNT` naming the part that is out of range.
 * @example
 * formatSubaccountId({ brokerId: 1, address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', index: 1 })
 * // "1_0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266_1"
 */
export function formatSubaccountId(input: SubaccountInput): string {
  const id = `${String(input.brokerId)}_${input.address}_${String(input.index)}`;
  checkBrokerId(id, toBigInt(input.brokerId), String(input.brokerId));
  checkAddress(id, input.address);
  checkIndex(id, toBigInt(input.index), String(input.index));
  return id;
}

/**
 * Splits and checks a subaccount id (docs/conventions.md §3): brokerId a canonical integer below 2^48,
 * a 0x address (mixed case must be checksummed), n a canonical integer with 0 < n < 2^48.
 *
 * @throws QuantaError `QUANTA_INVALID_SUBACCOUNT` naming the part, e.g.
 *   `subaccount id "1_0xf39F…_0": index: expected an integer 0 < n < 2^48, got "0"`.
 */
export function parseSubaccountId(id: string): SubaccountParts {
  if (typeof id !== 'string') fail(String(id), 'id', `expected a string, got ${typeof id}`);
  const parts = id.split('_');
  if (parts.length !== 3) {
    fail(id, 'id', `expected 3 parts joined by "_", got ${parts.length}`);
  }
  const [broker = '', address = '', index = ''] = parts;
  const brokerId = checkBrokerId(
    id,
    CANONICAL_UINT.test(broker) ? BigInt(broker) : undefined,
    JSON.stringify(broker),
  );
  const checkedAddress = checkAddress(id, address);
  const n = checkIndex(
    id,
    CANONICAL_UINT.test(index) ? BigInt(index) : undefined,
    JSON.stringify(index),
  );
  return { brokerId, address: checkedAddress, index: n };
}

/**
 * The `bytes32` the typed data carries for a subaccount (docs/conventions.md §3): 6-byte big-endian
 * brokerId ‖ 20-byte address ‖ 6-byte big-endian n, lowercase hex.
 *
 * @param id - a subaccount id string or its parsed parts.
 * @throws QuantaError `QUANTA_INVALID_SUBACCOUNT` when the id is invalid.
 * @example
 * packSubaccountId('1_0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266_1')
 * // "0x000000000001f39fd6e51aad88f6f4ce6ab8827279cfffb92266000000000001"
 */
export function packSubaccountId(id: string | SubaccountParts): Hex {
  // Parts given directly are checked by formatting them: 6-byte packing must not wrap.
  const parts = parseSubaccountId(typeof id === 'string' ? id : formatSubaccountId(id));
  return concatHex([
    numberToHex(parts.brokerId, { size: 6 }),
    parts.address.toLowerCase() as Hex,
    numberToHex(parts.index, { size: 6 }),
  ]);
}

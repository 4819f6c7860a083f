import { pointFromScalar } from 'tiny-secp256k1';
import { getAddress, type Address, type Hex, type TypedData, type TypedDataDefinition } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { systemPrivateKey } from '../../clock/entropy.ts';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import { keepBounded } from './bounded-cache.ts';
import { addressOfPublicKey } from './public-key-address.ts';
import { privateKeyBytes } from './sign-digest.ts';

const PRIVATE_KEY = /^0x[0-9a-fA-F]{64}$/;

// The accounts of keys already derived, by key: a derivation is an elliptic-curve
// multiplication (its public key), and a caller that needs the viem account (not only its
// address: `addressOfPrivateKey`, which the bot uses) gets the same object for the same key. The
// keys are the map's own: it is module-private, never logged, and holds only keys the process
// already holds (as order-signing-key.ts's does). Bounded: a few keys at once.
const accounts = new Map<string, PrivateKeyAccount>();
const ACCOUNTS_LIMIT = 8;

/**
 * The viem account for a private key, or a QuantaError that never contains the key. Derived
 * once per key and kept (a few keys at a time): the same key gives the same account object.
 *
 * The underlying library's errors print an out-of-range key in full, so its error is neither
 * quoted nor kept as `cause`.
 *
 * @param what - which key this is, for the message (`wallet key`, `signing key`).
 * @throws QuantaError `QUANTA_INVALID_PRIVATE_KEY`.
 */
export function accountFromPrivateKey(privateKey: string, what: string): PrivateKeyAccount {
  // Only a key that passed the checks below is ever kept.
  const kept = accounts.get(privateKey);
  if (kept !== undefined) return kept;
  const account = deriveAccount(privateKey, what);
  keepBounded(accounts, privateKey, account, ACCOUNTS_LIMIT);
  return account;
}

/** {@link accountFromPrivateKey}'s checks and derivation, not kept. */
function deriveAccount(privateKey: string, what: string): PrivateKeyAccount {
  checkFormat(privateKey, what);
  try {
    return privateKeyToAccount(privateKey as Hex);
  } catch {
    throw outOfRange(what);
  }
}

// The addresses of keys already derived, by key (see `accounts` above for why the keys may be
// the map's own): a bot derives its wallet's address at every start and registration, and
// each new signing key's at its registration and again for its first order. Bounded likewise.
const addresses = new Map<string, Address>();

/**
 * The checksummed address of a private key: `accountFromPrivateKey(key, what).address`, without
 * building a viem account. The public key is libsecp256k1's (tiny-secp256k1, as signing uses),
 * its address the last 20 bytes of its keccak-256 (private-keys.test.ts compares it with viem's
 * on random keys). Kept a few keys at a time, as the accounts are.
 *
 * @throws QuantaError `QUANTA_INVALID_PRIVATE_KEY` (never quoting the key).
 */
export function addressOfPrivateKey(privateKey: string, what: string): Address {
  const kept = addresses.get(privateKey);
  if (kept !== undefined) return kept;
  checkFormat(privateKey, what);
  let point: Uint8Array | null;
  try {
    point = pointFromScalar(privateKeyBytes(privateKey), false);
  } catch {
    point = null;
  }
  if (point === null) throw outOfRange(what);
  const address = getAddress(addressOfPublicKey(point));
  keepBounded(addresses, privateKey, address, ACCOUNTS_LIMIT);
  return address;
}

/** Refuses a key that is not `0x` + 64 hex digits, without quoting it. */
function checkFormat(privateKey: string, what: string): void {
  if (typeof privateKey !== 'string' || !PRIVATE_KEY.test(privateKey)) {
    throw new QuantaError(
      ErrorCodes.INVALID_PRIVATE_KEY,
      `${what}: malformed private key (expected 0x + 64 hex digits, a valid secp256k1 private key)`,
    );
  }
}

/** The error for a key of the right form that is zero or not below the curve order. */
function outOfRange(what: string): QuantaError {
  return new QuantaError(
    ErrorCodes.INVALID_PRIVATE_KEY,
    `${what}: not a valid secp256k1 private key (zero or not below the curve order)`,
  );
}

/**
 * A fresh random signing key (the account module registers one per session; paper mode may use
 * one as a throwaway wallet). Keep it out of logs.
 */
export function generateSigningKey(): Hex {
  return systemPrivateKey();
}

/**
 * Signs EIP-712 typed data with `account`. A failure is reported by the library's error class
 * name only: its messages may quote the values involved, and keys stay out of every message.
 *
 * @param what - what is being signed, for the message (`registration (wallet)`, `order`).
 * @throws QuantaError `QUANTA_SIGNING_FAILED`.
 */
export async function signTypedDataWith<
  const T extends TypedData | Record<string, unknown>,
  P extends keyof T | 'EIP712Domain',
>(account: PrivateKeyAccount, typedData: TypedDataDefinition<T, P>, what: string): Promise<Hex> {
  try {
    return await account.signTypedData<T, P>(typedData);
  } catch (error) {
    const kind = error instanceof Error ? error.name : typeof error;
    throw new QuantaError(ErrorCodes.SIGNING_FAILED, `${what}: EIP-712 signing failed (${kind})`);
  }
}

import { randomBytes } from 'node:crypto';
import { generatePrivateKey } from 'viem/accounts';
import type { Hex } from 'viem';

/**
 * The process's randomness: the one module of src/ that draws it (test/unit/architecture/
 * clock-reads.test.ts holds every other file to that). Every draw here is a secret or a token that
 * must not repeat across processes, so it comes from the operating system's CSPRNG, never from a
 * seed; parts that draw take their source injected (a signing-key generator, a credential
 * generator), and the seeded whole-bot simulation gives them its own (src/simulation/).
 */

/** `count` random bytes as lowercase hex (`2 × count` characters). */
export function systemRandomHex(count: number): string {
  return randomBytes(count).toString('hex');
}

/** A fresh secp256k1 private key (zero and values not below the curve order never come out). */
export function systemPrivateKey(): Hex {
  return generatePrivateKey();
}

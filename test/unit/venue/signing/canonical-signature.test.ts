import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCanonicalSignature } from '../../../../src/venue/signing/recover-signer.ts';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** The rule as numbers: 65 bytes, v 27 or 28, 0 < r < n, 0 < s <= n/2. */
function canonicalByNumbers(signature: string): boolean {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return false;
  const r = BigInt(`0x${signature.slice(2, 66)}`);
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = Number.parseInt(signature.slice(130, 132), 16);
  return (v === 27 || v === 28) && r > 0n && r < N && s > 0n && s <= N / 2n;
}

const hex64 = (value: bigint): string => value.toString(16).padStart(64, '0');
/** Values of r and s around every edge of the rule, and random ones. */
const scalar = fc.oneof(
  fc.constantFrom(0n, 1n, N / 2n - 1n, N / 2n, N / 2n + 1n, N - 1n, N, N + 1n, 2n ** 256n - 1n),
  fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
);
const recoveryByte = fc.constantFrom('1b', '1c', '1B', '1C', '00', '01', '1a', '1d', 'ff');

describe('isCanonicalSignature', () => {
  it('agrees with the rule computed on numbers (edges, random values, either letter case)', () => {
    fc.assert(
      fc.property(scalar, scalar, recoveryByte, fc.boolean(), (r, s, v, upper) => {
        const digits = `${hex64(r)}${hex64(s)}${v}`;
        const signature = `0x${upper ? digits.toUpperCase() : digits}`;
        expect(isCanonicalSignature(signature)).toBe(canonicalByNumbers(signature));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses what is not 65 bytes of hex', () => {
    const good = `0x${hex64(1n)}${hex64(1n)}1b`;
    expect(isCanonicalSignature(good)).toBe(true);
    for (const bad of [
      good.slice(0, -2),
      `${good}00`,
      `0X${good.slice(2)}`,
      good.replace('0x0', '0xg'),
    ])
      expect(isCanonicalSignature(bad)).toBe(false);
  });
});

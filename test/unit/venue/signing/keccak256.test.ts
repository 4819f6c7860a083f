import fc from 'fast-check';
import { bytesToHex, keccak256 } from 'viem';
import { describe, expect, it } from 'vitest';
import { keccak256Bytes } from '../../../../src/venue/signing/keccak256.ts';

describe('keccak256Bytes (unrolled permutation) against viem’s keccak256', () => {
  it('agrees on every length from 0 to 700 bytes (every padding case, up to six blocks)', () => {
    for (let length = 0; length <= 700; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 131 + length * 17) & 0xff);
      expect(bytesToHex(keccak256Bytes(bytes)), `length ${length}`).toBe(keccak256(bytes));
    }
  });

  it('agrees on random inputs', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 1000 }), (bytes) => {
        expect(bytesToHex(keccak256Bytes(bytes))).toBe(keccak256(bytes));
      }),
      { seed: 17, numRuns: 300 },
    );
  });

  it('gives the known empty-input hash', () => {
    expect(bytesToHex(keccak256Bytes(new Uint8Array()))).toBe(
      '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
  });
});

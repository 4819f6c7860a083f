import fc from 'fast-check';
import { bytesToHex, getAddress, hexToBigInt, type Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, QuantaError } from '../../../../src/errors/index.ts';
import {
  SUBACCOUNT_PART_LIMIT,
  formatSubaccountId,
  packSubaccountId,
  parseSubaccountId,
} from '../../../../src/venue/signing/index.ts';

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(QuantaError);
    expect((error as QuantaError).code).toBe(ErrorCodes.INVALID_SUBACCOUNT);
    return (error as QuantaError).shortMessage;
  }
  throw new Error('expected a throw');
}

const addressArb = fc.uint8Array({ minLength: 20, maxLength: 20 }).chain((bytes) => {
  const lower = bytesToHex(bytes);
  return fc.constantFrom<Address>(lower, getAddress(lower));
});
const partsArb = fc.record({
  brokerId: fc.bigInt({ min: 0n, max: SUBACCOUNT_PART_LIMIT - 1n }),
  address: addressArb,
  index: fc.bigInt({ min: 1n, max: SUBACCOUNT_PART_LIMIT - 1n }),
});

describe('subaccount ids', () => {
  it('parseSubaccountId ∘ formatSubaccountId is the identity (1000 runs)', () => {
    fc.assert(
      fc.property(partsArb, (parts) => {
        expect(parseSubaccountId(formatSubaccountId(parts))).toEqual(parts);
      }),
      { numRuns: 1000 },
    );
  });

  it('packs 6-byte brokerId ‖ 20-byte address ‖ 6-byte n (1000 runs)', () => {
    fc.assert(
      fc.property(partsArb, (parts) => {
        const packed = packSubaccountId(formatSubaccountId(parts));
        expect(packed).toMatch(/^0x[0-9a-f]{64}$/);
        expect(hexToBigInt(`0x${packed.slice(2, 14)}`)).toBe(parts.brokerId);
        expect(`0x${packed.slice(14, 54)}`).toBe(parts.address.toLowerCase());
        expect(hexToBigInt(`0x${packed.slice(54)}`)).toBe(parts.index);
      }),
      { numRuns: 1000 },
    );
  });

  it('accepts numbers for brokerId and index', () => {
    expect(formatSubaccountId({ brokerId: 1, address: ADDRESS, index: 1 })).toBe(`1_${ADDRESS}_1`);
  });

  it('names the part that breaks the rules', () => {
    expect(messageOf(() => parseSubaccountId(`1_${ADDRESS}_0`))).toMatchInlineSnapshot(
      `"subaccount id "1_0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266_0": index: expected an integer 0 < n < 2^48, got "0""`,
    );
    expect(
      messageOf(() => parseSubaccountId(`281474976710656_${ADDRESS}_1`)),
    ).toMatchInlineSnapshot(
      `"subaccount id "281474976710656_0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266_1": brokerId: expected an integer 0 <= brokerId < 2^48, got "281474976710656""`,
    );
    expect(
      messageOf(() => parseSubaccountId('1_0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266_1')),
    ).toMatchInlineSnapshot(
      `"subaccount id "1_0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266_1": address: expected a 0x-prefixed 20-byte hex address with a valid checksum, got "0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266""`,
    );
    expect(messageOf(() => parseSubaccountId(`1_${ADDRESS}`))).toMatchInlineSnapshot(
      `"subaccount id "1_0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266": id: expected 3 parts joined by "_", got 2"`,
    );
  });

  it.each([
    ['leading zero brokerId', `01_${ADDRESS}_1`, 'brokerId'],
    ['negative brokerId', `-1_${ADDRESS}_1`, 'brokerId'],
    ['n at 2^48', `1_${ADDRESS}_281474976710656`, 'index'],
    ['n with a fraction', `1_${ADDRESS}_1.5`, 'index'],
    ['short address', '1_0xf39f_1', 'address'],
    ['address without 0x', `1_${ADDRESS.slice(2)}_1`, 'address'],
  ])('rejects %s', (_, id, part) => {
    expect(messageOf(() => parseSubaccountId(id))).toContain(`: ${part}: `);
  });

  it('formatSubaccountId and packSubaccountId refuse out-of-range parts', () => {
    expect(
      messageOf(() => formatSubaccountId({ brokerId: -1, address: ADDRESS, index: 1 })),
    ).toContain('brokerId');
    expect(
      messageOf(() => formatSubaccountId({ brokerId: 1, address: ADDRESS, index: 0n })),
    ).toContain('index');
    expect(
      messageOf(() =>
        packSubaccountId({ brokerId: SUBACCOUNT_PART_LIMIT, address: ADDRESS, index: 1n }),
      ),
    ).toContain('brokerId');
    expect(
      messageOf(() => formatSubaccountId({ brokerId: 1.5, address: ADDRESS, index: 1 })),
    ).toContain('brokerId');
  });
});

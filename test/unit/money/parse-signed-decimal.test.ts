import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../src/errors/index.ts';
import { parseSignedDecimalToX18, tryParseSignedDecimalToX18 } from '../../../src/money/index.ts';

describe('parseSignedDecimalToX18: the one signed decimal parser', () => {
  it('parses signed plain decimals exactly', () => {
    expect(parseSignedDecimalToX18('-0.5')).toBe(-500_000_000_000_000_000n);
    expect(parseSignedDecimalToX18('12.25')).toBe(12_250_000_000_000_000_000n);
    expect(parseSignedDecimalToX18('0')).toBe(0n);
    expect(parseSignedDecimalToX18('-0')).toBe(0n);
    expect(parseSignedDecimalToX18('-0.000000000000000001')).toBe(-1n);
    expect(parseSignedDecimalToX18('170141183460469231731.687303715884105727')).toBe(
      2n ** 127n - 1n,
    );
  });

  it('refuses a 19th fraction digit instead of dropping it', () => {
    const call = (): bigint => parseSignedDecimalToX18('-1.0000000000000000001', 'net PnL');
    expect(call).toThrow(
      expect.objectContaining({
        code: ErrorCodes.INVALID_DECIMAL,
        shortMessage: 'net PnL "-1.0000000000000000001" has more than 18 fraction digits',
      }),
    );
    expect(tryParseSignedDecimalToX18('1.0000000000000000001')).toBeUndefined();
  });

  it.each(['', '-', '+1', '--1', '1.', '.5', '1e-3', ' 1', '1 ', '1,5', '0x10', '١', '-.5'])(
    'refuses %j as not a plain decimal',
    (value) => {
      expect(() => parseSignedDecimalToX18(value, 'position')).toThrow(
        expect.objectContaining({
          code: ErrorCodes.INVALID_DECIMAL,
          shortMessage: `position ${JSON.stringify(value)} is not a plain decimal`,
        }),
      );
      expect(tryParseSignedDecimalToX18(value)).toBeUndefined();
    },
  );

  it('refuses what is not a string at all', () => {
    expect(() => parseSignedDecimalToX18(1.5 as unknown as string)).toThrow(
      expect.objectContaining({ code: ErrorCodes.INVALID_DECIMAL }),
    );
  });
});

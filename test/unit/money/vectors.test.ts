import { describe, expect, it } from 'vitest';
import { floorToGrid, formatX18, isOnGrid, parseDecimalToX18 } from '../../../src/money/index.ts';
import { QuantaError } from '../../../src/errors/index.ts';
import { readVector } from '../../helpers/vectors.ts';

interface DecimalVectors {
  grammar: string;
  toX18: ({ input: string; x18: string } | { input: string; error: string })[];
  fromX18: { x18: string; decimal: string }[];
  onGrid: (
    | { value: string; expo: number; onGrid: boolean }
    | { value: string; expo: number; error: string }
  )[];
  floorToGrid: { value: string; expo: number; result: string }[];
}

const vectors = readVector<DecimalVectors>('decimal.json');

describe('decimal.json vectors', () => {
  it.each(vectors.toX18)('toX18 $input', (vector) => {
    if ('error' in vector) {
      expect(() => parseDecimalToX18(vector.input)).toThrow(QuantaError);
      expect(() => parseDecimalToX18(vector.input)).toThrow(vector.error);
    } else {
      expect(parseDecimalToX18(vector.input)).toBe(BigInt(vector.x18));
    }
  });

  it.each(vectors.fromX18)('fromX18 $x18', ({ x18, decimal }) => {
    expect(formatX18(BigInt(x18))).toBe(decimal);
    expect(new RegExp(vectors.grammar).test(formatX18(BigInt(x18)))).toBe(true);
  });

  it.each(vectors.onGrid)('onGrid $value expo $expo', (vector) => {
    const valueX18 = parseDecimalToX18(vector.value);
    if ('error' in vector) {
      expect(() => isOnGrid(valueX18, vector.expo)).toThrow(vector.error);
    } else {
      expect(isOnGrid(valueX18, vector.expo)).toBe(vector.onGrid);
    }
  });

  it.each(vectors.floorToGrid)('floorToGrid $value expo $expo', ({ value, expo, result }) => {
    expect(formatX18(floorToGrid(parseDecimalToX18(value), expo))).toBe(result);
  });
});

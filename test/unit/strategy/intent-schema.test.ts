import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkOrderIntentFast, orderIntentSchema } from '../../../src/strategy/intent-schema.ts';

const intent = {
  marketId: 3,
  side: 'BUY',
  type: 'LIMIT',
  amount: '0.05',
  price: '100.5',
  reduceOnly: false,
  expiresInMs: 5000,
  tag: 'dca',
};

const values: unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -0,
  1,
  -1,
  1.5,
  2 ** 53,
  2 ** 53 - 1,
  NaN,
  Infinity,
  '',
  '0',
  '1',
  '01',
  '-1',
  '1.5',
  '1.',
  '.5',
  '1e3',
  ' 1',
  '１',
  'BUY',
  'SELL',
  'buy',
  'MARKET',
  'LIMIT',
  'x'.repeat(64),
  'x'.repeat(65),
  [],
  {},
];

function check(candidate: unknown): void {
  const fast = checkOrderIntentFast(candidate);
  const slow = orderIntentSchema.safeParse(candidate);
  if (fast !== undefined) {
    expect(slow.success, JSON.stringify(candidate)).toBe(true);
    expect(fast).toStrictEqual(slow.data);
    // Same keys in the same order: intents are kept in the backtest trace.
    expect(JSON.stringify(fast)).toBe(JSON.stringify(slow.data));
    expect(fast).not.toBe(candidate);
  } else if (
    typeof candidate === 'object' &&
    candidate !== null &&
    Object.getPrototypeOf(candidate) === Object.prototype &&
    !Object.values(candidate).includes(undefined)
  ) {
    // A plain object the schema accepts always takes the fast path.
    expect(slow.success, JSON.stringify(candidate)).toBe(false);
  }
}

describe('the hand-checked intent agrees with orderIntentSchema', () => {
  it('every field set to each of many values, present or left out', () => {
    for (const key of [...Object.keys(intent), 'extra']) {
      for (const value of values) check({ ...intent, [key]: value });
      const { [key]: _left, ...rest } = { ...intent } as Record<string, unknown>;
      check(rest);
    }
  });

  it('non-plain objects and optional keys present as undefined go to the schema', () => {
    expect(checkOrderIntentFast(Object.assign(Object.create(null) as object, intent))).toBe(
      undefined,
    );
    expect(checkOrderIntentFast([intent])).toBeUndefined();
    expect(checkOrderIntentFast({ ...intent, tag: undefined })).toBeUndefined();
    expect(checkOrderIntentFast(intent)).toStrictEqual(intent);
  });

  it('random JSON-ish intents', () => {
    const field = fc.oneof(
      fc.constantFrom(...values),
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...Object.keys(intent), 'extra'), field),
        fc.subarray(Object.keys(intent)),
        (patch, drop) => {
          const candidate: Record<string, unknown> = { ...intent, ...patch };
          for (const key of drop) delete candidate[key];
          check(candidate);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

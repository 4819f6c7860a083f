import { describe, expect, it } from 'vitest';
import { checkOrderIntentFast, orderIntentSchema } from '../../../src/strategy/intent-schema.ts';
import { itAgreesWithItsSchema } from '../../helpers/fast-path-agreement.ts';

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

describe('the hand-checked intent agrees with orderIntentSchema', () => {
  itAgreesWithItsSchema({
    fast: checkOrderIntentFast,
    schema: orderIntentSchema,
    valid: intent,
    extraKeys: ['extra'],
    values: ['BUY', 'SELL', 'buy', 'MARKET', 'LIMIT', 'x'.repeat(64), 'x'.repeat(65)],
    // Same keys in the same order: intents are kept in the backtest trace.
    same: 'bytes',
    undefinedToSchema: true,
    // A copy, never the strategy's own object (which it may change after returning it).
    alsoCheck: (candidate) => expect(checkOrderIntentFast(candidate)).not.toBe(candidate),
  });

  it('an optional key present as undefined goes to the schema', () => {
    expect(checkOrderIntentFast({ ...intent, tag: undefined })).toBeUndefined();
    expect(checkOrderIntentFast(intent)).toStrictEqual(intent);
  });
});

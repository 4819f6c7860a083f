import { describe, expect, it } from 'vitest';
import { checkOrderIntentFast, orderIntentSchema } from '../../../src/domain/intent-schema.ts';
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
    // The size keys besides amount: each alone with amount is refused, which both must say.
    extraKeys: ['extra', 'notional', 'risk', 'stopDistance'],
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

describe('the size of an intent: exactly one of amount, notional and risk', () => {
  const { amount: _amount, ...unsized } = intent;
  const problem = (candidate: unknown) => {
    const parsed = orderIntentSchema.safeParse(candidate);
    expect(checkOrderIntentFast(candidate)).toBeUndefined();
    return parsed.success
      ? 'accepted'
      : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };
  const accepted = (candidate: unknown) => {
    expect(orderIntentSchema.safeParse(candidate).success).toBe(true);
    expect(checkOrderIntentFast(candidate)).toStrictEqual(candidate);
  };

  it('accepts each alone (risk with its stop distance)', () => {
    accepted({ ...unsized, notional: '250' });
    accepted({ ...unsized, risk: '0.01', stopDistance: '40' });
  });

  it('says what is missing or doubled', () => {
    expect(problem(unsized)).toEqual([
      'amount: expected the size: one of amount, notional or risk',
    ]);
    expect(problem({ ...intent, notional: '5' })).toEqual([
      'notional: expected one of amount, notional or risk, got amount and notional',
    ]);
    expect(problem({ ...unsized, risk: '0.01' })).toEqual([
      'stopDistance: risk sizing needs stopDistance (the price distance to the stop) or exits.stopLoss',
    ]);
    expect(problem({ ...intent, stopDistance: '3' })).toEqual([
      'stopDistance: stopDistance is only read with risk',
    ]);
  });
});

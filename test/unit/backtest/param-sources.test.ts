import { describe, expect, it } from 'vitest';
import { paramUses } from '../../../src/backtest/param-sources.ts';
import { loadStrategy, parseStrategyParams } from '../../../src/strategy/load-strategy.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';

describe('paramUses: each param as the run used it, from the config or the default', () => {
  it('the ema-cross example given two params takes its five other defaults', async () => {
    const strategy = await loadStrategy('strategies/ema-cross.ts', [ROOT]);
    const configured = { slow: 30, notional: '250' };
    const parsed = parseStrategyParams(strategy, 'ema-cross', configured);
    expect(paramUses(configured, parsed)).toEqual([
      { name: 'fast', value: 9, source: 'default' },
      { name: 'slow', value: 30, source: 'config' },
      { name: 'rsiPeriod', value: 14, source: 'default' },
      { name: 'rsiMax', value: 70, source: 'default' },
      { name: 'notional', value: '250', source: 'config' },
      { name: 'stopLoss', value: '1.5%', source: 'default' },
      { name: 'takeProfit', value: '3%', source: 'default' },
    ]);
  });

  it('a value the config gives equal to the default still counts as given', () => {
    expect(paramUses({ fast: 9 }, { fast: 9, slow: 21 })).toEqual([
      { name: 'fast', value: 9, source: 'config' },
      { name: 'slow', value: 21, source: 'default' },
    ]);
  });

  it('parsed values are JSON data; no schema: the configured params as given', () => {
    expect(paramUses({}, { big: 10n ** 20n, when: undefined })).toEqual([
      { name: 'big', value: '100000000000000000000', source: 'default' },
      { name: 'when', value: null, source: 'default' },
    ]);
    expect(paramUses({ a: 1 }, undefined)).toEqual([{ name: 'a', value: 1, source: 'config' }]);
    expect(paramUses(undefined, undefined)).toEqual([]);
  });
});

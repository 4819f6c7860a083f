import { timeframeMs } from './bars/timeframe.ts';
import type { PreparedStrategy } from './prepare-strategies.ts';

/**
 * Why candles of `timeframe` (`ms` long) cannot make a strategy's bars, or undefined when they
 * can: a bar must be a whole number of candles (a 30s bar cannot be cut from 1m candles, nor a
 * bar that does not start on a candle). Backtests and `quanta run --warmup` refuse the first.
 */
export function candleTimeframeProblem(
  strategies: readonly Pick<PreparedStrategy, 'name' | 'strategy'>[],
  timeframe: string,
  ms: number,
): string | undefined {
  for (const { name, strategy } of strategies)
    for (const declared of Object.keys(strategy.bars ?? {})) {
      const length = timeframeMs(declared);
      if (typeof length === 'number' && length % ms !== 0)
        return `strategy ${name} declares ${declared} bars, which cannot be made of the data's ${timeframe} candles (a bar must be a whole number of candles)`;
    }
  return undefined;
}

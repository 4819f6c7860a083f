import { defineStrategy } from 'quanta';

const counter = globalThis as { __quantaBenchBars?: number };

/**
 * Benchmark strategy: 1-minute bars, an `onBar` that only counts the bars it is given (the bench
 * checks the count) and never trades: the cost of building and delivering bars in a backtest.
 */
export default defineStrategy({
  name: 'do-nothing-bars',
  bars: { '1m': 1 },
  onBar() {
    counter.__quantaBenchBars = (counter.__quantaBenchBars ?? 0) + 1;
    return [];
  },
});

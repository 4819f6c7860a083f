import { defineStrategy } from 'quanta';

/** Benchmark strategy: sees every snapshot and never trades (the backtest loop's own cost). */
export default defineStrategy({
  name: 'do-nothing',
  onSnapshot() {
    return [];
  },
});

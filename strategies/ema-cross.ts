import { defineStrategy, isFlat, isLong, z } from 'quanta';
import { ema, rsi } from 'quanta/indicators';

/**
 * EMA crossover with an RSI filter, on 1-minute bars, long only. When the fast EMA crosses above
 * the slow one while the RSI is below `rsiMax` (not overbought), it buys `notional` worth (quote
 * units) with a stop-loss and a take-profit that the framework holds for the position (a price,
 * or a percentage of the entry price); when the fast EMA crosses back below, it sells out.
 *
 * Indicator values are numbers (signals); amounts and prices stay decimal strings.
 */
export default defineStrategy({
  name: 'ema-cross',
  params: z
    .object({
      fast: z.number().int().min(1).default(9), // EMA periods, in bars
      slow: z.number().int().min(2).default(21),
      rsiPeriod: z.number().int().min(2).default(14),
      rsiMax: z.number().min(0).max(100).default(70),
      notional: z.string().default('100'), // quote units (USD) per entry
      stopLoss: z.string().default('1.5%'),
      takeProfit: z.string().default('3%'),
    })
    .strict()
    .refine((p) => p.fast < p.slow, { message: 'fast must be below slow', path: ['fast'] }),
  bars: { '1m': 60 },
  indicators: (p) => ({
    fast: ema('1m', p.fast),
    slow: ema('1m', p.slow),
    rsi: rsi('1m', p.rsiPeriod),
  }),
  onBar({ marketId }, ctx) {
    const { fast, slow, rsi: strength } = ctx.indicators(marketId);
    const [f0, s0, f1, s1] = [fast.previous, slow.previous, fast.value, slow.value];
    if (f0 === undefined || s0 === undefined || f1 === undefined || s1 === undefined) return []; // warming up
    const position = ctx.position(marketId);
    const overbought = (strength.value ?? 100) >= ctx.params.rsiMax;
    if (f0 <= s0 && f1 > s1 && isFlat(position) && !overbought && ctx.openOrders().length === 0) {
      const exits = { stopLoss: ctx.params.stopLoss, takeProfit: ctx.params.takeProfit };
      return [
        {
          marketId,
          side: 'BUY',
          type: 'MARKET',
          notional: ctx.params.notional,
          exits,
          tag: 'cross-up',
        },
      ];
    }
    if (f0 >= s0 && f1 < s1 && isLong(position))
      return [
        {
          marketId,
          side: 'SELL',
          type: 'MARKET',
          amount: position,
          reduceOnly: true,
          tag: 'cross-down',
        },
      ];
    return [];
  },
});

import { expect, it } from 'vitest';
import * as quanta from 'quanta';
import type { ExitSpec, Logger, StrategyContext } from 'quanta';
import * as backtest from 'quanta/backtest';
import * as indicators from 'quanta/indicators';
import * as runtime from 'quanta/runtime';

it('quanta (what strategy authors use) is a deliberate list', () => {
  expect(Object.keys(quanta).sort()).toMatchInlineSnapshot(`
    [
      "ErrorCodes",
      "QuantaError",
      "RollingWindow",
      "X18_SCALE",
      "absAmount",
      "bestAsk",
      "bestBid",
      "ceilToGrid",
      "defineStrategy",
      "findMarketBySymbol",
      "fixedX18",
      "floorToGrid",
      "formatX18",
      "isFlat",
      "isLong",
      "isOnGrid",
      "isQuantaError",
      "isShort",
      "levelNumbers",
      "mid",
      "midX18",
      "notionalX18",
      "parseDecimalToX18",
      "positionX18",
      "quantumX18",
      "spread",
      "toOrderPrice",
      "toX18",
      "z",
    ]
  `);
});

it('quanta/indicators is a deliberate list', () => {
  expect(Object.keys(indicators).sort()).toMatchInlineSnapshot(`
    [
      "adx",
      "atr",
      "bollinger",
      "ema",
      "macd",
      "obv",
      "rsi",
      "sma",
      "stochastic",
      "toOrderPrice",
      "vwap",
      "wma",
    ]
  `);
});

it('quanta/runtime (running a bot from code) is a deliberate list', () => {
  expect(Object.keys(runtime).sort()).toMatchInlineSnapshot(`
    [
      "createLogger",
      "loadConfig",
      "startBot",
    ]
  `);
});

it('quanta/backtest (backtesting from code) is a deliberate list', () => {
  expect(Object.keys(backtest).sort()).toMatchInlineSnapshot(`
    [
      "buildReport",
      "computeMetrics",
      "createLogger",
      "formatSummary",
      "loadConfig",
      "runBacktest",
      "writeReport",
    ]
  `);
});

it('quanta also gives the types its strategy context hands out (checked by the typecheck)', () => {
  // Typed through `quanta` alone: a strategy project needs no embedder entry to name them.
  const logOf = (ctx: StrategyContext<unknown, unknown>): Logger => ctx.log;
  const exitsOf = (
    ctx: StrategyContext<unknown, unknown>,
    marketId: number,
  ): ExitSpec | undefined => ctx.exits(marketId);
  const exits: ExitSpec = { stopLoss: '1.5%', trailingStop: '2%' };
  expect([typeof logOf, typeof exitsOf, Object.keys(exits)]).toEqual([
    'function',
    'function',
    ['stopLoss', 'trailingStop'],
  ]);
});

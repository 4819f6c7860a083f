import { expect, it } from 'vitest';
import * as quanta from 'quanta';
import * as indicators from 'quanta/indicators';

it('the public surface is a deliberate list', () => {
  expect(Object.keys(quanta).sort()).toMatchInlineSnapshot(`
    [
      "ErrorCodes",
      "QuantaError",
      "RollingWindow",
      "X18_SCALE",
      "absAmount",
      "bestAsk",
      "bestBid",
      "buildReport",
      "ceilToGrid",
      "computeMetrics",
      "createLogger",
      "defineStrategy",
      "findMarketBySymbol",
      "fixedX18",
      "floorToGrid",
      "formatSummary",
      "formatX18",
      "isFlat",
      "isLong",
      "isOnGrid",
      "isQuantaError",
      "isShort",
      "levelNumbers",
      "loadConfig",
      "mid",
      "midX18",
      "notionalX18",
      "parseDecimalToX18",
      "positionX18",
      "quantumX18",
      "runBacktest",
      "spread",
      "startBot",
      "toOrderPrice",
      "toX18",
      "writeReport",
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

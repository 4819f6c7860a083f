import { expect, it } from 'vitest';
import * as quanta from 'quanta';

it('the public surface is a deliberate list', () => {
  expect(Object.keys(quanta).sort()).toMatchInlineSnapshot(`
    [
      "ErrorCodes",
      "QuantaError",
      "X18_SCALE",
      "absAmount",
      "buildReport",
      "ceilToGrid",
      "computeMetrics",
      "createLogger",
      "defineStrategy",
      "findMarketBySymbol",
      "floorToGrid",
      "formatSummary",
      "formatX18",
      "isFlat",
      "isLong",
      "isOnGrid",
      "isQuantaError",
      "isShort",
      "loadConfig",
      "mid",
      "notionalX18",
      "parseDecimalToX18",
      "positionX18",
      "quantumX18",
      "runBacktest",
      "spread",
      "startBot",
      "writeReport",
      "z",
    ]
  `);
});

import { expect, it } from 'vitest';
import * as quanta from 'quanta';

it('the public surface is a deliberate list', () => {
  expect(Object.keys(quanta).sort()).toMatchInlineSnapshot(`
    [
      "ErrorCodes",
      "QuantaError",
      "RollingWindow",
      "X18_SCALE",
      "absAmount",
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
      "toX18",
      "writeReport",
      "z",
    ]
  `);
});

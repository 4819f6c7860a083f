import { expect, it } from 'vitest';
import * as quanta from 'quanta';

it('the public surface is a deliberate list', () => {
  expect(Object.keys(quanta).sort()).toMatchInlineSnapshot(`
    [
      "ErrorCodes",
      "QuantaError",
      "X18_SCALE",
      "buildReport",
      "ceilToGrid",
      "computeMetrics",
      "createLogger",
      "defineStrategy",
      "findMarketBySymbol",
      "floorToGrid",
      "formatSummary",
      "formatX18",
      "isOnGrid",
      "isQuantaError",
      "loadConfig",
      "notionalX18",
      "parseDecimalToX18",
      "quantumX18",
      "runBacktest",
      "startBot",
      "writeReport",
    ]
  `);
});

import { expect, it } from 'vitest';
import * as quanta from 'quanta';

it('the public surface is a deliberate list', () => {
  expect(Object.keys(quanta).sort()).toMatchInlineSnapshot(`
    [
      "ErrorCodes",
      "QuantaError",
      "X18_SCALE",
      "ceilToGrid",
      "defineStrategy",
      "findMarketBySymbol",
      "floorToGrid",
      "formatX18",
      "isOnGrid",
      "isQuantaError",
      "notionalX18",
      "parseDecimalToX18",
      "quantumX18",
    ]
  `);
});

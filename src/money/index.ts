export { X18_SCALE, X18_DECIMALS } from './constants.ts';
export {
  parseDecimalToX18,
  parseSignedDecimalToX18,
  tryParseSignedDecimalToX18,
} from './parse-decimal.ts';
export { formatX18 } from './format-x18.ts';
export { displayX18, MONEY_DECIMALS } from './display-x18.ts';
export { parseX18String } from './parse-x18.ts';
export {
  quantumX18,
  isOnGrid,
  floorToGrid,
  ceilToGrid,
  floorToQuantum,
  ceilToQuantum,
} from './grid.ts';
export { notionalX36, notionalX18, notionalExceeds } from './notional.ts';
export { fillFeeX18 } from './fee.ts';
export { absX18 } from './abs.ts';

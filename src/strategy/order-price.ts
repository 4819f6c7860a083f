import type { Market } from '../domain/index.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { formatX18, quantumX18 } from '../money/index.ts';

/** A float's shortest decimal form: sign, digits, exponent of the last digit. */
const FLOAT_TEXT = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/**
 * Turns a signal price (a number, e.g. an indicator's band or `close − 2 × ATR`) into an order
 * price on the market's price grid, rounded in the direction asked and exactly: the number is
 * taken as its shortest decimal form (`0.1` is 0.1, not the binary 0.1000000000000000055…), and
 * the rounding is done in bigints. Buy limits usually round `'down'`, sell limits `'up'` (the
 * executor's own rounding: never a worse price than asked).
 *
 * @param signal - a finite number above zero.
 * @param market - the market (its `priceExpo`: one tick is 10^-priceExpo).
 * @param direction - `'down'` (toward zero) or `'up'`; nothing is rounded to nearest.
 * @returns the price as a decimal string, a whole number of ticks.
 * @throws QuantaError `QUANTA_INVALID_DECIMAL` for a value that is not finite, not above zero,
 *   or that rounds to zero ticks.
 * @example
 * toOrderPrice(2000.12345, market, 'down') // '2000.12' with priceExpo 2
 * toOrderPrice(2000.12345, market, 'up')   // '2000.13'
 */
export function toOrderPrice(
  signal: number,
  market: Pick<Market, 'priceExpo' | 'symbol'>,
  direction: 'down' | 'up',
): string {
  if (direction !== 'down' && direction !== 'up')
    throw new QuantaError(
      ErrorCodes.INVALID_DECIMAL,
      `toOrderPrice: direction must be 'down' or 'up'`,
    );
  if (typeof signal !== 'number' || !Number.isFinite(signal) || signal <= 0)
    throw new QuantaError(
      ErrorCodes.INVALID_DECIMAL,
      `toOrderPrice: signal price ${String(signal)} for ${market.symbol} is not a finite number above zero`,
    );
  const match = FLOAT_TEXT.exec(String(signal)) as RegExpExecArray;
  const fraction = match[2] ?? '';
  const digits = BigInt(`${match[1] as string}${fraction}`);
  // signal = digits × 10^exponent; in x18 units: digits × 10^(exponent + 18).
  const exponent = Number(match[3] ?? '0') - fraction.length + 18;
  const tick = quantumX18(market.priceExpo);
  // ticks = digits × 10^exponent / tick, as numerator / denominator, both positive.
  const numerator = exponent >= 0 ? digits * 10n ** BigInt(exponent) : digits;
  const denominator = exponent >= 0 ? tick : tick * 10n ** BigInt(-exponent);
  let ticks = numerator / denominator;
  if (direction === 'up' && ticks * denominator !== numerator) ticks += 1n;
  if (ticks === 0n)
    throw new QuantaError(
      ErrorCodes.INVALID_DECIMAL,
      `toOrderPrice: signal price ${String(signal)} rounds ${direction} to zero on the ${market.symbol} price grid`,
    );
  return formatX18(ticks * tick);
}

import { SimEngine, type SimEngineOptions, type SimOrderRequest } from '../../../src/sim/index.ts';

/** 2026-01-05T00:00:00Z, the fixtures' listing time. */
export const T0 = Date.parse('2026-01-05T00:00:00Z');
export const X18 = 10n ** 18n;

/** An engine with a settable clock; volatility 0 unless the test asks otherwise (a still book). */
export function engineAt(options: Partial<SimEngineOptions> = {}) {
  const clock = { now: T0 };
  const engine = new SimEngine({ volatilityBps: 0, ...options, clock: () => clock.now });
  return { engine, clock };
}

/** A request with sensible defaults: 0.1 ETH-USD market buy valid for a minute from T0. */
export function request(overrides: Partial<SimOrderRequest> = {}): SimOrderRequest {
  return {
    marketId: 1,
    side: 'BUY',
    type: 'MARKET',
    amountX18: X18 / 10n,
    priceX18: 0n,
    expiryTs: T0 + 60_000,
    isReduce: false,
    ...overrides,
  };
}

/** Decimal amount to x18 for test readability (test inputs only; the engine never sees floats). */
export function x18(text: string): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole + fraction.padEnd(18, '0'));
}

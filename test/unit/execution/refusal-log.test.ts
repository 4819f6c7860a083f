import { expect, it } from 'vitest';
import { RefusalLog } from '../../../src/execution/refusal-log.ts';
import { createLogger } from '../../../src/log/logger.ts';
import { Writable } from 'node:stream';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: createLogger({ destination }), lines };
}

it('counts every refusal, logs once per strategy and reason per minute of the injected clock', async () => {
  const clock = { now: 0 };
  const { log, lines } = capture();
  const refusals = new RefusalLog({ now: () => clock.now, log });
  for (let i = 0; i < 100; i++) {
    clock.now = i * 500; // a refusal every half second for 50 s
    refusals.record('a', 'INVALID_INTENT', 'amount: a float');
    refusals.record('b', 'INVALID_INTENT', 'amount: a float');
    refusals.record('a', 'MARKET_NOT_FOUND', 'market 9');
  }
  clock.now = 60_000;
  refusals.record('a', 'INVALID_INTENT', 'amount: a float');
  await new Promise((r) => setImmediate(r));

  expect(refusals.totals()).toEqual({ INVALID_INTENT: 201, MARKET_NOT_FOUND: 100 });
  expect(refusals.byStrategy()).toEqual({
    a: { INVALID_INTENT: 101, MARKET_NOT_FOUND: 100 },
    b: { INVALID_INTENT: 100 },
  });
  expect(lines.map((l) => [l.strategy, l.reason, l.notLoggedSince])).toEqual([
    ['a', 'INVALID_INTENT', undefined],
    ['b', 'INVALID_INTENT', undefined],
    ['a', 'MARKET_NOT_FOUND', undefined],
    ['a', 'INVALID_INTENT', 99],
  ]);
  expect(lines[0]?.msg).toBe('intent refused (INVALID_INTENT): amount: a float');
});

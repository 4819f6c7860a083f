/**
 * Credential renewal is checked before each poll trades, and every 5 s whether or not a poll
 * comes: polls back off up to 30 s after failures, and a renewal left to them let credentials
 * expire after the faults stopped (the simulator: seeds 5306 and 9986 on a0783b2, a failed
 * renewal; seed 21577 on 719db30, a renewal that fell due while the poller backed off). A key
 * waiting out the spacing of refusals is replaced when the wait ends. Calls made while one
 * renewal runs share it: two registrations never run at once. The checks stop with the trading
 * loop, however it ends, and a listener that throws stops none of them.
 */
import { expect, it } from 'vitest';
import { pino } from 'pino';
import { parseConfig } from '../../../src/config/index.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { credentialRenewal, RENEWAL_CHECK_MS } from '../../../src/runtime/bot-credentials.ts';
import { TradingLoop } from '../../../src/runtime/trading-loop.ts';
import { virtualTime, type VirtualTime } from '../../helpers/virtual-time.ts';

const CONFIG = parseConfig(
  [
    'venue: { writeUrl: "https://venue.example/w", readUrl: "https://venue.example/r" }',
    'strategies: [{ module: /srv/bot/s.ts, markets: [ETH-USD] }]',
  ].join('\n'),
  'bot.yaml',
  '/srv/bot',
);

/** Lets every settled promise run its callbacks. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/** Moves time on to the next `steps` wake times, no poll coming (one backing off). */
async function advance(time: VirtualTime, steps: number): Promise<void> {
  for (let i = 0; i < steps; i++) {
    await settle();
    time.advance();
  }
  await settle();
}

const NO_TIMER = (): (() => void) => () => undefined;

/**
 * Credentials due for renewal from `dueAt` (virtual ms), refused with a successor allowed from
 * `refusedUntil` (0: not refused); `failures` registrations fail first (the network), then one
 * succeeds and none is due again.
 */
function credentials(now: () => number, { dueAt = 0, refusedUntil = 0, failures = 0 } = {}) {
  const tried: number[] = [];
  let renewed = false;
  return {
    tried,
    /** The venue refuses the newest key now, its successor allowed from `until`. */
    refuse(until: number) {
      renewed = false;
      dueAt = now();
      refusedUntil = until;
    },
    renewalDue: () => !renewed && now() >= Math.max(dueAt, refusedUntil),
    refusalWaitMs: () => (renewed ? 0 : Math.max(0, refusedUntil - now())),
    ensure: () => {
      tried.push(now());
      if (tried.length <= failures) return Promise.reject(new Error('fetch failed'));
      renewed = true;
      return Promise.resolve({ registered: true } as never);
    },
  };
}

it('tries a failed renewal again after RENEWAL_CHECK_MS without a poll, until it succeeds', async () => {
  const time = virtualTime(0);
  const creds = credentials(time.now, { failures: 2 });
  const ended: unknown[] = [];
  const renew = credentialRenewal(creds, CONFIG, silentLogger, {
    onAttempt: (error) => ended.push(error === undefined ? 'ok' : 'failed'),
    startTimer: NO_TIMER,
    sleep: time.sleep,
  });
  await renew(new AbortController().signal);
  await advance(time, 4);
  expect(creds.tried).toEqual([0, RENEWAL_CHECK_MS, 2 * RENEWAL_CHECK_MS]);
  expect(ended).toEqual(['failed', 'failed', 'ok']);
  // Renewed: the checks go on, one at a time, and register nothing more.
  expect(time.sleepers()).toBe(1);
});

it('renews credentials that fall due while no poll comes within RENEWAL_CHECK_MS (seed 21577 on 719db30)', async () => {
  const time = virtualTime(0);
  // A poll at 0: nothing due yet; due from 7 s (a host clock set right jumps there), and the
  // poller backs off past it.
  const creds = credentials(time.now, { dueAt: 7_000 });
  const renew = credentialRenewal(creds, CONFIG, silentLogger, {
    startTimer: NO_TIMER,
    sleep: time.sleep,
  });
  await renew(new AbortController().signal);
  expect(creds.tried).toEqual([]);
  await advance(time, 3);
  expect(creds.tried).toEqual([2 * RENEWAL_CHECK_MS]);
});

it('shares one renewal between callers: a poll while one runs registers nothing more', async () => {
  let finish: () => void = () => undefined;
  let ensured = 0;
  let due = true;
  const sharing = {
    renewalDue: () => due,
    refusalWaitMs: () => 0,
    ensure: () => {
      ensured += 1;
      return new Promise<never>((resolve) => {
        finish = () => {
          due = false;
          resolve({ registered: true } as never);
        };
      });
    },
  };
  const time = virtualTime(0);
  const renew = credentialRenewal(sharing, CONFIG, silentLogger, {
    startTimer: NO_TIMER,
    sleep: time.sleep,
  });
  const signal = new AbortController().signal;
  const first = renew(signal);
  const second = renew(signal);
  expect(ensured).toBe(1);
  finish();
  await Promise.all([first, second]);
  await renew(signal);
  expect(ensured).toBe(1);
  expect(time.sleepers()).toBe(1);
});

it('goes on retrying when the listener told of each attempt throws', async () => {
  const time = virtualTime(0);
  const creds = credentials(time.now, { failures: 2 });
  const renew = credentialRenewal(creds, CONFIG, silentLogger, {
    onAttempt: () => {
      throw new Error('alert channel down');
    },
    startTimer: NO_TIMER,
    sleep: time.sleep,
  });
  await renew(new AbortController().signal);
  await advance(time, 3);
  expect(creds.tried).toEqual([0, RENEWAL_CHECK_MS, 2 * RENEWAL_CHECK_MS]);
});

it('replaces a refused key when the spacing of refusals ends, without a poll', async () => {
  const time = virtualTime(0);
  const creds = credentials(time.now, { refusedUntil: 12_000 });
  const renew = credentialRenewal(creds, CONFIG, silentLogger, {
    startTimer: NO_TIMER,
    sleep: time.sleep,
  });
  // A poll while the refused key waits: nothing due yet; no poll comes after (backing off).
  await renew(new AbortController().signal);
  expect(creds.tried).toEqual([]);
  await advance(time, 4);
  // Checked at 5 s and 10 s, then when the wait ends, not at the next 5 s.
  expect(creds.tried).toEqual([12_000]);
});

it('a failed renewal whose retry finds the key refused registers when the wait ends', async () => {
  const time = virtualTime(0);
  // A renewal fails at 0 (the network); an order's 401 meanwhile: a new key allowed from 21 s.
  const creds = credentials(time.now, { failures: 1 });
  const renew = credentialRenewal(creds, CONFIG, silentLogger, {
    startTimer: NO_TIMER,
    sleep: time.sleep,
  });
  await renew(new AbortController().signal);
  creds.refuse(21_000);
  await advance(time, 6);
  expect(creds.tried).toEqual([0, 21_000]);
});

it('replaces a key refused between polls when its spacing ends, with no poll after the refusal', async () => {
  const time = virtualTime(0);
  const creds = credentials(time.now, { dueAt: Infinity });
  const renew = credentialRenewal(creds, CONFIG, silentLogger, {
    startTimer: NO_TIMER,
    sleep: time.sleep,
  });
  await renew(new AbortController().signal);
  await advance(time, 1);
  // At 5 s an order's 401, the second refusal in a row: the next key from 13 s on.
  creds.refuse(13_000);
  await advance(time, 3);
  expect(creds.tried).toEqual([13_000]);
});

it('a renewal the ending loop aborts is no failure: not told, not logged, not tried again', async () => {
  const time = virtualTime(0);
  const tried: number[] = [];
  const hanging = {
    renewalDue: () => true,
    refusalWaitMs: () => 0,
    // The first fails (the network); the retry's hangs until its signal aborts.
    ensure: (signal?: AbortSignal) => {
      tried.push(time.now());
      if (tried.length === 1) return Promise.reject(new Error('fetch failed'));
      return new Promise<never>((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      });
    },
  };
  const ended: unknown[] = [];
  const logged: string[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => logged.push(line) });
  const loop = new AbortController();
  const renew = credentialRenewal(hanging, CONFIG, log, {
    onAttempt: (error) => ended.push(error instanceof Error ? error.message : 'ok'),
    startTimer: NO_TIMER,
    sleep: time.sleep,
  });
  await renew(loop.signal);
  await advance(time, 1);
  expect(tried).toEqual([0, RENEWAL_CHECK_MS]);
  loop.abort(new Error('the trading loop ended'));
  await settle();
  expect(ended).toEqual(['fetch failed']);
  expect(logged.filter((line) => line.includes('credential renewal failed'))).toHaveLength(1);
  expect(time.sleepers()).toBe(0);
  // A call after the loop ended starts nothing.
  await renew(loop.signal);
  expect(tried).toHaveLength(2);
  expect(time.sleepers()).toBe(0);
});

it('stops checking when the trading loop ends because its poller threw', async () => {
  const time = virtualTime(0);
  const creds = credentials(time.now, { failures: 5 });
  const loop = new TradingLoop({
    poller: {
      run: async (onSnapshot) => {
        await onSnapshot({ markets: [] } as never);
        throw new Error('the poller gave up');
      },
    },
    session: { onSnapshot: () => Promise.resolve() },
    beforeTrading: credentialRenewal(creds, CONFIG, silentLogger, {
      startTimer: NO_TIMER,
      sleep: time.sleep,
    }),
  });
  // The caller's signal never aborts: `quanta run` goes on to shut the bot down.
  await expect(loop.run(new AbortController().signal)).rejects.toThrow('the poller gave up');
  await settle();
  expect(time.sleepers()).toBe(0);
  time.advance();
  await settle();
  expect(creds.tried).toEqual([0]);
});

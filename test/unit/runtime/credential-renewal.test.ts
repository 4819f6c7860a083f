/**
 * Credential renewal is tried before each poll trades, and again 5 s after it failed whether or
 * not a poll comes: polls back off up to 30 s after failures, and a renewal left to them let a
 * credential expire 12-18 s after the network came back (the simulator, seeds 5306 and 9986 on
 * a0783b2). For the same reason a key waiting out the spacing of refusals is replaced when the
 * wait ends. Calls made while one renewal runs share it: two registrations never run at once.
 * The retries stop with the trading loop, however it ends, and a listener that throws stops
 * none of them.
 */
import { expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/index.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { pino } from 'pino';
import { credentialRenewal, RENEWAL_RETRY_MS } from '../../../src/runtime/bot-credentials.ts';
import { TradingLoop } from '../../../src/runtime/trading-loop.ts';
import type { CredentialRefusal } from '../../../src/account/credential-manager.ts';
import { virtualTime } from '../../helpers/virtual-time.ts';

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

/** Credentials whose registrations fail `failures` times, then succeed (renewal no longer due). */
function credentialsFailing(failures: number, now: () => number) {
  const tried: number[] = [];
  let due = true;
  return {
    tried,
    renewalDue: () => due,
    refusalWaitMs: () => 0,
    onRefused: () => undefined,
    ensure: () => {
      tried.push(now());
      if (tried.length <= failures) return Promise.reject(new Error('fetch failed'));
      due = false;
      return Promise.resolve({ registered: true } as never);
    },
  };
}

it('tries a failed renewal again after RENEWAL_RETRY_MS without a poll, until it succeeds', async () => {
  const time = virtualTime(0);
  const credentials = credentialsFailing(2, time.now);
  const ended: unknown[] = [];
  const renew = credentialRenewal(credentials, CONFIG, silentLogger, {
    onAttempt: (error) => ended.push(error === undefined ? 'ok' : 'failed'),
    startTimer: () => () => undefined,
    sleep: time.sleep,
  });
  await renew(new AbortController().signal);
  // No poll from here on (one backing off): the retries come on their own.
  for (let i = 0; i < 3; i++) {
    await settle();
    time.advance();
  }
  await settle();
  expect(credentials.tried).toEqual([0, RENEWAL_RETRY_MS, 2 * RENEWAL_RETRY_MS]);
  expect(ended).toEqual(['failed', 'failed', 'ok']);
  expect(time.sleepers()).toBe(0);
});

it('shares one renewal between callers: a poll while one runs registers nothing more', async () => {
  let finish: () => void = () => undefined;
  let ensured = 0;
  let due = true;
  const credentials = {
    renewalDue: () => due,
    refusalWaitMs: () => 0,
    onRefused: () => undefined,
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
  const renew = credentialRenewal(credentials, CONFIG, silentLogger, {
    startTimer: () => () => undefined,
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
});

it('goes on retrying when the listener told of each attempt throws', async () => {
  const time = virtualTime(0);
  const credentials = credentialsFailing(2, time.now);
  const renew = credentialRenewal(credentials, CONFIG, silentLogger, {
    onAttempt: () => {
      throw new Error('alert channel down');
    },
    startTimer: () => () => undefined,
    sleep: time.sleep,
  });
  await renew(new AbortController().signal);
  for (let i = 0; i < 3; i++) {
    await settle();
    time.advance();
  }
  await settle();
  expect(credentials.tried).toEqual([0, RENEWAL_RETRY_MS, 2 * RENEWAL_RETRY_MS]);
});

/**
 * Credentials whose newest key the venue refused, a new one allowed from `refusedUntil` (the
 * spacing of refusals in a row); `failures` registrations fail first (the network).
 */
function credentialsRefused(refusedUntil: number, failures: number, now: () => number) {
  const tried: number[] = [];
  let renewed = false;
  const listeners: ((refusal: CredentialRefusal) => void)[] = [];
  return {
    tried,
    /** The venue refuses the newest key now, its successor allowed from `until`. */
    refuse(until: number) {
      refusedUntil = until;
      for (const listener of listeners)
        listener({
          signer: '0xaa',
          newest: true,
          waitMs: until - now(),
          inARow: 2,
          signingRefusal: 'refused',
          registering: false,
        });
    },
    renewalDue: () => !renewed && now() >= refusedUntil,
    refusalWaitMs: () => (renewed ? 0 : Math.max(0, refusedUntil - now())),
    onRefused: (listener: (refusal: CredentialRefusal) => void) => listeners.push(listener),
    ensure: () => {
      tried.push(now());
      if (tried.length <= failures) return Promise.reject(new Error('fetch failed'));
      renewed = true;
      return Promise.resolve({ registered: true } as never);
    },
  };
}

it('replaces a refused key when the spacing of refusals ends, without a poll', async () => {
  const time = virtualTime(0);
  const credentials = credentialsRefused(12_000, 0, time.now);
  const renew = credentialRenewal(credentials, CONFIG, silentLogger, {
    startTimer: () => () => undefined,
    sleep: time.sleep,
  });
  // A poll while the refused key waits: nothing due yet; no poll comes after (backing off).
  await renew(new AbortController().signal);
  expect(credentials.tried).toEqual([]);
  for (let i = 0; i < 2; i++) {
    await settle();
    time.advance();
  }
  await settle();
  expect(credentials.tried).toEqual([12_000]);
  expect(time.sleepers()).toBe(0);
});

it('a retry that finds the refused key still waiting tries again when the wait ends', async () => {
  const time = virtualTime(0);
  // A renewal fails at 0 (the network); its retry at 5 s finds the newest key refused, a new one
  // allowed from 21 s.
  const credentials = credentialsRefused(21_000, 1, time.now);
  const failingFirst = {
    ...credentials,
    renewalDue: () => (credentials.tried.length === 0 ? true : credentials.renewalDue()),
  };
  const renew = credentialRenewal(failingFirst, CONFIG, silentLogger, {
    startTimer: () => () => undefined,
    sleep: time.sleep,
  });
  await renew(new AbortController().signal);
  for (let i = 0; i < 3; i++) {
    await settle();
    time.advance();
  }
  await settle();
  expect(credentials.tried).toEqual([0, 21_000]);
  expect(time.sleepers()).toBe(0);
});

it('stops retrying when the trading loop ends because its poller threw', async () => {
  const time = virtualTime(0);
  const credentials = credentialsFailing(5, time.now);
  const loop = new TradingLoop({
    poller: {
      run: async (onSnapshot) => {
        await onSnapshot({ markets: [] } as never);
        throw new Error('the poller gave up');
      },
    },
    session: { onSnapshot: () => Promise.resolve() },
    beforeTrading: credentialRenewal(credentials, CONFIG, silentLogger, {
      startTimer: () => () => undefined,
      sleep: time.sleep,
    }),
  });
  // The caller's signal never aborts: `quanta run` goes on to shut the bot down.
  await expect(loop.run(new AbortController().signal)).rejects.toThrow('the poller gave up');
  await settle();
  expect(time.sleepers()).toBe(0);
  time.advance();
  await settle();
  expect(credentials.tried).toEqual([0]);
});

it('replaces a key refused between polls when its spacing ends, with no poll after the refusal', async () => {
  const time = virtualTime(0);
  // Not refused yet: a poll at 0 finds nothing due.
  const credentials = credentialsRefused(0, 0, time.now);
  let renewedAlready = true;
  const fresh = {
    ...credentials,
    renewalDue: () => !renewedAlready && credentials.renewalDue(),
    refusalWaitMs: () => (renewedAlready ? 0 : credentials.refusalWaitMs()),
  };
  const renew = credentialRenewal(fresh, CONFIG, silentLogger, {
    startTimer: () => () => undefined,
    sleep: time.sleep,
  });
  await renew(new AbortController().signal);
  expect(time.sleepers()).toBe(0);
  // An order's 401, the second refusal in a row: the next key from 10 s on; polls back off.
  renewedAlready = false;
  credentials.refuse(10_000);
  for (let i = 0; i < 2; i++) {
    await settle();
    time.advance();
  }
  await settle();
  expect(credentials.tried).toEqual([10_000]);
  expect(time.sleepers()).toBe(0);
});

it('a renewal the ending loop aborts is no failure: not told, not logged, not tried again', async () => {
  const time = virtualTime(0);
  const tried: number[] = [];
  const credentials = {
    renewalDue: () => true,
    refusalWaitMs: () => 0,
    onRefused: () => undefined,
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
  const renew = credentialRenewal(credentials, CONFIG, log, {
    onAttempt: (error) => ended.push(error instanceof Error ? error.message : 'ok'),
    startTimer: () => () => undefined,
    sleep: time.sleep,
  });
  await renew(loop.signal);
  await settle();
  time.advance();
  await settle();
  expect(tried).toEqual([0, RENEWAL_RETRY_MS]);
  loop.abort(new Error('the trading loop ended'));
  await settle();
  expect(ended).toEqual(['fetch failed']);
  expect(logged.filter((line) => line.includes('credential renewal failed'))).toHaveLength(1);
  expect(time.sleepers()).toBe(0);
  // A call after the loop ended starts nothing.
  await renew(loop.signal);
  expect(tried).toHaveLength(2);
});

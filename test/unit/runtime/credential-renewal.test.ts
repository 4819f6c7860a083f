/**
 * Credential renewal is tried before each poll trades, and again 5 s after it failed whether or
 * not a poll comes: polls back off up to 30 s after failures, and a renewal left to them let a
 * credential expire 12-18 s after the network came back (the simulator, seeds 5306 and 9986 on
 * a0783b2). Calls made while one renewal runs share it: two registrations never run at once.
 */
import { expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/index.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { credentialRenewal, RENEWAL_RETRY_MS } from '../../../src/runtime/bot-credentials.ts';
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

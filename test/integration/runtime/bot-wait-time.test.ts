/**
 * `startBot`'s monotonic clock and sleep come together or not at all (BotWaitTime,
 * src/runtime/bot-options.ts). Given one alone, it refused nothing: a sleep that returns at once
 * beside the system's monotonic clock had the bot wait for a rate slot or a refused key's
 * successor in a loop that never yields; a real sleep beside an injected clock nobody moves
 * waited forever. Now the types refuse it, and so does `startBot` for a caller without types,
 * before anything is contacted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { isQuantaError } from '../../../src/errors/index.ts';
import { startPaperVenue, type PaperVenue } from '../../../src/paper/index.ts';
import { startBot, type Bot } from '../../../src/runtime/bot.ts';
import { WALLET_KEY } from '../account/helpers.ts';
import { holdBotOptions } from './harness.ts';

let venue: PaperVenue | undefined;
let dir: string | undefined;
afterEach(async () => {
  await venue?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

it('startBot refuses a sleep without a monotonic clock, and a monotonic clock without a sleep, before it contacts the venue', async () => {
  venue = await startPaperVenue({ port: 0, seed: 3 });
  dir = mkdtempSync(join(tmpdir(), 'quanta-wait-time-'));
  const core = holdBotOptions(venue.url, dir, WALLET_KEY);
  const refusals: [() => Promise<Bot>, string][] = [
    [
      // @ts-expect-error -- BotWaitTime: a sleep without a monotonic clock does not type-check.
      () => startBot({ ...core, sleep: () => Promise.resolve() }),
      'sleep was given without monotonic',
    ],
    // @ts-expect-error -- BotWaitTime: a monotonic clock without a sleep does not type-check.
    [() => startBot({ ...core, monotonic: () => 0 }), 'monotonic was given without sleep'],
  ];
  for (const [start, what] of refusals) {
    // A bot that starts after all is shut down at once: left running, it would spin.
    const error: unknown = await start().then(
      (bot) => bot.shutdown(),
      (reason: unknown) => reason,
    );
    expect(isQuantaError(error) && error.code).toBe('QUANTA_USAGE');
    expect((error as Error).message).toBe(
      `startBot: ${what}: give monotonic and sleep together, or neither (a sleep must pass the time of the monotonic clock the bot waits on)`,
    );
  }
  expect(venue.requestCount('/api/v1/market')).toBe(0);
  expect(venue.requestCount('/api/v1/auth')).toBe(0);
});

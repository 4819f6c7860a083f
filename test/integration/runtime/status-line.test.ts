/**
 * A bot running for days logs a status line once a minute (of its clock): snapshots, staleness,
 * poll failures, in-flight orders, positions and when the credentials expire.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { createLogger } from '../../../src/log/logger.ts';
import { startPaperVenue, type PaperVenue } from '../../../src/paper/index.ts';
import { WALLET_ENV, botConfig, runBotFor } from '../account/bot-run.ts';
import { T0, WALLET_KEY, type TestClock } from '../account/helpers.ts';

let venue: PaperVenue | undefined;
let dir: string | undefined;
afterEach(async () => {
  await venue?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

it('logs a status line every minute of bot time', async () => {
  const clock: TestClock = { now: T0 };
  venue = await startPaperVenue({ port: 0, seed: 5, clock: () => clock.now });
  dir = mkdtempSync(join(tmpdir(), 'quanta-status-'));
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  await runBotFor({
    config: botConfig(dir, { venueUrl: venue.url, stateDir: join(dir, 'state') }),
    env: { [WALLET_ENV]: WALLET_KEY },
    log: createLogger({ destination: stream }),
    clock,
    polls: 130,
  });
  const status = lines.filter((line) => line.msg === 'status');
  // Bot time also moves while orders hold their rate slots, so count minutes on the clock.
  expect(status).toHaveLength(Math.floor((clock.now - T0) / 60_000));
  expect(status.length).toBeGreaterThanOrEqual(2);
  expect(status[0]).toMatchObject({ stale: false, pollFailures: 0, paused: [] });
  expect(typeof status[0]?.inFlight).toBe('number');
  expect(status[0]?.unresolved).toBe(0);
  expect(status[0]?.positions).toEqual([expect.stringMatching(/^ETH-USD \d+\.\d+$/)]);
  // Issue 14, item 4: net PnL, unrealized PnL and position notional per market; issue 24: money
  // to the cent (it had 18 decimals), and the PnL named PnL (it was labelled equity).
  expect(status[0]).toMatchObject({
    realizedNet: expect.stringMatching(/^-?\d+\.\d\d$/) as unknown,
    netPnl: expect.stringMatching(/^-?\d+\.\d\d$/) as unknown,
    unrealized: expect.stringMatching(/^-?\d+\.\d\d$/) as unknown,
    notional: { 'ETH-USD': expect.stringMatching(/^\d+\.\d\d$/) as unknown },
  });
  expect(status[0]).not.toHaveProperty('equity');
  expect(Number(status[1]?.snapshots)).toBeGreaterThan(Number(status[0]?.snapshots));
}, 60_000);

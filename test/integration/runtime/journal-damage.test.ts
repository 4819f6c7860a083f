/**
 * Issue 25: a journal truncated to half its size. `quanta run` used to refuse with "Check that
 * state.dir is writable and no other bot uses the same state dir" (not the cause) and
 * `quanta status` printed a raw `SqliteError: database disk image is malformed` stack; both now
 * say the journal is damaged and what to do, and exit 4.
 */
import { statSync, truncateSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startPaperVenue } from '../../../src/paper/index.ts';
import { writeJournal } from '../../helpers/journal-orders.ts';
import {
  FIXTURE_MARKETS,
  journalPath,
  spawnQuanta,
  strategyModule,
  tempDir,
  WALLET_ENV,
  writeBotConfig,
} from './harness.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

it('quanta run and quanta status on a journal cut to half: "damaged", what to do, exit 4, no stack', async () => {
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const venue = await startPaperVenue({ port: 0, markets: FIXTURE_MARKETS });
  cleanups.push(() => venue.close());
  const config = await writeBotConfig(dir, {
    writeUrl: venue.url,
    strategies: [{ module: strategyModule('dca'), markets: ['ETH-USD'] }],
  });
  const path = journalPath(dir);
  await mkdir(dirname(path), { recursive: true });
  writeJournal(path, 200);
  truncateSync(path, Math.floor(statSync(path).size / 2));

  const env = { ...process.env, [WALLET_ENV]: `0x${'3'.repeat(64)}` };
  for (const args of [['run'], ['status']]) {
    const child = spawnQuanta([...args, '--config', config], env);
    const { code } = await child.exited;
    const stderr = child.stderr.map((l) => l.line).join('\n');
    expect(code, child.tail()).toBe(4);
    expect(stderr).toContain(`quanta: the order journal at ${path} is damaged: SQLite:`);
    expect(stderr).toContain('quanta journal check');
    expect(stderr).not.toContain('writable');
    expect(stderr).not.toMatch(/SqliteError|\n\s+at /);
  }
  // Nothing was traded on it.
  expect(venue.requestCount('/api/v1/order')).toBe(0);
}, 60_000);

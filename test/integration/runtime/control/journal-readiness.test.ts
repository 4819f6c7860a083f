/**
 * Issue 24: readiness no longer writes a probe row, so it comes from the journal's last real
 * write. A bot whose journal could not write (here: another connection holds the file's write
 * lock, so the bot's next write, the mode `POST /halt` persists, fails with "database is
 * locked" after SQLite's busy timeout) is not ready, and stays so until a write succeeds again.
 */
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { generatePrivateKey } from 'viem/accounts';
import { loadConfig } from '../../../../src/config/index.ts';
import { startPaperVenue } from '../../../../src/paper/index.ts';
import { startBot } from '../../../../src/runtime/bot.ts';
import {
  captureLogs,
  journalPath,
  strategyModule,
  tempDir,
  waitFor,
  WALLET_ENV,
} from '../harness.ts';
import { call, writeControlConfig } from './control-harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

it('a journal whose last write failed makes /readyz 503 until a write succeeds', async () => {
  const paper = await startPaperVenue({ port: 0, seed: 24 });
  cleanups.push(() => paper.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const configPath = await writeControlConfig(dir, {
    writeUrl: paper.url,
    strategies: [
      { module: strategyModule('dca'), markets: ['ETH-USD'], params: { everySnapshots: 1000 } },
    ],
  });
  const env = { [WALLET_ENV]: generatePrivateKey() };
  const config = await loadConfig(configPath, { env });
  const bot = await startBot({ config, env, log: captureLogs().log, projectRoot: process.cwd() });
  const controller = new AbortController();
  const running = bot.run(controller.signal);
  cleanups.push(async () => {
    controller.abort();
    await running;
    await bot.shutdown();
  });
  const url = bot.controlUrl ?? '';
  await waitFor('ready', async () => (await call(url, '/readyz')).status === 200);

  const locker = new Database(journalPath(dir));
  cleanups.push(() => Promise.resolve(locker.close()));
  locker.exec('BEGIN EXCLUSIVE');
  // The halt cannot be persisted: the write fails, and the command with it.
  expect((await call(url, '/halt', { body: { mode: 'halt' } })).status).toBe(500);
  const locked = await call(url, '/readyz');
  expect(locked.status).toBe(503);
  expect(locked.body.reasons).toContain('journal cannot write: database is locked');
  expect((await call(url, '/status')).body.ready).toBe(false);

  // Free again, but nothing written since: still the last write's outcome.
  locker.exec('ROLLBACK');
  const unwritten = await call(url, '/readyz');
  expect(unwritten.body.reasons).toContain('journal cannot write: database is locked');

  // A write that succeeds (the resume persists the mode) clears the journal's reason at once.
  expect((await call(url, '/resume', { method: 'POST' })).status).toBe(200);
  const written = await call(url, '/readyz');
  expect(written.body.reasons).not.toContainEqual(expect.stringMatching(/^journal/));
  // The failed halt held the event loop for SQLite's busy timeout, so on a loaded machine a poll
  // can have failed meanwhile ("data stale", "venue polls failing"): those clear at the next
  // good poll, and the bot is ready again.
  const again = await waitFor('ready again', async () => {
    const answer = await call(url, '/readyz');
    return answer.status === 200 && answer;
  });
  expect(again.body).toEqual({ ready: true, reasons: [] });
});

/**
 * Issue 12, item 5 and the read-only `state.dir`: one bot per state dir (a second one exits 2
 * naming the first one's pid, before any venue request), and a state dir that cannot be written
 * stops the bot before it registers (no nonce burned), with the cause kept. The paper venue
 * counts every request as it arrives, so its counts prove what reached it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { exitCodeFor } from '../../../src/cli/exit-codes.ts';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';
import { startPaperVenue, type PaperVenue } from '../../../src/paper/index.ts';
import { lockStateDir } from '../../../src/runtime/state-lock.ts';
import {
  captureLogs,
  FIXTURE_MARKETS,
  runBot,
  spawnQuanta,
  strategyModule,
  tempDir,
  waitFor,
  WALLET_ENV,
  writeBotConfig,
} from './harness.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

async function setup(): Promise<{ dir: string; venue: PaperVenue; config: string }> {
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const venue = await startPaperVenue({ port: 0, markets: FIXTURE_MARKETS });
  cleanups.push(() => venue.close());
  const config = await writeBotConfig(dir, {
    writeUrl: venue.url,
    strategies: [{ module: strategyModule('dca'), markets: ['ETH-USD'] }],
  });
  return { dir, venue, config };
}

async function startError(configPath: string): Promise<QuantaError> {
  const { log } = captureLogs();
  const error = await runBot(configPath, log).then(
    async (bot) => {
      await bot.stop();
      throw new Error('expected the bot not to start');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(QuantaError);
  return error as QuantaError;
}

it('a second bot on the same state.dir exits 2 naming the first one’s pid, before any request', async () => {
  const { venue, config } = await setup();
  const first = await runBot(config, captureLogs().log);
  cleanups.push(() => first.stop());
  await waitFor('a snapshot', () => first.snapshots.length >= 1);
  const requestsBefore = venue.requestCount('/api/v1/auth');
  expect(requestsBefore).toBe(1);

  const error = await startError(config);
  expect(error.code).toBe(ErrorCodes.STATE_DIR_LOCKED);
  expect(exitCodeFor(error)).toBe(2);
  expect(error.message).toContain(`in use by another bot (pid ${process.pid})`);
  expect(venue.requestCount('/api/v1/auth')).toBe(requestsBefore);

  // Released at shutdown: the next bot starts.
  await first.stop();
  const next = await runBot(config, captureLogs().log);
  await next.stop();
}, 60_000);

it('quanta run on a state.dir another process holds: exit 2 and the pid on stderr', async () => {
  const { dir, venue, config } = await setup();
  const lock = lockStateDir(join(dir, 'state'));
  cleanups.push(() => lock.release());
  const cli = spawnQuanta(['run', '--config', config], {
    ...process.env,
    [WALLET_ENV]: `0x${'11'.repeat(32)}`,
  });
  cleanups.push(() => cli.child.kill('SIGKILL'));
  const exited = await Promise.race([
    cli.exited,
    new Promise<'still running'>((done) => setTimeout(() => done('still running'), 45_000)),
  ]);
  expect(exited, cli.tail()).toEqual({ code: 2, signal: null });
  expect(cli.stderr.map((l) => l.line).join('\n')).toContain(
    `is in use by another bot (pid ${process.pid})`,
  );
  expect(venue.requestCount('/api/v1/auth')).toBe(0);
  expect(venue.requestCount('/api/v1/order')).toBe(0);
}, 60_000);

it('a state.dir that cannot be written stops the bot before it registers, keeping the cause', async () => {
  const { dir, venue, config } = await setup();
  // A path below a regular file: no user, root included, can create it (a read-only mount
  // gives EROFS the same way).
  const blocker = join(dir, 'not-a-dir');
  await writeFile(blocker, '');
  const text = await readFile(config, 'utf8');
  await writeFile(config, text.replace(join(dir, 'state'), join(blocker, 'state')), 'utf8');

  const error = await startError(config);
  expect(error.code).toBe(ErrorCodes.STATE_DIR_UNWRITABLE);
  expect(exitCodeFor(error)).toBe(2);
  expect(error.message).toContain(`state.dir ${join(blocker, 'state')} is not writable (ENOTDIR)`);
  expect((error.cause as NodeJS.ErrnoException).code).toBe('ENOTDIR');
  // No registration nonce burned, nothing sent.
  expect(venue.requestCount('/api/v1/auth')).toBe(0);
  expect(venue.requestCount('/api/v1/order')).toBe(0);
}, 30_000);

it('quanta register on a state.dir a bot holds: exit 2, nothing emptied or registered', async () => {
  const { dir, venue, config } = await setup();
  const lock = lockStateDir(join(dir, 'state'));
  cleanups.push(() => lock.release());
  const cli = spawnQuanta(['register', '--config', config], {
    ...process.env,
    [WALLET_ENV]: `0x${'11'.repeat(32)}`,
  });
  cleanups.push(() => cli.child.kill('SIGKILL'));
  expect(await cli.exited, cli.tail()).toEqual({ code: 2, signal: null });
  expect(cli.stderr.map((l) => l.line).join('\n')).toContain(
    `is in use by another bot (pid ${process.pid})`,
  );
  expect(venue.requestCount('/api/v1/auth')).toBe(0);
}, 60_000);

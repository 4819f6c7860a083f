/**
 * Issue 25: a bot killed (SIGKILL) right after an order landed, then its journal's `-wal` file
 * deleted (a backup tool, a careless cleanup). The restart used to open the main file alone,
 * old but sound, and trade without a word while the newest rows, orders the venue holds among
 * them, were gone. The journal's mark (src/execution/journal-mark.ts) says the journal was open
 * when its writer died, so its WAL must be there: `quanta run` refuses (exit 4) saying what is
 * wrong and what to do, sends nothing, and `quanta status` says the same.
 */
import { rmSync } from 'node:fs';
import { generatePrivateKey } from 'viem/accounts';
import { afterEach, expect, it } from 'vitest';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { startPaperVenue } from '../../../src/paper/index.ts';
import {
  journalPath,
  spawnQuanta,
  startOrderProxy,
  strategyModule,
  tempDir,
  waitFor,
  WALLET_ENV,
  writeBotConfig,
  type QuantaProcess,
  killOnCleanup,
} from './harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

const N = 30;
const K = 10;

const track = (bot: QuantaProcess): QuantaProcess => killOnCleanup(cleanups, bot);

it('SIGKILL right after an order landed, the WAL deleted: the restart refuses (exit 4) and sends nothing', async () => {
  const venue = await startPaperVenue({ port: 0, seed: 25 });
  cleanups.push(() => venue.close());
  // Orders 1..K answered; K+1 reaches the venue but its answer never comes back (it landed, the
  // bot cannot know); K+2 is held without reaching it.
  const proxy = await startOrderProxy(venue.url, (n) =>
    n === K + 1 ? 'hold-after-forward' : n === K + 2 ? 'hold' : 'forward',
  );
  cleanups.push(() => proxy.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const config = await writeBotConfig(dir, {
    writeUrl: proxy.url,
    readUrl: venue.url,
    poll: { intervalMs: 200 },
    execution: { rateLimit: { requests: 15, perMs: 1000 }, concurrency: 2 },
    strategies: [
      {
        module: strategyModule('fixtures/burst'),
        markets: ['ETH-USD'],
        params: { count: N, firstAmount: '0.001', step: '0.000001' },
      },
    ],
  });
  const env = { ...process.env, [WALLET_ENV]: generatePrivateKey() };
  const path = journalPath(dir);

  const first = track(spawnQuanta(['run', '--config', config], env));
  await waitFor(
    'two order requests held by the proxy',
    () => proxy.held() === 2 || first.child.exitCode !== null,
    45_000,
  );
  expect(proxy.held(), first.tail()).toBe(2);
  first.child.kill('SIGKILL');
  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
  // Read-only, as `quanta status` reads it (a writer's open and close would checkpoint the WAL).
  const crashed = OrderJournal.openReadOnly(path);
  expect(crashed.all()).toHaveLength(N);
  crashed.close();
  const ordersBefore = venue.requestCount('/api/v1/order');

  // The cleanup that loses the newest commits.
  rmSync(`${path}-wal`);
  rmSync(`${path}-shm`, { force: true });

  const second = track(spawnQuanta(['run', '--config', config], env));
  const { code } = await second.exited;
  const stderr = second.stderr.map((l) => l.line).join('\n');
  expect(code, second.tail()).toBe(4);
  expect(stderr).toContain(
    `quanta: the order journal at ${path} is damaged: the bot that wrote it stopped without closing it (killed or crashed) and its WAL ${path}-wal, which holds its newest commits, is missing`,
  );
  expect(stderr).toContain('quanta journal backup');
  expect(stderr).toContain('quanta journal check');
  expect(stderr).toContain(`delete ${path}-mark`);
  expect(stderr).not.toMatch(/SqliteError|\n\s+at /);
  // Nothing was sent on it.
  expect(venue.requestCount('/api/v1/order')).toBe(ordersBefore);

  const status = track(spawnQuanta(['status', '--config', config], env));
  expect((await status.exited).code, status.tail()).toBe(4);
  expect(status.stderr.map((l) => l.line).join('\n')).toContain('its WAL');
}, 120_000);

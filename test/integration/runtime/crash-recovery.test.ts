/**
 * Done-when 4: a bot killed with SIGKILL in the middle of a burst and started again leaves the
 * venue holding every journaled intent exactly once.
 *
 * The bot is a child process (`node bin/quanta.js run --config …`); the paper venue runs in this
 * process. A test strategy emits N MARKET buys with unique amounts, once (remembered in its
 * store), so each venue order maps back to one intent. The bot's order requests go through a
 * proxy that lets the first K pass, then forwards order K+1 to the venue but never answers
 * it (it landed; the bot cannot know) and holds order K+2 without forwarding it (it did not
 * land). With both send slots stuck, the bot is killed: two orders in flight, one of them
 * placed, the rest journaled but never sent. The restarted bot must resend both in-flight
 * orders byte-identical (the venue answers the landed one 409) and send the rest once; then the
 * landed one (ACCEPTED: its answer never came) is found by its signature and ends FILLED, as on
 * the venue.
 */
import Database from 'better-sqlite3';
import { generatePrivateKey } from 'viem/accounts';
import { afterEach, expect, it } from 'vitest';
import { startPaperVenue } from '../../../src/paper/index.ts';
import {
  accountIdOf,
  journalPath,
  readJournal,
  spawnQuanta,
  startOrderProxy,
  strategyModule,
  tempDir,
  venueOrders,
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

const N = 60;
const K = 20;
const FIRST_X18 = 1_000_000_000_000_000n; // 0.001 ETH
const STEP_X18 = 1_000_000_000_000n; // 0.000001 ETH

/** Journal rows by state, read with a separate read-only connection while the bot runs. */
function statesIn(path: string): Record<string, number> {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT state, COUNT(*) AS n FROM orders GROUP BY state').all() as {
      state: string;
      n: number;
    }[];
    return Object.fromEntries(rows.map((r) => [r.state, r.n]));
  } finally {
    db.close();
  }
}

const track = (bot: QuantaProcess): QuantaProcess => killOnCleanup(cleanups, bot);

it('SIGKILL mid-burst, restart: the venue holds every journaled intent exactly once', async () => {
  const venue = await startPaperVenue({ port: 0, seed: 9 });
  cleanups.push(() => venue.close());
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
    log: { level: 'info' },
    strategies: [
      {
        module: strategyModule('fixtures/burst'),
        markets: ['ETH-USD'],
        params: { count: N, firstAmount: '0.001', step: '0.000001' },
      },
    ],
  });
  const walletKey = generatePrivateKey();
  const env = { ...process.env, [WALLET_ENV]: walletKey };
  const accountId = accountIdOf(walletKey);
  const journal = journalPath(dir);

  // First run: killed once both send slots are stuck on orders K+1 and K+2.
  const first = track(spawnQuanta(['run', '--config', config], env));
  await waitFor(
    'two order requests held by the proxy',
    () => proxy.held() === 2 || first.child.exitCode !== null,
    20_000,
  );
  expect(proxy.held(), first.tail()).toBe(2);
  expect(venue.requestCount('/api/v1/order')).toBe(K + 1);
  first.child.kill('SIGKILL');
  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
  // Sixty queued orders are no reason for Node's listener-leak warning.
  expect(first.stderr.map((l) => l.line).join('\n')).not.toMatch(/Warning/);

  // What the crash left: K answered, two in flight, the rest journaled and never sent.
  const crashed = readJournal(journal);
  expect(crashed).toHaveLength(N);
  expect(statesIn(journal)).toEqual({ FILLED: K, SENT: 2, PENDING: N - K - 2 });
  const inFlight = crashed.filter((r) => r.state === 'SENT');
  expect(inFlight.map((r) => r.attempts)).toEqual([1, 1]);
  const landed = inFlight.find((r) => r.signature === proxy.orders[K]?.signature);
  const lost = inFlight.find((r) => r.signature === proxy.orders[K + 1]?.signature);
  expect(landed).toBeDefined();
  expect(lost).toBeDefined();

  // Second run: recovery resends the in-flight orders and sends the unsent ones.
  const second = track(spawnQuanta(['run', '--config', config], env));
  await waitFor(
    'no PENDING, SENT or ACCEPTED rows in the journal',
    () => {
      if (second.child.exitCode !== null) return true;
      const states = statesIn(journal);
      return (
        states.PENDING === undefined && states.SENT === undefined && states.ACCEPTED === undefined
      );
    },
    30_000,
  );
  expect(second.child.exitCode, second.tail()).toBeNull();
  second.child.kill('SIGINT');
  expect(await second.exited, second.tail()).toEqual({ code: 130, signal: null });

  const rows = readJournal(journal);
  expect(rows).toHaveLength(N);
  // The strategy did not emit again after the restart: the same N intents, one row each.
  const expected = Array.from({ length: N }, (_, i) => FIRST_X18 + BigInt(i) * STEP_X18);
  expect(rows.map((r) => r.amountX18).sort(compare)).toEqual(expected);

  // The venue accepted every journaled intent exactly once: no amount twice, none missing.
  const onVenue = venueOrders(venue, accountId);
  expect(onVenue.map((o) => o.amountX18).sort(compare)).toEqual(expected);
  expect(onVenue.every((o) => o.status === 'FILLED')).toBe(true);
  expect(venue.engine.position(accountId, 1).amountX18).toBe(expected.reduce((a, b) => a + b));

  // Recovery resent both in-flight orders with the bytes the first run signed.
  const sent = (signature: string) => proxy.orders.filter((o) => o.signature === signature);
  for (const row of [landed, lost]) {
    const copies = sent(row?.signature ?? '');
    expect(copies).toHaveLength(2);
    expect(copies.every((c) => c.body === row?.body)).toBe(true);
  }
  // The landed one drew the venue's 409 (ACCEPTED), then its lookup by signature found the
  // venue's order; the lost one landed now.
  expect(proxy.orders).toHaveLength(N + 2);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const landedOnVenue = onVenue.find((o) => o.amountX18 === landed?.amountX18);
  expect(byId.get(landed?.id ?? -1)).toMatchObject({
    state: 'FILLED',
    attempts: 2,
    venueOrderId: landedOnVenue?.id,
  });
  expect(byId.get(lost?.id ?? -1)).toMatchObject({ state: 'FILLED', attempts: 2 });
  expect(rows.filter((r) => r.state === 'FILLED')).toHaveLength(N);
  // Every journaled order went out with its own signature, each resend being one of them.
  expect(new Set(proxy.orders.map((o) => o.signature)).size).toBe(N);
}, 60_000);

function compare(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

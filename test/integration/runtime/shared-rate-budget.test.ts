/**
 * Issue 15, "Done when": three bot processes (`node bin/quanta.js run`) trade for one wallet
 * (subaccounts 1-3) against a paper venue that limits all their requests at 1.25 R, sharing a
 * budget of R in a real redis-server, each with a strategy that wants more than R. One run,
 * four phases, measured on the venue's own request log:
 *
 * 1. 60 s, three bots: no 429, and at least 0.9 R in every 10-s window after the first.
 * 2. SIGKILL one mid-burst: from perMs + lease margin after the kill, the other two take its
 *    share (at least 0.8 R, where keeping to their own two thirds would be 0.67 R).
 * 3. Redis stopped: no 429, and each bot keeps trading at its fallback share
 *    (R / expectedProcesses, in every second as the venue counts), logged once.
 * 4. Redis back: the bots return to the shared budget (well above their two shares again,
 *    once every process is back and has carried its held slots into Redis).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePrivateKey } from 'viem/accounts';
import { stringify } from 'yaml';
import { afterAll, expect, it } from 'vitest';
import { startPaperVenue, type PaperVenue } from '../../../src/paper/index.ts';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.ts';
import {
  accountIdOf,
  spawnQuanta,
  strategyModule,
  WALLET_ENV,
  type QuantaProcess,
} from './harness.ts';

const R = 20;
const PER_MS = 1000;
const VENUE_LIMIT = (R * 5) / 4; // 1.25 R, per second
const LEASE_MARGIN_MS = 500;
const BOTS = 3;
const STEADY_MS = 60_000;

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanups.splice(0).reverse()) await step().catch(() => undefined);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Requests the venue admitted in [from, to), and how many it refused (429) in all. */
function admitted(venue: PaperVenue, from: number, to: number): number {
  return venue.requestLog().filter((r) => !r.limited && r.at >= from && r.at < to).length;
}

/** Creation times of the orders the venue holds for `accountId` created in [from, to). */
function orderTimes(venue: PaperVenue, accountId: string, from: number, to: number): number[] {
  const times: number[] = [];
  for (let id = 1; id <= venue.requestCount('/api/v1/order'); id++) {
    const order = venue.engine.getOrder(accountId, id);
    if (order === undefined) continue;
    const at = Date.parse(order.createdAt);
    if (at >= from && at < to) times.push(at);
  }
  return times;
}

/** Orders the venue holds for `accountId` created in [from, to). */
function ordersOf(venue: PaperVenue, accountId: string, from: number, to: number): number {
  return orderTimes(venue, accountId, from, to).length;
}

/**
 * The most of `times` in any `ms`-long window: what a sliding-window limit sees. (An average
 * over a longer span is no bound: a window of n per second lets 3n through in 2.5 s.)
 */
function busiestWindow(times: readonly number[], ms: number): number {
  const sorted = [...times].sort((x, y) => x - y);
  let most = 0;
  let first = 0;
  for (let last = 0; last < sorted.length; last++) {
    while ((sorted[first] ?? 0) <= (sorted[last] ?? 0) - ms) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/** JSON log records of a bot whose message starts with `prefix`. */
function logged(bot: QuantaProcess, prefix: string): Record<string, unknown>[] {
  return bot.stdout
    .map((l) => {
      try {
        return JSON.parse(l.line) as Record<string, unknown>;
      } catch {
        return {};
      }
    })
    .filter((r) => typeof r.msg === 'string' && r.msg.startsWith(prefix));
}

it('three processes share one budget: >= 0.9 R, no 429, survive a SIGKILL and a Redis outage', async () => {
  const redis: RedisServer = await startRedisServer();
  cleanups.push(() => redis.dispose());
  const venue = await startPaperVenue({ rateLimit: VENUE_LIMIT, logRequests: true, seed: 15 });
  cleanups.push(() => venue.close());
  // Journals on tmpfs where there is one: three bots fsyncing on a busy shared disk would
  // measure the disk (event-loop stalls that delay every answer and so every slot), not the
  // budget.
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  const root = await mkdtemp(join(base, 'quanta-shared-budget-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));

  const walletKey = generatePrivateKey();
  const bots: QuantaProcess[] = [];
  for (let subaccount = 1; subaccount <= BOTS; subaccount++) {
    const dir = join(root, `bot${subaccount}`);
    const config = join(root, `bot${subaccount}.yaml`);
    await writeFile(
      config,
      stringify({
        venue: { writeUrl: venue.url, readUrl: venue.url, subaccount },
        wallet: { privateKeyEnv: WALLET_ENV },
        state: { dir },
        poll: { intervalMs: 50 },
        execution: {
          rateLimit: { requests: R, perMs: PER_MS },
          rateBudget: `${redis.url}/0`,
          expectedProcesses: BOTS,
          leaseMarginMs: LEASE_MARGIN_MS,
          concurrency: 8,
          drainTimeoutMs: 2000,
        },
        risk: { capital: '100000' }, // the paper venue's balance: the bot knows its account
        log: { level: 'info', format: 'json' },
        strategies: [
          {
            module: strategyModule('fixtures/waves'),
            markets: ['ETH-USD'],
            // 5 R per snapshot: every bot alone wants more than the whole budget.
            params: {
              waveSize: 5 * R,
              firstAmount: '0.001',
              step: '0.0000001',
            },
          },
        ],
      }),
      'utf8',
    );
    const bot = spawnQuanta(['run', '--config', config], {
      ...process.env,
      [WALLET_ENV]: walletKey,
    });
    bots.push(bot);
    cleanups.push(async () => {
      bot.child.kill('SIGKILL');
      await bot.exited;
    });
  }
  const accounts = bots.map((_, i) => accountIdOf(walletKey, 1, i + 1));
  const describe = () => bots.map((b, i) => `bot ${i + 1}:\n${b.tail()}`).join('\n');

  // Every bot running on the shared budget (opened after its registration) and orders flowing.
  // (A bot's first wave may wait for the others' to drain: its polls yield to their orders.)
  const deadline = Date.now() + 45_000;
  while (
    bots.some((bot) => logged(bot, 'shared rate budget').length === 0) ||
    venue.requestCount('/api/v1/order') === 0
  ) {
    if (Date.now() > deadline) throw new Error(`bots did not start trading\n${describe()}`);
    await sleep(100);
  }
  const t0 = Date.now();
  console.info(`bots running ${t0 - bots[0]!.spawnedAt} ms after the first spawn`);

  // Phase 1: 60 s, three bots.
  await sleep(STEADY_MS);
  const perWindow: number[] = [];
  for (let from = t0 + 10_000; from < t0 + STEADY_MS; from += 10_000) {
    perWindow.push(admitted(venue, from, from + 10_000) / 10 / R);
  }
  console.info(
    `shared budget: achieved / R per 10-s window: ${perWindow.map((x) => x.toFixed(3)).join(' ')}`,
  );

  // All three traded in those 60 s: the budget was shared, not taken by one.
  const phase1Orders = accounts.map((account) => ordersOf(venue, account, t0, t0 + STEADY_MS));
  console.info(`orders per bot in the 60 s: ${phase1Orders.join(', ')}`);

  // Phase 2: SIGKILL bot 3 mid-burst (it always has orders queued and in flight).
  const killedAt = Date.now();
  bots[2]?.child.kill('SIGKILL');
  await bots[2]?.exited;
  const takeoverFrom = killedAt + PER_MS + LEASE_MARGIN_MS;
  await sleep(takeoverFrom + 2500 - Date.now());
  const takeover = admitted(venue, takeoverFrom, takeoverFrom + 2500) / 2.5 / R;
  console.info(`after SIGKILL: ${takeover.toFixed(3)} R from ${PER_MS + LEASE_MARGIN_MS} ms on`);

  // Phase 3: Redis down.
  await redis.stop();
  const stoppedAt = Date.now();
  await sleep(4000);
  const share = Math.floor(R / BOTS);
  // From 1.5 s on: the shared slots held at the stop have freed, only shares remain.
  const fallbackFrom = stoppedAt + 1500;
  const fallbackTo = stoppedAt + 4000;
  const fallbackRate = admitted(venue, fallbackFrom, fallbackTo) / 2.5;
  const fallbackOrders = accounts
    .slice(0, 2)
    .map((account) => orderTimes(venue, account, fallbackFrom, fallbackTo));
  // The venue's own measure: the most requests (all bots) and orders (each bot) in any 1 s.
  const fallbackBusiest = busiestWindow(
    venue
      .requestLog()
      .filter((r) => !r.limited && r.at >= fallbackFrom && r.at < fallbackTo)
      .map((r) => r.at),
    1000,
  );
  const fallbackBusiestPerBot = fallbackOrders.map((times) => busiestWindow(times, 1000));
  console.info(
    `Redis down: ${fallbackRate.toFixed(1)} requests/s in all (at most ${fallbackBusiest} in 1 s), orders per bot ${fallbackOrders.map((t) => t.length).join(', ')} in 2.5 s (at most ${fallbackBusiestPerBot.join(', ')} in 1 s; share ${share})`,
  );

  // Phase 4: Redis back.
  // A survivor may reconnect (ioredis retries every 500 ms) and say so while restart() still
  // waits for its own PONG: its 'reachable again' line then arrives before restart() returns.
  // Lines are looked for from before the restart, or that bot is never seen coming back.
  const restartBeganAt = Date.now();
  await redis.restart();
  const restartedAt = Date.now();
  // Each survivor says when it is back (a probe every 500 ms, then ioredis's reconnect and
  // ready check), and keeps to its share for perMs + 3 probes after that (the others may not
  // be back yet). The shared rate is measured from then, not from a fixed offset after the
  // restart: on a slow CI machine the reconnect alone was seen to take longer than the
  // offset allowed (the window then held only the two shares, 0.6 R).
  const SETTLE_MS = PER_MS + 3 * 500;
  // Back within about 1 s of Redis answering: ioredis reconnects every 500 ms, and the next
  // probe (every 500 ms) carries the bot's held slots in. Measured 0.1-0.9 s in five runs at load
  // 12-17 on 2 cores; 10 s leaves room for the 1-4 s stalls of a bot measured at that load.
  // (It took 8-41 s while the probe sent fractions of a ms that Redis refused, see
  // own-slots.ts; a failure prints every budget line of each bot.)
  const BACK_WITHIN_MS = 10_000;
  const backDeadline = restartedAt + BACK_WITHIN_MS;
  const budgetLines = (): string =>
    bots
      .map(
        (bot, i) =>
          `bot ${i + 1}:\n` +
          bot.stdout
            .filter((l) => l.line.includes('rate budget'))
            .map((l) => `${l.at - restartBeganAt} ms from the restart: ${l.line}`)
            .join('\n'),
      )
      .join('\n');
  const backAt = (bot: QuantaProcess): number | undefined =>
    bot.stdout.find(
      (l) => l.at >= restartBeganAt && l.line.includes('shared rate budget reachable again'),
    )?.at;
  while (bots.slice(0, 2).some((bot) => backAt(bot) === undefined)) {
    if (Date.now() > backDeadline) {
      throw new Error(
        `the bots did not return to the shared budget in ${BACK_WITHIN_MS} ms (Redis restarted in ${restartedAt - restartBeganAt} ms)\n${budgetLines()}\n${describe()}`,
      );
    }
    await sleep(100);
  }
  const backTimes = bots.slice(0, 2).map((bot) => (backAt(bot) ?? Infinity) - restartedAt);
  const lastBack = Math.max(restartedAt, restartedAt + Math.max(...backTimes));
  const measureFrom = lastBack + SETTLE_MS + 500;
  await sleep(measureFrom + 2000 - Date.now());
  const back = admitted(venue, measureFrom, measureFrom + 2000) / 2 / R;
  console.info(
    `Redis back: the bots back ${backTimes.join(' and ')} ms after the restart; ${back.toFixed(3)} R from ${measureFrom - restartedAt} ms on`,
  );

  console.info(`whole run: ${Date.now() - bots[0]!.spawnedAt} ms from the first spawn`);
  const refused = venue.requestLog().filter((r) => r.limited);
  const limited = refused.length;
  // Where a 429 fell, relative to each phase's start, so a failure says which phase let it by.
  const phaseOf = (at: number): string =>
    at >= restartedAt
      ? `Redis back +${at - restartedAt} ms`
      : at >= stoppedAt
        ? `Redis down +${at - stoppedAt} ms`
        : at >= killedAt
          ? `after SIGKILL +${at - killedAt} ms`
          : `steady +${at - t0} ms`;
  expect(
    { limited },
    `429s at: ${refused.map((r) => `${phaseOf(r.at)} ${r.path}`).join('; ')}\n${describe()}`,
  ).toEqual({ limited: 0 });
  for (const ratio of perWindow) expect(ratio).toBeGreaterThanOrEqual(0.9);
  for (const orders of phase1Orders) expect(orders).toBeGreaterThan(STEADY_MS / 1000);
  // Taking the killed bot's share means the two reach about R; without it they would stay at
  // their two thirds (0.67 R). 0.8 tells the two apart with room for a loaded CI machine, where
  // two bots' own CPU (not the budget) was seen to hold them at 0.88 R in this window.
  expect(takeover).toBeGreaterThanOrEqual(0.8);
  // Each surviving bot trades, within its share in every second (its polls take part of it),
  // and the two together within their two shares.
  for (const [i, times] of fallbackOrders.entries()) {
    expect(times.length).toBeGreaterThan(0);
    expect(fallbackBusiestPerBot[i]).toBeLessThanOrEqual(share);
  }
  expect(fallbackBusiest).toBeLessThanOrEqual(2 * share);
  expect(fallbackRate).toBeGreaterThanOrEqual(2 * share * 0.75);
  // Back on the shared budget the two reach about R; left on their shares they would stay at
  // 2 × 6 / 20 = 0.6 R. 0.8 tells the two apart on a loaded CI machine, where two bots were
  // seen at 0.875 R here for the same reason as after the SIGKILL.
  expect(back).toBeGreaterThanOrEqual(0.8);
  for (const bot of bots.slice(0, 2)) {
    expect(logged(bot, 'shared rate budget unreachable')).toHaveLength(1);
    expect(logged(bot, 'shared rate budget reachable again')).toHaveLength(1);
    expect(logged(bot, 'shared rate budget: Redis is connected but the probe failed')).toEqual([]);
  }
}, 150_000);

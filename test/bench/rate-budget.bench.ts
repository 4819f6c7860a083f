/**
 * The rate budget (issues 15 and 17 item 6), measured in one run:
 *
 *   (a) achieved rate: the dispatcher under the bot's local budget (R = 20 per 1000 ms) sends a
 *       backlog of orders over HTTP to a paper venue that limits every request at 1.25 R, each
 *       attempt preceded by an fsynced write (as the journal's attempt mark); the venue's own
 *       request log gives the rate it admitted over 8 s of saturation (after the first second:
 *       R / the mean time a slot takes to come round) and the number of 429s.
 *       Goal: >= 0.97 R, no 429.
 *   (c) the same backlog split over three dispatchers, each with its own Redis budget sharing
 *       R (three bots' worth of budgets in one process, Redis on loopback). Goal: >= 0.9 R.
 *   (b) permit overhead with Redis on loopback: a shared budget (real redis-server, R large
 *       enough never to wait) takes and releases one permit per request, sequentially; the time
 *       from asking to holding the permit, p50 and p99, against the local budget's in the same
 *       rounds.
 *
 *   BENCH_ROUNDS (default 5), BENCH_PERMITS (per round, default 2000).
 */
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Dispatcher, type OrderSubmitter } from '../../src/execution/dispatcher.ts';
import { LocalRateBudget } from '../../src/execution/rate-budget/local-rate-budget.ts';
import type { RateBudget } from '../../src/execution/rate-budget/rate-budget.ts';
import { RedisRateBudget } from '../../src/execution/rate-budget/redis-rate-budget.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { startPaperVenue } from '../../src/paper/index.ts';
import { systemSleep as sleep } from '../../src/clock/timers.ts';
import { venueErrorFromStatus } from '../../src/venue/errors.ts';
import type { VenueOrder } from '../../src/venue/types.ts';
import { startRedisServer } from '../helpers/redis-server.ts';
import { reportFigure } from './figures.ts';
import { filledVenueOrder } from '../helpers/venue-order.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PERMITS = Number(process.env.BENCH_PERMITS ?? 2000);
const R = 20;
const PER_MS = 1000;
const SATURATED_MS = 8000;

const ORDER: VenueOrder = filledVenueOrder({ expiryTs: Number.MAX_SAFE_INTEGER });

/**
 * (a) and (c): one round of saturation by one dispatcher per budget (none given: one dispatcher
 * with its own local budget); resolves to achieved / R and the 429s the venue answered.
 */
async function achievedRound(
  dir: string,
  budgets: readonly RateBudget[] = [],
): Promise<{ ratio: number; limited: number }> {
  const venue = await startPaperVenue({ rateLimit: (R * 5) / 4, logRequests: true });
  const markFile = openSync(join(dir, 'attempts'), 'a');
  const submitter: OrderSubmitter = {
    async createOrder(_request, signal) {
      const res = await fetch(`${venue.url}/api/v1/market`, { signal });
      await res.arrayBuffer();
      if (res.status === 429) {
        throw venueErrorFromStatus({
          status: 429,
          endpoint: 'POST /api/v1/order',
          retryAfterMs: Number(res.headers.get('retry-after') ?? '1') * 1000,
        });
      }
      return ORDER;
    },
  };
  const dispatchers = (budgets.length === 0 ? [undefined] : budgets).map(
    (budget) =>
      new Dispatcher({
        submitter,
        ...(budget === undefined ? {} : { budget }),
        requests: R,
        perMs: PER_MS,
        concurrency: 4,
        maxAttempts: 3,
        now: Date.now,
        sleep,
        log: silentLogger,
        onAttempt: () => {
          writeSync(markFile, 'attempt\n');
          fsyncSync(markFile);
        },
      }),
  );
  const backlog = Math.ceil(((SATURATED_MS + 2 * PER_MS) / PER_MS) * R);
  const started = Date.now();
  const sends = dispatchers.flatMap((dispatcher, d) =>
    Array.from({ length: backlog }, (_, i) =>
      dispatcher.dispatch(
        d * backlog + i + 1,
        { body: `order-${d}-${i}`, signature: '0x', signer: '0x' },
        started + 120_000,
      ),
    ),
  );
  await sleep(PER_MS + SATURATED_MS + 200, new AbortController().signal);
  const log = venue.requestLog();
  const first = log[0]?.at ?? started;
  // Saturated, the R slots go round in bursts a little over perMs apart, so counting in a fixed
  // window rounds to whole rounds per slot. Instead: the k-th request and the (k + R)-th are the
  // same slot's consecutive uses; the mean of those gaps is the time a slot takes to come
  // round, and R per that time is the rate achieved.
  const times = log
    .filter((r) => !r.limited && r.at >= first + PER_MS && r.at < first + PER_MS + SATURATED_MS)
    .map((r) => r.at);
  let gapSum = 0;
  for (let k = 0; k + R < times.length; k++) gapSum += times[k + R]! - times[k]!;
  const rounds = Math.max(0, times.length - R);
  const ratio = rounds === 0 ? 0 : PER_MS / (gapSum / rounds);
  const limited = log.filter((r) => r.limited).length;
  for (const dispatcher of dispatchers) await dispatcher.drain(0);
  await Promise.allSettled(sends);
  closeSync(markFile);
  await venue.close();
  return { ratio, limited };
}

/** (b): ms from asking to holding a permit, per request, sequentially. */
async function permitTimes(budget: RateBudget, n: number): Promise<number[]> {
  const signal = new AbortController().signal;
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const permit = await budget.take('order', signal);
    times.push(performance.now() - t);
    permit.release();
  }
  return times;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const dir = mkdtempSync(join(tmpdir(), 'quanta-rate-bench-'));
const redis = await startRedisServer();
try {
  const achieved: number[] = [];
  const sharedAchieved: number[] = [];
  const limited: number[] = [];
  const redisP50: number[] = [];
  const redisP99: number[] = [];
  const localP50: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const a = await achievedRound(dir);
    achieved.push(a.ratio);
    limited.push(a.limited);

    const shares = await Promise.all(
      [1, 2, 3].map(() =>
        RedisRateBudget.open({
          url: redis.url,
          key: `quanta:rate:shared${round}`,
          requests: R,
          perMs: PER_MS,
          expectedProcesses: 3,
          now: Date.now,
          sleep,
          log: silentLogger,
        }),
      ),
    );
    const c = await achievedRound(dir, shares);
    if (shares.some((share) => share.status().fallbacks > 0)) throw new Error('a budget fell back');
    for (const share of shares) await share.close();
    sharedAchieved.push(c.ratio);
    limited.push(c.limited);

    const huge = 1_000_000_000;
    const shared = await RedisRateBudget.open({
      url: redis.url,
      key: `quanta:rate:bench${round}`,
      requests: huge,
      perMs: PER_MS,
      expectedProcesses: 1,
      now: Date.now,
      sleep,
      log: silentLogger,
    });
    const local = new LocalRateBudget({ requests: huge, perMs: PER_MS, now: Date.now, sleep });
    await permitTimes(shared, 200); // warm-up: script load, JIT
    const sharedTimes = await permitTimes(shared, PERMITS);
    const localTimes = await permitTimes(local, PERMITS);
    if (shared.status().mode !== 'shared') throw new Error('the Redis budget fell back');
    await shared.close();
    await local.close();
    redisP50.push(percentile(sharedTimes, 50));
    redisP99.push(percentile(sharedTimes, 99));
    localP50.push(percentile(localTimes, 50));
    console.log(
      `round ${round}: achieved ${a.ratio.toFixed(3)} R (local), ${c.ratio.toFixed(3)} R (3 shared), ` +
        `${a.limited + c.limited} 429s; permit p50 ` +
        `${redisP50.at(-1)!.toFixed(3)} ms p99 ${redisP99.at(-1)!.toFixed(3)} ms (Redis), ` +
        `p50 ${localP50.at(-1)!.toFixed(4)} ms (local)`,
    );
  }
  reportFigure({
    name: 'rate achieved / R (venue at 1.25 R)',
    measures: `a backlog of orders through one dispatcher under the local budget (R = ${R} per ${PER_MS} ms, an fsynced write before each attempt) to a paper venue limiting at 1.25 R, rate the venue admitted over ${SATURATED_MS / 1000} s of saturation`,
    baseline: 'R, the budget configured',
    goal: { atLeast: 0.97 },
    unit: 'x',
    rounds: achieved,
  });
  reportFigure({
    name: 'rate achieved / R, 3 budgets sharing R in Redis (venue at 1.25 R)',
    measures:
      'the same backlog split over three dispatchers, each with its own Redis budget sharing R (redis-server on loopback), rate the venue admitted',
    baseline: 'R, the budget the three share',
    goal: { atLeast: 0.9 },
    unit: 'x',
    rounds: sharedAchieved,
  });
  reportFigure({
    name: 'rate 429s (venue at 1.25 R)',
    measures: 'HTTP 429 answers of the venue in each saturation run above (two a round)',
    baseline: 'none (an absolute count)',
    goal: { atMost: 0 },
    unit: ' 429s',
    rounds: limited,
  });
  reportFigure({
    name: 'permit overhead p50, Redis on loopback',
    measures: `ms from asking a shared Redis budget (R large enough never to wait) for a permit to holding it, ${PERMITS} permits one after the other, p50`,
    baseline: "none (an absolute time; the local budget's is in its own row)",
    goal: { atMost: 0.5 },
    unit: 'ms',
    rounds: redisP50,
  });
  reportFigure({
    name: 'permit overhead p99, Redis on loopback',
    measures: 'the same permits, p99',
    baseline: 'none (an absolute time)',
    goal: { atMost: 2 },
    unit: 'ms',
    rounds: redisP99,
  });
  reportFigure({
    name: 'permit overhead p50, local budget',
    measures: `ms from asking the in-process budget for a permit to holding it, ${PERMITS} permits, p50`,
    baseline: 'none (an absolute time)',
    goal: { atMost: 0.05 },
    unit: 'ms',
    rounds: localP50,
  });
} finally {
  await redis.dispose();
  rmSync(dir, { recursive: true, force: true });
}

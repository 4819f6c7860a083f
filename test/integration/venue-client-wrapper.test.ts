/**
 * Issue 26: a new venue transport is one object implementing `VenueClient`
 * (src/venue/venue-client.ts). The wrapper below is written here alone: it records every call
 * and passes it on. A bot (to a paper venue over HTTP on port 0, on virtual time) and a backtest
 * (the simulation in-process) both run through it, and every registration, read, order and
 * lookup they make is seen by it, with results unchanged.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { computeMetrics } from '../../src/backtest/metrics.ts';
import { buildReport, serializeReport } from '../../src/backtest/report-json.ts';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import { loadConfig, parseConfig } from '../../src/config/index.ts';
import { startPaperVenue, type PaperVenue } from '../../src/paper/index.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { startBotWithParts } from '../../src/runtime/bot.ts';
import type { VenueClient } from '../../src/venue/venue-client.ts';
import { T0, WALLET_KEY } from './account/helpers.ts';
import { ROOT, strategyModule, WALLET_ENV } from './runtime/harness.ts';
import { pollDrivenSleep } from '../helpers/poll-driven-sleep.ts';

/** One call the wrapper saw: which, about what, and how it ended. */
interface Call {
  readonly call: keyof VenueClient;
  /** The order's venue id (answers of createOrder, questions of getOrder). */
  readonly orderId?: number;
  readonly outcome: 'ok' | 'failed';
}

/** A transport of its own: records every call on `calls`, then asks `inner`. */
function recordingClient(inner: VenueClient, calls: Call[]): VenueClient {
  const record = async <T>(
    call: keyof VenueClient,
    ask: () => Promise<T>,
    idOf: (answer: T) => number | undefined = () => undefined,
  ): Promise<T> => {
    try {
      const answer = await ask();
      const orderId = idOf(answer);
      calls.push({ call, ...(orderId === undefined ? {} : { orderId }), outcome: 'ok' });
      return answer;
    } catch (error) {
      calls.push({ call, outcome: 'failed' });
      throw error;
    }
  };
  return {
    listMarkets: (signal) => record('listMarkets', () => inner.listMarkets(signal)),
    getQuotes: (signal) => record('getQuotes', () => inner.getQuotes(signal)),
    createOrder: (request, signal) =>
      record(
        'createOrder',
        () => inner.createOrder(request, signal),
        (order) => order.id,
      ),
    getOrder: (venueOrderId, signal) =>
      record(
        'getOrder',
        () => inner.getOrder(venueOrderId, signal),
        (order) => order?.id,
      ),
    register: (brokerId, request, signal) =>
      record('register', () => inner.register(brokerId, request, signal)),
  };
}

const count = (calls: readonly Call[], call: keyof VenueClient): number =>
  calls.filter((c) => c.call === call).length;

let venue: PaperVenue | undefined;
let dir: string | undefined;
afterEach(async () => {
  await venue?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('a VenueClient written in a test file carries a whole bot and a whole backtest', () => {
  it('a bot over HTTP: its registration, listing, polls, orders and lookups all go through the wrapper', async () => {
    const clock = { now: T0 };
    venue = await startPaperVenue({ port: 0, seed: 5, clock: () => clock.now });
    dir = mkdtempSync(join(tmpdir(), 'quanta-venue-client-'));
    const yaml = stringify({
      venue: { writeUrl: venue.url, readUrl: venue.url },
      wallet: { privateKeyEnv: WALLET_ENV },
      state: { dir: join(dir, 'state') },
      poll: { intervalMs: 1000, quotes: true },
      risk: { maxOrderNotional: '100000', maxPositionNotional: '1000000', capital: '100000' },
      strategies: [
        {
          module: strategyModule('fixtures/scripted'),
          markets: ['ETH-USD'],
          params: {
            intents: [
              { symbol: 'ETH-USD', side: 'BUY', amount: '0.01', tag: 'taker' },
              // Far below the book: it rests, and is looked up after every poll.
              { symbol: 'ETH-USD', side: 'BUY', type: 'LIMIT', amount: '0.01', price: '100' },
            ],
          },
        },
      ],
    });
    const config = parseConfig(yaml, 'bot.yaml', dir);
    const calls: Call[] = [];
    const controller = new AbortController();
    const POLLS = 4;
    let polls = 0;
    const bot = await startBotWithParts({
      config,
      env: { [WALLET_ENV]: WALLET_KEY },
      log: silentLogger,
      projectRoot: ROOT,
      now: () => clock.now,
      monotonic: () => clock.now,
      sleep: pollDrivenSleep({
        clock,
        runSignal: controller.signal,
        pollIntervalMs: config.poll.intervalMs,
        onPoll: async () => {
          await bot.executor.settle();
          if (++polls >= POLLS) controller.abort();
        },
      }),
      venueClient: (http) => recordingClient(http, calls),
    });
    await bot.run(controller.signal);
    await bot.executor.settle();
    const rows = bot.journal.all();
    await bot.shutdown();

    // Its signing key was registered through the wrapper (account/credential-manager.ts), the
    // one registration the venue served.
    expect(count(calls, 'register')).toBe(1);
    expect(venue.requestCount('/api/v1/auth')).toBe(1);
    expect(calls.findIndex((c) => c.call === 'register')).toBeLessThan(
      calls.findIndex((c) => c.call === 'createOrder'),
    );
    // Every order request the venue served came through the wrapper, and nothing else did.
    expect(count(calls, 'createOrder')).toBe(2);
    expect(venue.requestCount('/api/v1/order')).toBe(2);
    expect(rows.map((row) => row.state).sort()).toEqual(['FILLED', 'OPEN']);
    const placed = calls.filter((c) => c.call === 'createOrder').map((c) => c.orderId);
    expect(rows.map((row) => row.venueOrderId).sort()).toEqual(placed.sort());
    // The resting order is looked up through the wrapper after the polls that follow it.
    const resting = rows.find((row) => row.state === 'OPEN')?.venueOrderId;
    expect(count(calls, 'getOrder')).toBeGreaterThan(0);
    expect(calls.filter((c) => c.call === 'getOrder').map((c) => c.orderId)).toEqual(
      Array.from({ length: count(calls, 'getOrder') }, () => resting),
    );
    expect(venue.requestCount(`/api/v1/order/${resting}`)).toBe(count(calls, 'getOrder'));
    // The first listing, then one listing and one quotes read per poll.
    expect(count(calls, 'listMarkets')).toBe(1 + POLLS);
    expect(count(calls, 'getQuotes')).toBe(POLLS);
    expect(venue.requestCount('/api/v1/market')).toBe(count(calls, 'listMarkets'));
    expect(calls.every((c) => c.outcome === 'ok')).toBe(true);
  }, 60_000);

  it('a backtest: every order goes through the wrapper and the report is byte for byte the same', async () => {
    const config = await loadConfig(join(ROOT, 'test/fixtures/configs/dca.yaml'));
    const data = join(ROOT, 'test/fixtures/recording');
    const backtest = async (wrap?: (simulated: VenueClient) => VenueClient) => {
      const trace = await runBacktest({
        config,
        data,
        projectRoot: ROOT,
        ...(wrap === undefined ? {} : { venueClient: wrap }),
      });
      return { trace, report: serializeReport(buildReport(trace, computeMetrics(trace))) };
    };
    const calls: Call[] = [];
    const wrapped = await backtest((simulated) => recordingClient(simulated, calls));
    const plain = await backtest();
    expect(wrapped.report).toBe(plain.report);
    // Every order that reached the venue, in the order it was placed, and its answer.
    const placed = plain.trace.orders.filter((order) => order.venueOrderId !== null);
    expect(placed.length).toBeGreaterThan(0);
    expect(calls.filter((c) => c.call === 'createOrder').map((c) => c.orderId)).toEqual(
      placed.map((order) => order.venueOrderId),
    );
  }, 60_000);
});

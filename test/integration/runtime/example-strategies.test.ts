/**
 * Done-when 1: orders from each shipped strategy land on the paper venue and are journaled with
 * their final state. A bot runs in-process (startBot) against a paper venue on port 0; after it
 * stops, the journal is read back from disk and compared with what the venue's engine holds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderRecord } from '../../../src/execution/order-record.ts';
import { formatX18 } from '../../../src/money/index.ts';
import { startPaperVenue, type PaperVenue } from '../../../src/paper/index.ts';
import { SimEngine } from '../../../src/sim/index.ts';
import {
  captureLogs,
  journalPath,
  readJournal,
  runBot,
  signedFilled,
  strategyModule,
  tempDir,
  waitFor,
  writeBotConfig,
  type RunningBot,
} from './harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

async function venueOf(options: Parameters<typeof startPaperVenue>[0]): Promise<PaperVenue> {
  const venue = await startPaperVenue(options);
  cleanups.push(() => venue.close());
  return venue;
}

async function botWith(
  venue: PaperVenue,
  strategy: { module: string; markets: string[]; params: object },
): Promise<{ running: RunningBot; dir: string }> {
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const path = await writeBotConfig(dir, { writeUrl: venue.url, strategies: [strategy] });
  const running = await runBot(path, captureLogs().log);
  cleanups.push(() => running.stop());
  return { running, dir };
}

const FINAL = new Set(['FILLED', 'CANCELLED', 'ACCEPTED', 'REJECTED', 'UNKNOWN']);

/** Waits until at least `n` orders are journaled and every journaled order is final. */
function settledRows(running: RunningBot, n: number): () => OrderRecord[] | undefined {
  return () => {
    const rows = running.bot.journal.all();
    return rows.length >= n && rows.every((r) => FINAL.has(r.state)) ? rows : undefined;
  };
}

/** Each row FILLED with a venue id, and the venue holds the same order, filled the same. */
function expectFilledOnVenue(rows: OrderRecord[], venue: PaperVenue, accountId: string): void {
  for (const row of rows) {
    expect(row, `order ${row.id}`).toMatchObject({ state: 'FILLED', attempts: 1, error: null });
    expect(row.venueOrderId).toEqual(expect.any(Number));
    expect(row.filledX18).toBe(row.amountX18);
    const onVenue = venue.engine.getOrder(accountId, row.venueOrderId ?? -1);
    expect(onVenue, `venue order ${row.venueOrderId}`).toMatchObject({
      status: 'FILLED',
      marketId: row.marketId,
      side: row.side,
      type: row.type,
      amountX18: row.amountX18,
      totalFilledX18: row.amountX18,
      isReduce: row.reduceOnly,
    });
    // The journal keeps the venue's own average fill price (docs/conventions.md §6), not an estimate.
    expect(row.avgFillPriceX18).toBe(onVenue?.avgFillPriceX18);
    expect(row.fillPriceEstimated).toBe(false);
  }
  // Every order request created exactly one journaled order: nothing sent twice, nothing extra.
  expect(new Set(rows.map((r) => r.venueOrderId)).size).toBe(rows.length);
}

describe('example strategies against the paper venue', () => {
  it('dca: buys quoteAmount of ETH-USD every N snapshots; every order FILLED on both sides', async () => {
    const venue = await venueOf({ port: 0, seed: 3 });
    const { running, dir } = await botWith(venue, {
      module: strategyModule('dca'),
      markets: ['ETH-USD'],
      params: { quoteAmount: '100', everySnapshots: 2 },
    });
    await waitFor('three settled dca orders', settledRows(running, 3));
    const summary = await running.stop();

    const rows = readJournal(journalPath(dir));
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.every((r) => r.strategy === 'dca' && r.tag === 'dca' && r.side === 'BUY')).toBe(
      true,
    );
    expectFilledOnVenue(rows, venue, running.accountId);
    expect(venue.requestCount('/api/v1/order')).toBe(rows.length);
    const bought = rows.reduce((sum, r) => sum + r.filledX18, 0n);
    expect(venue.engine.position(running.accountId, 1).amountX18).toBe(bought);
    expect(summary.stats.ordersByState).toEqual({ FILLED: rows.length });
    expect(summary.drained).toBe(true);
  });

  it('new-listing: buys the minimum once when a market turns active', async () => {
    const venue = await venueOf({ port: 0, seed: 4 });
    const sol = venue.engine.market(5);
    if (sol === undefined) throw new Error('paper venue has no SOL-USD');
    venue.engine.setMarketActive(sol.id, false);
    const { running, dir } = await botWith(venue, {
      module: strategyModule('new-listing'),
      markets: ['SOL-USD'],
      params: {},
    });
    // The strategy must first see the market inactive, or it would not be "new".
    await waitFor('three snapshots with SOL-USD inactive', () => running.snapshots.length >= 3);
    expect(venue.requestCount('/api/v1/order')).toBe(0);
    venue.engine.setMarketActive(sol.id, true);
    await waitFor('the listing buy', settledRows(running, 1));
    // More snapshots with the market active: no second buy (it is no longer new).
    const seen = running.snapshots.length;
    await waitFor('three more snapshots', () => running.snapshots.length >= seen + 3);
    await running.stop();

    const rows = readJournal(journalPath(dir));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      strategy: 'new-listing',
      tag: 'new-listing',
      marketId: sol.id,
      side: 'BUY',
      type: 'MARKET',
      amountX18: sol.minAmountX18,
    });
    expectFilledOnVenue(rows, venue, running.accountId);
    expect(venue.engine.position(running.accountId, sol.id).amountX18).toBe(sol.minAmountX18);
  });

  it('mean-reversion: trades the z-score of a volatile BTC-USD within its cap; positions agree', async () => {
    // A fast, jumpy price walk (a step every 50 ms) so a 3-snapshot window trades within a second.
    let engine: SimEngine | undefined;
    const venue = await venueOf({
      port: 0,
      engine: (engine = new SimEngine({
        clock: Date.now,
        seed: 11,
        stepMs: 50,
        volatilityBps: 30,
      })),
    });
    const { running, dir } = await botWith(venue, {
      module: strategyModule('mean-reversion'),
      markets: ['BTC-USD'],
      params: { window: 3, entryZ: 1, exitZ: 0.3, orderAmount: '0.001', maxPosition: '0.002' },
    });
    await waitFor('four settled mean-reversion orders', settledRows(running, 4));
    const summary = await running.stop();

    const rows = readJournal(journalPath(dir));
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(rows.every((r) => r.strategy === 'mean-reversion' && r.marketId === 3)).toBe(true);
    expectFilledOnVenue(rows, venue, running.accountId);
    // The cap held at every step, and the venue's position is the journal's sum of fills.
    let position = 0n;
    for (const row of rows) {
      position += signedFilled(row);
      expect(position <= 2_000_000_000_000_000n && position >= -2_000_000_000_000_000n).toBe(true);
    }
    expect(engine.position(running.accountId, 3).amountX18).toBe(position);
    const btc = summary.positions.find((p) => p.symbol === 'BTC-USD');
    expect(btc?.amount).toBe(formatX18(position));
  });
});

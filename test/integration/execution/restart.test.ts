/**
 * Issue 11 defects around a restart, reproduced with the real executor, the on-disk journal and
 * the simulation engine the paper venue serves (in-process, as backtests use it):
 * - the daily loss limit must survive a restart (its baseline used to be re-taken at the
 *   first submit after `recover()`, forgiving the day's loss);
 * - recovered fills must carry the fees charged when they happened (a maker fill used to be
 *   re-charged as taker after a restart, and as free when the first listing failed);
 * - issue 25: the expiry floor recovered from the journal stays within now + the TTL (a run
 *   whose clock was 5 days ahead made every later run sign expiries 5 days out).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keccak256, toHex } from 'viem';
import { afterEach, expect, it } from 'vitest';
import { simVenueClient } from '../../../src/backtest/sim-venue.ts';
import { serialDispatcher } from '../../helpers/serial-dispatcher.ts';
import { Executor } from '../../../src/execution/executor.ts';
import { nextExpiryTs } from '../../../src/execution/expiry-floor.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { riskLimitsOf } from '../../../src/execution/pre-trade/risk-limits.ts';
import { createLogger, silentLogger, type Logger } from '../../../src/log/logger.ts';
import { Writable } from 'node:stream';
import { createSnapshot, type Snapshot } from '../../../src/market/snapshot.ts';
import { SimEngine, DEFAULT_SIM_MARKETS } from '../../../src/sim/index.ts';

const ACCOUNT = 'acct-1';
const ETH = DEFAULT_SIM_MARKETS.find((m) => m.symbol === 'ETH-USD');
// SOL-USD charges makers 2 bp and takers 5 bp: a maker fill re-priced as taker shows.
const SOL = DEFAULT_SIM_MARKETS.find((m) => m.symbol === 'SOL-USD');
if (ETH === undefined || SOL === undefined)
  throw new Error('ETH-USD and SOL-USD are paper markets');

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

/** One "process": a journal opened at `path` and an executor over the shared engine. */
function start(
  path: string,
  engine: SimEngine,
  clock: { now: number },
  dailyLossLimit?: string,
  listed = engine.listMarkets(),
  log: Logger = silentLogger,
) {
  const journal = OrderJournal.open(path);
  const now = () => clock.now;
  const venue = simVenueClient(engine, ACCOUNT);
  const dispatcher = serialDispatcher({
    submitter: venue,
    now,
    log: silentLogger,
    onAttempt: (id) => journal.markAttempt(id, now()),
  });
  const executor = new Executor({
    journal,
    dispatcher,
    // Unique, deterministic stand-in signatures: the engine does not verify them.
    signer: {
      sign: (body) =>
        Promise.resolve({ signature: keccak256(toHex(JSON.stringify(body))), signer: '0x01' }),
    },
    limits: riskLimitsOf({
      maxOrderNotional: '100000',
      maxPositionNotional: '100000',
      ...(dailyLossLimit === undefined ? {} : { dailyLossLimit }),
    }),
    killSwitchOn: () => false,
    capitalX18: 100_000n * 10n ** 18n, // the sim engine's starting balance
    now,
    log,
    orderTtlMs: 60_000,
    lookupOrder: venue.getOrder,
  });
  executor.recover(listed);
  return { journal, executor };
}

async function setup() {
  const dir = await mkdtemp(join(tmpdir(), 'quanta-restart-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const clock = { now: Date.UTC(2026, 10, 23, 12) };
  const engine = new SimEngine({ clock: () => clock.now, markets: DEFAULT_SIM_MARKETS, seed: 7 });
  const snapshot = (seq: number): Snapshot =>
    createSnapshot({
      seq,
      takenAt: clock.now,
      markets: engine.listMarkets(),
      quotes: engine.quotes(),
    });
  return { path: join(dir, 'journal.sqlite'), engine, clock, snapshot };
}

const market = (side: 'BUY' | 'SELL', extra: object = {}, marketId = ETH.id) => ({
  marketId,
  side,
  type: 'MARKET' as const,
  amount: '0.1',
  ...extra,
});

/**
 * A round trip at the spread plus two taker fees (snapshots 1 and 2): a loss above 0.01 USD, the
 * limit the daily-loss tests set.
 */
async function loseAboveTheLimit(executor: Executor, snapshot: (seq: number) => Snapshot) {
  expect((await executor.submit('s', market('BUY'), snapshot(1))).kind).toBe('sent');
  await executor.settle();
  expect((await executor.submit('s', market('SELL', { reduceOnly: true }), snapshot(2))).kind).toBe(
    'sent',
  );
  await executor.settle();
}

/** Why a buy at snapshot `seq` is refused, or false when it is not. */
async function refusal(
  executor: Executor,
  snapshot: (seq: number) => Snapshot,
  seq: number,
): Promise<string | false> {
  const outcome = await executor.submit('s', market('BUY'), snapshot(seq));
  return outcome.kind === 'refused' && outcome.refusal.reason;
}

it('the daily loss limit still holds after a restart the same day', async () => {
  const { path, engine, clock, snapshot } = await setup();
  const first = start(path, engine, clock, '0.01');
  await loseAboveTheLimit(first.executor, snapshot);
  expect(first.executor.positions.realizedNetX18()).toBeLessThan(-(10n ** 16n));
  const refusedBefore = await first.executor.submit('s', market('BUY'), snapshot(3));
  expect(refusedBefore.kind === 'refused' && refusedBefore.refusal.reason).toBe('DAILY_LOSS_LIMIT');
  first.journal.close();

  clock.now += 60_000; // a minute later, the same UTC day
  const second = start(path, engine, clock, '0.01');
  const after = await second.executor.submit('s', market('BUY'), snapshot(4));
  expect(after.kind === 'refused' && after.refusal.reason).toBe('DAILY_LOSS_LIMIT');
  await second.executor.settle();
  second.journal.close();

  // The next UTC day starts from a new baseline: trading resumes.
  clock.now = Date.UTC(2026, 10, 24, 0, 1);
  const third = start(path, engine, clock, '0.01');
  expect((await third.executor.submit('s', market('BUY'), snapshot(5))).kind).toBe('sent');
  await third.executor.settle();
  third.journal.close();
});

it("a wall clock stepped back across midnight forgives none of the day's loss, running or restarted", async () => {
  const { path, engine, clock, snapshot } = await setup();
  clock.now = Date.UTC(2026, 10, 24, 0, 2); // two minutes into a UTC day
  const first = start(path, engine, clock, '0.01');
  await loseAboveTheLimit(first.executor, snapshot);
  expect(await refusal(first.executor, snapshot, 3)).toBe('DAILY_LOSS_LIMIT');
  // The host's clock is stepped back three minutes (before midnight), then forward again.
  clock.now = Date.UTC(2026, 10, 23, 23, 59);
  expect(await refusal(first.executor, snapshot, 4)).toBe('DAILY_LOSS_LIMIT');
  clock.now = Date.UTC(2026, 10, 24, 0, 3);
  expect(await refusal(first.executor, snapshot, 5)).toBe('DAILY_LOSS_LIMIT');
  first.journal.close();

  // A restart on a clock still behind, across midnight: the journal's later day holds.
  clock.now = Date.UTC(2026, 10, 23, 23, 58);
  const second = start(path, engine, clock, '0.01');
  expect(await refusal(second.executor, snapshot, 6)).toBe('DAILY_LOSS_LIMIT');
  await second.executor.settle();
  second.journal.close();
});

it('a day stored by a run whose clock was days ahead: today counts its loss, and tomorrow is a new day', async () => {
  const { path, engine, clock, snapshot } = await setup();
  clock.now = Date.UTC(2026, 10, 29, 0, 2); // the host clock five days ahead
  const first = start(path, engine, clock, '0.01');
  await loseAboveTheLimit(first.executor, snapshot);
  expect(await refusal(first.executor, snapshot, 3)).toBe('DAILY_LOSS_LIMIT');
  first.journal.close();

  clock.now = Date.UTC(2026, 10, 24, 0, 10); // fixed: the loss is today's
  const second = start(path, engine, clock, '0.01');
  expect(await refusal(second.executor, snapshot, 4)).toBe('DAILY_LOSS_LIMIT');
  await second.executor.settle();
  second.journal.close();

  clock.now = Date.UTC(2026, 10, 25, 0, 1); // not frozen until the 29th: a new day
  const third = start(path, engine, clock, '0.01');
  expect((await third.executor.submit('s', market('BUY'), snapshot(5))).kind).toBe('sent');
  await third.executor.settle();
  third.journal.close();
});

it('a running bot whose clock jumped days ahead and back does not hold that day: the next real day is a new one', async () => {
  const { path, engine, clock, snapshot } = await setup();
  const bot = start(path, engine, clock, '0.01');
  const noon = clock.now; // 2026-11-23 12:00
  clock.now = Date.UTC(2026, 10, 28, 12); // five days ahead for a moment
  await loseAboveTheLimit(bot.executor, snapshot);
  expect(await refusal(bot.executor, snapshot, 3)).toBe('DAILY_LOSS_LIMIT');
  clock.now = noon + 60_000; // back: today again, the loss still counted
  expect(await refusal(bot.executor, snapshot, 4)).toBe('DAILY_LOSS_LIMIT');
  clock.now = Date.UTC(2026, 10, 24, 0, 1); // the next real day: not held until the 28th
  expect(await refusal(bot.executor, snapshot, 5)).toBe(false);
  await bot.executor.settle();
  bot.journal.close();
});

it('a journal with both stored forms (a version rolled back and forward) counts from the later day', async () => {
  const { path, engine, clock, snapshot } = await setup();
  const earlier = OrderJournal.open(path);
  // This version's value for yesterday; the older version's two keys for today, 1 USD above.
  earlier.kvSet('quanta:risk', 'dayBaseline', `${Date.UTC(2026, 10, 22)} 0`);
  earlier.kvSet('quanta:risk', 'day', String(Date.UTC(2026, 10, 23)));
  earlier.kvSet('quanta:risk', 'realizedAtDayStartX18', String(10n ** 18n));
  earlier.close();
  const bot = start(path, engine, clock, '0.01');
  expect(await refusal(bot.executor, snapshot, 1)).toBe('DAILY_LOSS_LIMIT');
  bot.journal.close();
});

it('the day and its baseline are one stored value (one write)', async () => {
  const { path, engine, clock, snapshot } = await setup();
  const first = start(path, engine, clock, '0.01');
  expect((await first.executor.submit('s', market('BUY'), snapshot(1))).kind).toBe('sent');
  await first.executor.settle();
  const day = Date.UTC(2026, 10, 23);
  expect(first.journal.kvList('quanta:risk')).toEqual([{ key: 'dayBaseline', value: `${day} 0` }]);
  first.journal.close();
});

it('reads the day and baseline a journal of an earlier version holds under two keys', async () => {
  const { path, engine, clock, snapshot } = await setup();
  // Nothing realized yet, a baseline 1 USD above: a loss of 1 USD today, beyond the limit.
  const earlier = OrderJournal.open(path);
  earlier.kvSet('quanta:risk', 'day', String(Date.UTC(2026, 10, 23)));
  earlier.kvSet('quanta:risk', 'realizedAtDayStartX18', String(10n ** 18n));
  earlier.close();
  const bot = start(path, engine, clock, '0.01');
  const outcome = await bot.executor.submit('s', market('BUY'), snapshot(1));
  expect(outcome.kind === 'refused' && outcome.refusal.reason).toBe('DAILY_LOSS_LIMIT');
  bot.journal.close();
});

it('a restart books recovered fills at the fees charged when they happened (maker stays maker)', async () => {
  const { path, engine, clock, snapshot } = await setup();
  const first = start(path, engine, clock);
  // A LIMIT buy at the bid rests; then the book moves through it and it fills as maker.
  const bid = engine.quotes(SOL.id)[0]?.bids[0]?.price;
  if (bid === undefined) throw new Error('no bid');
  const limit = await first.executor.submit(
    's',
    market('BUY', { type: 'LIMIT', price: bid, amount: '1' }, SOL.id),
    snapshot(1),
  );
  expect(limit.kind).toBe('sent');
  await first.executor.settle();
  expect(first.journal.all()[0]?.state).toBe('OPEN');
  engine.setExternalQuotes([
    {
      marketId: SOL.id,
      timestamp: clock.now,
      bids: [{ price: '1', quantity: '1000' }],
      asks: [{ price: '2', quantity: '1000' }],
    },
  ]);
  clock.now += 1000;
  await first.executor.refreshOpenOrders();
  const booked = first.executor.positions.get(SOL.id);
  expect(booked.amountX18).toBe(10n ** 18n);
  // 2 bp of the notional, rounded up: the maker rate.
  const notionalX18 = (booked.avgEntryPriceX18 * 10n ** 18n) / 10n ** 18n;
  expect(booked.feesX18).toBe((notionalX18 * 2n * 10n ** 14n + 10n ** 18n - 1n) / 10n ** 18n);
  first.journal.close();

  const second = start(path, engine, clock);
  expect(second.executor.positions.get(SOL.id).feesX18).toBe(booked.feesX18);
  expect(second.executor.positions.realizedNetX18()).toBe(-booked.feesX18);
  second.journal.close();

  // Without a market listing at hand the recorded fee still holds (it used to be booked as 0).
  const third = start(path, engine, clock, undefined, []);
  expect(third.executor.positions.get(SOL.id).feesX18).toBe(booked.feesX18);
  third.journal.close();
});

it('a run whose clock was 5 days ahead does not push later runs’ expiries 5 days out (issue 25)', async () => {
  const { path, engine, clock, snapshot } = await setup();
  const DAY_MS = 86_400_000;
  // The first run's host clock is 5 days ahead of the venue's (the engine keeps the true time):
  // its order expires then + the TTL.
  const aheadClock = { now: clock.now + 5 * DAY_MS };
  const ahead = start(path, engine, aheadClock);
  const first = await ahead.executor.submit('s', market('BUY'), snapshot(1));
  expect(first.kind === 'sent' && first.record.expiryTs).toBe(aheadClock.now + 60_000);
  await ahead.executor.settle();
  ahead.journal.close();

  // The next run at the true time signs its orders at now + the TTL, strictly increasing, and
  // says which journaled order it does not follow.
  const warnings: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      warnings.push(chunk.toString());
      done();
    },
  });
  const later = start(path, engine, clock, undefined, undefined, createLogger({ destination }));
  expect(warnings.join('')).toContain(
    `1 journaled orders were written after this clock's now and expire beyond now + execution.orderTtlMs (a run whose clock was ahead wrote them, e.g. order 1 created ${new Date(aheadClock.now).toISOString()})`,
  );
  const signed = [];
  for (const seq of [2, 3]) {
    const outcome = await later.executor.submit('s', market('BUY'), snapshot(seq));
    if (outcome.kind !== 'sent') throw new Error(`refused: ${outcome.refusal.detail}`);
    signed.push(outcome.record.expiryTs);
  }
  expect(signed).toEqual([clock.now + 60_000, clock.now + 60_001]);
  await later.executor.settle();
  later.journal.close();
});

it('a new order never takes the expiry of a journaled order beyond the floor', () => {
  expect(nextExpiryTs(100, 99, new Set([100, 101, 103]))).toBe(102);
  expect(nextExpiryTs(100, 150, new Set([151]))).toBe(152);
  expect(nextExpiryTs(100, 50, new Set())).toBe(100);
});

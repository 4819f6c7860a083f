/**
 * I3's daily loss half (src/simulation/daily-loss.ts): once the day's loss has reached the
 * limit the bot sends only reducing orders, and from flat none reduces; the check reads the day's
 * loss from the journal as a restarted bot reads it (its fills and the stored baseline), kept up
 * to date from the writes it is told of.
 */
import { afterEach, expect, it } from 'vitest';
import { RISK_SCOPE } from '../../../src/execution/executor.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import type { OrderRecord } from '../../../src/execution/order-record.ts';
import {
  checkDailyLoss,
  DayBaselines,
  flatDayLoss,
  pastLimit,
} from '../../../src/simulation/daily-loss.ts';
import { ViolationLog } from '../../../src/simulation/invariants.ts';
import { SIM_MIXES } from '../../../src/simulation/sim-mix.ts';
import { Trace } from '../../../src/simulation/trace.ts';
import { newOrder } from '../../helpers/journal-orders.ts';

const X18 = 10n ** 18n;
/** The default mix's limit, in quote units. */
const DAILY_LOSS_LIMIT = SIM_MIXES.default.dailyLossLimit;
const fresh = (): DayBaselines => new DayBaselines(DAILY_LOSS_LIMIT);
const DAY = Date.UTC(2026, 0, 1);
const journals: OrderJournal[] = [];
afterEach(() => {
  for (const journal of journals.splice(0)) journal.close();
});

function opened(baselineX18 = 0n): OrderJournal {
  const journal = OrderJournal.open(':memory:');
  journals.push(journal);
  journal.kvSet(RISK_SCOPE, 'dayBaseline', `${DAY} ${baselineX18}`);
  return journal;
}

/** Journals an order of 1 ETH-USD and fills it whole at `price` with `fee` (quote units). */
function filled(
  journal: OrderJournal,
  side: 'BUY' | 'SELL',
  price: bigint,
  fee: bigint,
  tell: (method: string, result: unknown) => void = () => undefined,
): void {
  const [row] = journal.insertPendingMany(
    [newOrder(`0x${side}${price}`, { side, amountX18: X18 })],
    1000,
  );
  tell('insertPendingMany', [row]);
  journal.markAttempt(row!.id, 1001);
  const done = journal.recordOutcome(
    row!.id,
    {
      state: 'FILLED',
      filledX18: X18,
      avgFillPriceX18: price * X18,
      feesX18: fee * X18,
      venueOrderId: row!.id,
    },
    1002,
  );
  tell('recordOutcome', done);
}

it('reads the loss only when the fills leave no position: realized net of fees since the baseline', () => {
  const journal = opened();
  filled(journal, 'BUY', 3000n, 1n);
  expect(flatDayLoss(journal, fresh())).toBeUndefined();
  filled(journal, 'SELL', 2900n, 1n);
  expect(flatDayLoss(journal, fresh())).toEqual({ lossX18: 102n * X18, day: DAY });
  // A baseline taken after a loss of 30 counts only what came after it.
  const later = opened(-30n * X18);
  filled(later, 'BUY', 3000n, 1n);
  filled(later, 'SELL', 2900n, 1n);
  expect(flatDayLoss(later, fresh())?.lossX18).toBe(72n * X18);
});

it('holds the limit exactly, less what rounding explains', () => {
  const at = (lossX18: bigint) => pastLimit({ lossX18, day: DAY }, DAILY_LOSS_LIMIT * X18);
  expect(at(DAILY_LOSS_LIMIT * X18 - 1n)).toBe(false);
  expect(at(DAILY_LOSS_LIMIT * X18 + 10n ** 9n)).toBe(true);
  expect(pastLimit(undefined, DAILY_LOSS_LIMIT * X18)).toBe(false);
});

function violations(): ViolationLog {
  return new ViolationLog(1, new Trace(), () => 0);
}

it('reports an order journaled flat past the limit, not one before it, nor one while a position is open', () => {
  for (const [sellAt, broken] of [
    [3000n - DAILY_LOSS_LIMIT - 1n, ['dailyLoss']],
    [3000n - DAILY_LOSS_LIMIT + 5n, []],
  ] as const) {
    const journal = opened();
    const log = violations();
    const tell = (method: string, result: unknown): void =>
      checkDailyLoss(method, result, journal, fresh(), log);
    filled(journal, 'BUY', 3000n, 1n, tell);
    filled(journal, 'SELL', sellAt, 1n, tell);
    expect(log.list).toEqual([]);
    // The next order: past the limit from flat, it must not have been journaled.
    const [next] = journal.insertPendingMany([newOrder('0xnext')], 1003);
    tell('insertPendingMany', [next]);
    expect(log.list.map((v) => v.invariant)).toEqual(broken);
  }
  // Past the limit, but long 1: a SELL would reduce, and a BUY's fate needs the marks.
  const journal = opened(DAILY_LOSS_LIMIT * 2n * X18);
  const log = violations();
  filled(journal, 'BUY', 3000n, 1n);
  const [next] = journal.insertPendingMany([newOrder('0xnext')], 1003);
  checkDailyLoss('insertPendingMany', [next], journal, fresh(), log);
  expect(log.list).toEqual([]);
});

it('keeps its sums from the writes it is told of, as a fresh read of every row gives them', () => {
  const journal = opened();
  const log = violations();
  const tell = (method: string, result: unknown): void =>
    checkDailyLoss(method, result, journal, fresh(), log);
  const prices = [3000n, 3012n, 2990n, 2987n, 3020n, 2999n];
  prices.forEach((price, i) => filled(journal, i % 2 === 0 ? 'BUY' : 'SELL', price, 2n, tell));
  // A partial fill, then the rest: the row changes twice.
  const [row] = journal.insertPendingMany([newOrder('0xpart', { amountX18: X18 })], 1000);
  tell('insertPendingMany', [row]);
  journal.markAttempt(row!.id, 1001);
  const half: OrderRecord = journal.recordOutcome(
    row!.id,
    {
      state: 'PARTIALLY_FILLED',
      filledX18: X18 / 2n,
      avgFillPriceX18: 2000n * X18,
      feesX18: X18,
      venueOrderId: 99,
    },
    1002,
  );
  tell('recordOutcome', half);
  expect(flatDayLoss(journal, fresh())).toBeUndefined();
  // The other half at 2100, and one SELL: flat, and the figures are those of every row read anew.
  const whole = journal.recordOutcome(
    row!.id,
    {
      state: 'FILLED',
      filledX18: X18,
      avgFillPriceX18: 2050n * X18,
      feesX18: 2n * X18,
      venueOrderId: 99,
    },
    1003,
  );
  tell('recordOutcome', whole);
  filled(journal, 'SELL', 1900n, 0n, tell);
  // BUYs 3000+2990+3020+2050, SELLs 3012+2987+2999+1900, fees 2*6+2.
  expect(flatDayLoss(journal, fresh())?.lossX18).toBe((11060n - 10898n + 14n) * X18);
  expect(log.list.map((v) => v.invariant)).toEqual([]);
  const [next] = journal.insertPendingMany([newOrder('0xnext')], 1004);
  tell('insertPendingMany', [next]);
  expect(log.list.map((v) => v.invariant)).toEqual(['dailyLoss']);
});

it("reports a day's baseline stored lower than before (a restart that forgot the day's loss), and counts from the higher", () => {
  const days = fresh();
  const log = violations();
  const first = opened();
  const tell = (journal: OrderJournal) => (method: string, result: unknown) =>
    checkDailyLoss(method, result, journal, days, log);
  filled(first, 'BUY', 3000n, 1n, tell(first));
  filled(first, 'SELL', 2950n, 1n, tell(first));
  first.kvSet(RISK_SCOPE, 'dayBaseline', `${DAY} 0`);
  tell(first)('kvSet', undefined);
  expect(log.list).toEqual([]);
  // The next process, on the same rows: its day's baseline taken again, after the loss of 52.
  first.kvSet(RISK_SCOPE, 'dayBaseline', `${DAY} ${-52n * X18}`);
  tell(first)('kvSet', undefined);
  expect(log.list.map((v) => v.detail)).toEqual([
    `the bot stored ${-52n * X18} as the baseline of day 2026-01-01, which was 0 (x18): the loss made since forgiven`,
  ]);
  // Flat, the loss counts from the day's first baseline: 52, not 0.
  expect(flatDayLoss(first, days)?.lossX18).toBe(52n * X18);
});

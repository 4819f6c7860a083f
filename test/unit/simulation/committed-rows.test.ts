/**
 * I5 at a restart (src/simulation/committed-rows.ts): what the journal held, committed, when its
 * process was killed is there when it is opened again. It used to check that each row was there
 * and that a final row kept its state; a final row's fill, fee or venue id, a row in flight losing
 * its fills or venue id, the daily loss baseline and the protective exits were not compared.
 */
import { afterEach, expect, it } from 'vitest';
import { RISK_SCOPE } from '../../../src/execution/executor.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import type { OrderRecord } from '../../../src/execution/order-record.ts';
import {
  checkCommittedRows,
  committedJournal,
  type CommittedJournal,
} from '../../../src/simulation/committed-rows.ts';
import { ViolationLog } from '../../../src/simulation/invariants.ts';
import { Trace } from '../../../src/simulation/trace.ts';
import { newOrder } from '../../helpers/journal-orders.ts';

const journals: OrderJournal[] = [];
afterEach(() => {
  for (const journal of journals.splice(0)) journal.close();
});

/** A journal with a filled order (1), one resting after a partial fill (2), a baseline, an exit. */
function journal(): OrderJournal {
  const opened = OrderJournal.open(':memory:');
  journals.push(opened);
  const [filled, resting] = opened.insertPendingMany([newOrder('0x01'), newOrder('0x02')], 1000);
  for (const row of [filled!, resting!]) opened.markAttempt(row.id, 1001);
  opened.recordOutcome(
    filled!.id,
    {
      state: 'FILLED',
      filledX18: filled!.amountX18,
      avgFillPriceX18: 3n,
      feesX18: 1n,
      venueOrderId: 7,
    },
    1002,
  );
  opened.recordOutcome(
    resting!.id,
    { state: 'PARTIALLY_FILLED', filledX18: 5n, avgFillPriceX18: 3n, feesX18: 1n, venueOrderId: 8 },
    1002,
  );
  opened.kvSet(RISK_SCOPE, 'dayBaseline', '1767139200000 0');
  opened.exitSet('dca', 1, '{"stop":"2900"}');
  return opened;
}

function check(before: CommittedJournal, after: OrderJournal): string[] {
  const violations = new ViolationLog(1, new Trace(), () => 0);
  checkCommittedRows(before, after, violations);
  return violations.list.map((v) => `${v.invariant}: ${v.detail}`);
}

function withRow(
  before: CommittedJournal,
  id: number,
  change: Partial<OrderRecord>,
): CommittedJournal {
  const rows = new Map(before.rows);
  rows.set(id, { ...rows.get(id)!, ...change });
  return { ...before, rows };
}

it('finds nothing when the journal holds what was committed', () => {
  const opened = journal();
  expect(check(committedJournal(opened), opened)).toEqual([]);
});

it('reports a row lost, a final row changed, and a row in flight that lost fills or its venue id', () => {
  const opened = journal();
  const before = committedJournal(opened);
  const lost = new Map(before.rows).set(9, { ...before.rows.get(1)!, id: 9 });
  expect(check({ ...before, rows: lost }, opened)).toEqual([
    'durable: journal row 9 (FILLED) lost across the restart',
  ]);
  expect(check(withRow(before, 1, { feesX18: 2n }), opened)[0]).toMatch(
    /^durable: journal row 1 was FILLED .* fees 2 .*\(final\) and is FILLED .* fees 1 /,
  );
  expect(check(withRow(before, 2, { filledX18: 6n }), opened)[0]).toMatch(
    /^durable: journal row 2 had filled 6 with venue id 8 and has 5 with 8 after the restart$/,
  );
  expect(check(withRow(before, 2, { venueOrderId: 4 }), opened)).toHaveLength(1);
});

it('reports a daily loss baseline that changed', () => {
  const opened = journal();
  const before = committedJournal(opened);
  opened.kvSet(RISK_SCOPE, 'dayBaseline', '1767225600000 0');
  expect(check(before, opened)).toEqual([
    expect.stringMatching(
      /^durable: the daily loss baseline was .*1767139200000.* and is .*1767225600000.* after the restart$/,
    ),
  ]);
});

it('reports a protective exit that changed', () => {
  const opened = journal();
  const before = committedJournal(opened);
  opened.exitDelete('dca', 1);
  expect(check(before, opened)).toEqual([
    expect.stringMatching(
      /^durable: the protective exits were .*2900.* and are \[\] after the restart$/,
    ),
  ]);
});

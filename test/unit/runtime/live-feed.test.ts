/**
 * The live page's feed and PnL curve (issue 30): nothing is built while no page is open, pushes
 * are spaced by the injected clock (a mode change goes at once), and the realized PnL curve is
 * read from the journal file, so a restarted bot draws the same curve.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { createLogger } from '../../../src/log/logger.ts';
import { LiveFeed } from '../../../src/runtime/control/live-feed.ts';
import { realizedPnlHistory } from '../../../src/runtime/control/pnl-history.ts';
import { newOrder, writeJournal } from '../../helpers/journal-orders.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const freshDir = tempDirs('quanta-pnl-history-');

it('builds nothing without a page, spaces pushes by the clock, sends a mode change at once', () => {
  let now = 1_000;
  let builds = 0;
  const build = (): unknown => ({ n: (builds += 1) });
  const feed = new LiveFeed({
    now: () => now,
    minIntervalMs: 250,
    log: createLogger({ level: 'silent' }),
  });
  feed.push(build);
  expect(builds).toBe(0);

  const seen: string[] = [];
  const leave = feed.subscribe((event, data) => seen.push(`${event} ${data}`), [['history', []]]);
  expect(seen).toEqual(['history []']);
  feed.push(build);
  now += 100;
  feed.push(build);
  expect(seen).toEqual(['history []', 'status {"n":1}']);
  feed.push(build, 'now');
  now += 250;
  feed.push(build);
  expect(seen).toEqual(['history []', 'status {"n":1}', 'status {"n":2}', 'status {"n":3}']);
  leave();
  leave();
  expect(feed.watching).toBe(0);
  now += 1_000;
  feed.push(build);
  expect(builds).toBe(3);
});

it('draws the realized PnL curve from the journal file, the same after a restart', () => {
  const path = join(freshDir(), 'journal.sqlite');
  writeJournal(path, 2);
  // A sell at 3100 of one of the two buys at 3000: realized 0.01 × 100 = 1, less fees.
  const journal = OrderJournal.open(path);
  const [sell] = journal.insertPendingMany(
    [newOrder(`0x${'f'.repeat(130)}`, { side: 'SELL' })],
    1_795_435_300_000,
  );
  if (sell === undefined) throw new Error('not journaled');
  journal.markAttempt(sell.id, 1_795_435_300_001);
  journal.recordOutcome(
    sell.id,
    {
      state: 'FILLED',
      filledX18: sell.amountX18,
      avgFillPriceX18: 3100n * 10n ** 18n,
      feesX18: 0n,
    },
    1_795_435_300_002,
  );
  const before = realizedPnlHistory(journal.all());
  journal.close();
  expect(before.map((point) => point.realizedNet)).toEqual(['-0.015', '-0.03', '0.97']);
  expect(before[2]?.at).toBe(1_795_435_300_002);

  const reopened = OrderJournal.openReadOnly(path);
  try {
    expect(realizedPnlHistory(reopened.all())).toEqual(before);
    expect(realizedPnlHistory(reopened.all(), 2)).toEqual(before.slice(1));
  } finally {
    reopened.close();
  }
});

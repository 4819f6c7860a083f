import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readJournalOrders } from '../../../src/backtest/compare.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { newOrder } from '../../helpers/journal-orders.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('readJournalOrders (quanta compare)', () => {
  it('reads a running bot’s journal without settling its in-flight order', () => {
    dir = mkdtempSync(join(tmpdir(), 'quanta-compare-journal-'));
    const path = join(dir, 'journal.sqlite');
    const bot = OrderJournal.open(path, { bootId: 'this-boot' });
    // The bot's order, journaled with its attempt counted, about to leave.
    const { id } = bot.insertPending(newOrder('0x01'), 1000);
    expect(readJournalOrders(path).map((o) => [o.id, o.state])).toEqual([[id, 'PENDING']]);
    // The file still says the attempt may have been made: a crash now recovers it as maybe sent.
    bot.close();
    const after = OrderJournal.open(path, { bootId: 'next-boot' });
    expect(after.get(id)).toMatchObject({ state: 'SENT', attempts: 1 });
    after.close();
  });
});

/**
 * Protective exits (issue 27): a stop fires on the first snapshot whose closing price crosses
 * it, a trailing stop follows the best price, nothing is sent when flat, and exits kept in the
 * journal are read back by the next process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ExitBook } from '../../../src/execution/exits/exit-book.ts';
import { evaluateExit } from '../../../src/execution/exits/exit-rules.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { createSnapshot } from '../../../src/market/snapshot.ts';
import { parseDecimalToX18 as x18 } from '../../../src/money/index.ts';
import { testMarket } from '../../helpers/markets.ts';

const fresh = { openedAt: null, bestX18: null };
const long = (bid: string, now = 0) => ({
  amountX18: x18('2'),
  entryPriceX18: x18('100'),
  closingPriceX18: x18(bid),
  now,
});

describe('evaluateExit', () => {
  it('fires a stop on the first price at or through it, not before', () => {
    const prices = ['99', '98.6', '98.51', '98.5', '97'];
    const reasons = prices.map(
      (bid) => evaluateExit({ stopLoss: '1.5%' }, fresh, long(bid)).reason,
    );
    expect(reasons).toEqual([undefined, undefined, undefined, 'stop-loss', 'stop-loss']);
    // A short's stop is above its entry, against the ask.
    const short = { amountX18: -1n, entryPriceX18: x18('100'), now: 0 };
    expect(
      evaluateExit({ stopLoss: '101' }, fresh, { ...short, closingPriceX18: x18('100.99') }).reason,
    ).toBeUndefined();
    expect(
      evaluateExit({ stopLoss: '101' }, fresh, { ...short, closingPriceX18: x18('101') }).reason,
    ).toBe('stop-loss');
  });

  it('a trailing stop follows the best price and fires on the fall back from it', () => {
    let progress: { openedAt: number | null; bestX18: bigint | null } = fresh;
    const seen: (string | undefined)[] = [];
    for (const bid of ['100', '104', '110', '107', '106', '104.5']) {
      const step = evaluateExit({ trailingStop: '5%' }, progress, long(bid));
      progress = step.progress;
      seen.push(step.reason);
    }
    // Best 110: the stop is 104.5; 107 and 106 hold, 104.5 fires.
    expect(progress.bestX18).toBe(x18('110'));
    expect(seen).toEqual([undefined, undefined, undefined, undefined, undefined, 'trailing-stop']);
  });

  it('takes profit at its level and closes after the time limit from the first sighting', () => {
    expect(evaluateExit({ takeProfit: '3%' }, fresh, long('102.99')).reason).toBeUndefined();
    expect(evaluateExit({ takeProfit: '3%' }, fresh, long('103')).reason).toBe('take-profit');
    const first = evaluateExit({ timeLimitMs: 1000 }, fresh, long('100', 5000));
    expect(first.progress.openedAt).toBe(5000);
    expect(
      evaluateExit({ timeLimitMs: 1000 }, first.progress, long('100', 5999)).reason,
    ).toBeUndefined();
    expect(evaluateExit({ timeLimitMs: 1000 }, first.progress, long('100', 6000)).reason).toBe(
      'time-limit',
    );
  });
});

const eth = testMarket();
const snapshotAt = (seq: number, bid: string, ask: string) =>
  createSnapshot({
    seq,
    takenAt: seq * 1000,
    markets: [eth],
    quotes: [
      {
        marketId: 1,
        timestamp: 0,
        bids: [{ price: bid, quantity: '5' }],
        asks: [{ price: ask, quantity: '5' }],
      },
    ],
  });

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('ExitBook', () => {
  it('sends nothing when flat, closes the whole position reduce-only, and survives a reopen', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quanta-exits-'));
    dirs.push(dir);
    const path = join(dir, 'journal.sqlite');
    const position = { amountX18: 0n, avgEntryPriceX18: 0n };
    const book = (journal: OrderJournal) =>
      new ExitBook({
        store: journal,
        positionOf: () => position,
        exitPending: () => false,
        now: () => 0,
        log: silentLogger,
      });
    const first = OrderJournal.open(path, { bootId: null });
    const exits = book(first);
    exits.set('s', 1, { stopLoss: '95', trailingStop: '10' });
    // Flat: the exit waits, whatever the price.
    expect(exits.intents(snapshotAt(1, '90', '91'))).toEqual([]);
    position.amountX18 = x18('0.5');
    position.avgEntryPriceX18 = x18('100');
    expect(exits.intents(snapshotAt(2, '120', '121'))).toEqual([]);
    first.close();

    // The next process reads the exit and its best price (120) back: 110 is the trailing stop.
    const second = OrderJournal.open(path, { bootId: null });
    const again = book(second);
    expect(again.get('s', 1)).toEqual({ stopLoss: '95', trailingStop: '10' });
    expect(again.intents(snapshotAt(3, '110.5', '111'))).toEqual([]);
    expect(again.intents(snapshotAt(4, '110', '111'))).toEqual([
      {
        strategy: 's',
        intent: {
          marketId: 1,
          side: 'SELL',
          type: 'MARKET',
          amount: '0.5',
          reduceOnly: true,
          tag: 'exit:trailing-stop',
        },
      },
    ]);
    // Flat again after the close: the exit ends and is removed from the journal.
    position.amountX18 = 0n;
    expect(again.intents(snapshotAt(5, '100', '101'))).toEqual([]);
    expect(again.get('s', 1)).toBeUndefined();
    expect(second.exitsAll()).toEqual([]);
    second.close();
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IllegalOrderTransition } from '../../../src/domain/index.ts';
import { OrderJournal, type NewOrder } from '../../../src/execution/journal.ts';

const order = (signature: string): NewOrder => ({
  strategy: 'dca',
  tag: 'dca',
  marketId: 1,
  symbol: 'ETH-USD',
  side: 'BUY',
  type: 'MARKET',
  amountX18: 10n ** 16n,
  priceX18: 0n,
  reduceOnly: false,
  body: '{"marketId":1}',
  signature,
  signer: '0xabc',
  expiryTs: 2000,
  referencePriceX18: 3000n * 10n ** 18n,
});

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('OrderJournal', () => {
  it('keeps an order from PENDING through SENT to its outcome, across a reopen', () => {
    dir = mkdtempSync(join(tmpdir(), 'quanta-journal-'));
    const path = join(dir, 'journal.sqlite');
    const journal = OrderJournal.open(path);
    const pending = journal.insertPending(order('0x01'), 1000);
    expect(pending).toMatchObject({
      id: 1,
      state: 'PENDING',
      attempts: 0,
      filledX18: 0n,
      body: '{"marketId":1}',
    });
    journal.markAttempt(pending.id, 1001);
    journal.markAttempt(pending.id, 1002);
    expect(journal.get(pending.id)).toMatchObject({ state: 'SENT', attempts: 2 });
    journal.kvSet('dca', 'k', 'v');
    journal.close();

    const reopened = OrderJournal.open(path);
    expect(reopened.inStates(['PENDING', 'SENT']).map((r) => r.id)).toEqual([1]);
    const done = reopened.recordOutcome(
      1,
      {
        state: 'FILLED',
        venueOrderId: 7,
        filledX18: 10n ** 16n,
        avgFillPriceX18: 3001n * 10n ** 18n,
      },
      1003,
    );
    expect(done).toMatchObject({
      state: 'FILLED',
      venueOrderId: 7,
      attempts: 2,
      referencePriceX18: 3000n * 10n ** 18n,
    });
    expect(reopened.kvGet('dca', 'k')).toBe('v');
    expect(reopened.kvGet('other', 'k')).toBeUndefined();
    reopened.close();
  });

  it('refuses the same signature twice (the same signed bytes are one order)', () => {
    const journal = OrderJournal.open(':memory:');
    journal.insertPending(order('0x02'), 1);
    expect(() => journal.insertPending(order('0x02'), 2)).toThrow(/UNIQUE/);
    expect(() => journal.get(99)).toThrow('order 99 is not in the journal');
    journal.close();
  });

  it('moves states only as the state machine allows, and writes nothing when it refuses', () => {
    const journal = OrderJournal.open(':memory:');
    const { id } = journal.insertPending(order('0x03'), 1);
    // Never sent, so the venue cannot have filled it.
    expect(() => journal.recordOutcome(id, { state: 'FILLED', filledX18: 5n }, 2)).toThrow(
      'illegal order transition: PENDING → FILLED on "filled"',
    );
    expect(journal.get(id)).toMatchObject({ state: 'PENDING', filledX18: 0n, updatedAt: 1 });

    journal.markAttempt(id, 3);
    // Expiry after a send is not EXPIRED: the attempt may have landed.
    const proposal = (): unknown => journal.recordOutcome(id, { state: 'EXPIRED' }, 4);
    expect(proposal).toThrow(IllegalOrderTransition);
    expect(proposal).toThrow('illegal order transition: SENT → EXPIRED on "expired"');
    expect(
      journal.recordOutcome(id, { event: 'expired', error: 'expired unconfirmed' }, 5),
    ).toMatchObject({
      state: 'UNKNOWN',
      error: 'expired unconfirmed',
      attempts: 1,
    });
    expect(() => journal.markAttempt(id, 6)).toThrow(
      'illegal order transition: UNKNOWN → SENT on "sent"',
    );
    expect(journal.get(id)).toMatchObject({ state: 'UNKNOWN', attempts: 1, updatedAt: 5 });
    journal.close();
  });

  it('follows a resting order through partial fills by events', () => {
    const journal = OrderJournal.open(':memory:');
    const { id } = journal.insertPending(order('0x04'), 1);
    journal.markAttempt(id, 2);
    journal.recordOutcome(id, { event: 'opened', venueOrderId: 9 }, 3);
    journal.recordOutcome(id, { event: 'partiallyFilled', filledX18: 1n }, 4);
    journal.recordOutcome(id, { state: 'PARTIALLY_FILLED', filledX18: 2n }, 5);
    expect(journal.inStates(['OPEN', 'PARTIALLY_FILLED']).map((r) => r.filledX18)).toEqual([2n]);
    expect(() => journal.recordOutcome(id, { event: 'opened' }, 6)).toThrow(
      'illegal order transition: PARTIALLY_FILLED → OPEN on "opened"',
    );
    expect(journal.recordOutcome(id, { event: 'filled', filledX18: 10n ** 16n }, 7)).toMatchObject({
      state: 'FILLED',
      venueOrderId: 9,
      filledX18: 10n ** 16n,
    });
    journal.close();
  });
});

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { newOrder } from '../../helpers/journal-orders.ts';
import { manualTimer } from '../../helpers/manual-timer.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('OrderJournal idleCheckpointCommits', () => {
  it('checkpoints at a quiet tick only once the WAL holds that many commits; the ticks run as without it', () => {
    dir = mkdtempSync(join(tmpdir(), 'quanta-journal-'));
    const path = join(dir, 'journal.sqlite');
    const tick = manualTimer();
    const journal = OrderJournal.open(path, {
      startTimer: tick.start,
      now: () => 5000,
      idleCheckpointCommits: 4,
    });
    const before = statSync(path).size;
    const write = (i: number): void => {
      journal.insertPending(
        { ...newOrder(`0x${i.toString(16)}`), body: JSON.stringify({ pad: 'x'.repeat(8000) }) },
        1000 + i,
      );
    };
    // Three commits, then a whole quiet tick: too few for a checkpoint, and no tick left armed.
    for (let i = 0; i < 3; i++) write(i);
    tick.fireAll();
    expect(tick.armed()).toEqual([100]);
    tick.fireAll();
    expect(tick.armed()).toEqual([]);
    expect(statSync(path).size).toBe(before);
    expect(journal.kvGet('quanta:journal', 'walRestartedAt')).toBeUndefined();
    // A fourth commit arms the tick again, as the first did; the quiet after it checkpoints.
    write(3);
    expect(tick.armed()).toEqual([100]);
    tick.fireAll();
    expect(tick.armed()).toEqual([100]);
    tick.fireAll();
    expect(tick.armed()).toEqual([]);
    expect(statSync(path).size).toBeGreaterThan(before + 4 * 8000);
    expect(journal.kvGet('quanta:journal', 'walRestartedAt')).toBe('5000');
    journal.close();
    const reopened = OrderJournal.open(path);
    expect(reopened.inStates(['PENDING'])).toHaveLength(4);
    reopened.close();
  });
});

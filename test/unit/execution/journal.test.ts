import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  IllegalOrderTransition,
  OPEN_ORDER_STATES,
  UNRESOLVED_STATES,
} from '../../../src/domain/index.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { preallocateJournalWal } from '../../../src/execution/journal-wal-space.ts';
import type { OrderRecord } from '../../../src/execution/order-record.ts';
import { recoverJournal } from '../../../src/execution/recovery.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { newOrder } from '../../helpers/journal-orders.ts';
import { manualTimer } from '../../helpers/manual-timer.ts';

const order = newOrder;

const JOURNAL = fileURLToPath(new URL('../../../src/execution/journal.ts', import.meta.url));

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('OrderJournal', () => {
  it('checkpoints the WAL itself when quiet for a tick, not inside a commit (SQLite autocheckpoint off)', () => {
    dir = mkdtempSync(join(tmpdir(), 'quanta-journal-'));
    const path = join(dir, 'journal.sqlite');
    const tick = manualTimer();
    const journal = OrderJournal.open(path, { startTimer: tick.start, now: () => 5000 });
    const before = statSync(path).size;
    // An idle journal starts no timer.
    expect(tick.armed()).toEqual([]);
    // ~1500 pages in the WAL: SQLite's default (1000) would have checkpointed inside a commit.
    // (600 commits: below the journal's own bound, which checkpoints after an answer.)
    const write = (i: number): void => {
      const { id } = journal.insertPending(
        { ...order(`0x${i.toString(16)}`), body: JSON.stringify({ pad: 'x'.repeat(8000) }) },
        1000 + i,
      );
      journal.markAttempt(id, 1000 + i);
    };
    for (let i = 0; i < 300; i++) write(i);
    // One quiet tick armed by the commits, however many.
    expect(tick.armed()).toEqual([100]);
    expect(statSync(path).size).toBe(before);
    // The tick saw commits: it looks again a tick later, no checkpoint yet.
    tick.fireAll();
    expect(tick.armed()).toEqual([100]);
    expect(statSync(path).size).toBe(before);
    // A commit during that tick puts the checkpoint off once more.
    write(300);
    tick.fireAll();
    expect(tick.armed()).toEqual([100]);
    expect(statSync(path).size).toBe(before);
    // A whole tick without a commit: the journal copies the WAL into the file, and stops ticking.
    tick.fireAll();
    expect(statSync(path).size).toBeGreaterThan(before + 300 * 8000);
    expect(tick.armed()).toEqual([]);
    // The WAL restart row after the checkpoint is stamped with the injected clock.
    expect(journal.kvGet('quanta:journal', 'walRestartedAt')).toBe('5000');
    journal.close();
    const reopened = OrderJournal.open(path);
    expect(reopened.inStates(['SENT'])).toHaveLength(301);
    reopened.close();
  });

  it('writes its WAL’s space at open (commits then write inside the file), and a crash copy of it recovers every commit', () => {
    dir = mkdtempSync(join(tmpdir(), 'quanta-journal-'));
    const path = join(dir, 'journal.sqlite');
    const walBytes = (file: string): number => statSync(`${file}-wal`).size;
    const journal = OrderJournal.open(path);
    const preallocated = walBytes(path);
    expect(preallocated).toBeGreaterThanOrEqual(16 * 1024 * 1024);
    for (let i = 0; i < 40; i++) {
      const { id } = journal.insertPending(order(`0x${(i + 1).toString(16)}`), 1000 + i);
      journal.markAttempt(id, 1000 + i);
      if (i % 2 === 0)
        journal.recordOutcome(id, { event: 'filled', filledX18: 10n ** 16n }, 1000 + i);
    }
    // The commits wrote inside the preallocated file: it did not grow.
    expect(walBytes(path)).toBe(preallocated);
    // Extending a WAL that holds frames leaves them alone.
    expect(preallocateJournalWal(`${path}-wal`, preallocated + 4096)).toBe(4096);
    // A crash now: the file and its WAL as they are, never closed (the zeros follow the frames).
    const crashed = join(dir, 'crashed.sqlite');
    copyFileSync(path, crashed);
    copyFileSync(`${path}-wal`, `${crashed}-wal`);
    const recovered = OrderJournal.open(crashed, { bootId: null });
    expect(recovered.inStates(['FILLED'])).toHaveLength(20);
    expect(recovered.inStates(['SENT'])).toHaveLength(20);
    recovered.close();
    journal.close();
    // SQLite removes the WAL at a clean close; the next open writes its space again.
    const reopened = OrderJournal.open(path);
    expect(walBytes(path)).toBeGreaterThanOrEqual(16 * 1024 * 1024);
    expect(reopened.inStates(['FILLED', 'SENT'])).toHaveLength(40);
    reopened.close();
  });

  it('refuses to open on a disk without room for its WAL, saying so, the WAL left at its size', () => {
    dir = mkdtempSync(join(tmpdir(), 'quanta-journal-'));
    // A file-size limit of 8 MB (and SIGXFSZ ignored): writes past it fail as on a full disk.
    const script = [
      `process.on('SIGXFSZ', () => {});`,
      `const { OrderJournal } = await import(${JSON.stringify(JOURNAL)});`,
      `const { statSync } = await import('node:fs');`,
      `const path = ${JSON.stringify(join(dir, 'journal.sqlite'))};`,
      `try { OrderJournal.open(path); console.log('opened'); }`,
      `catch (error) { console.log(JSON.stringify({ code: error.code, message: error.message, details: error.details, cause: error.cause?.code, wal: statSync(path + '-wal', { throwIfNoEntry: false })?.size ?? null })); }`,
    ].join('\n');
    const child = spawnSync(
      'bash',
      [
        '-c',
        'ulimit -f 8192 && exec "$0" --conditions=quanta-source --import tsx --input-type=module -e "$1"',
        process.execPath,
        script,
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(child.stderr).toBe('');
    const refused = JSON.parse(child.stdout) as Record<string, unknown>;
    expect(refused).toMatchObject({
      code: 'QUANTA_JOURNAL',
      cause: 'EFBIG',
      details: ['Free disk space where state.dir is: the journal needs it before the first order.'],
    });
    expect(refused['message']).toMatch(
      /^cannot write the 16 MB of the order journal's WAL at .*journal\.sqlite-wal/,
    );
    // SQLite removed the WAL when the refused journal closed; nothing half grown is left.
    expect(refused['wal']).toBeNull();
  });

  it('leaves a missing WAL to SQLite and a long enough one as it is', () => {
    dir = mkdtempSync(join(tmpdir(), 'quanta-journal-'));
    expect(preallocateJournalWal(join(dir, 'none.sqlite-wal'), 4096)).toBe(0);
    expect(existsSync(join(dir, 'none.sqlite-wal'))).toBe(false);
    writeFileSync(join(dir, 'long.sqlite-wal'), Buffer.alloc(8192, 1));
    expect(preallocateJournalWal(join(dir, 'long.sqlite-wal'), 4096)).toBe(0);
    expect(readFileSync(join(dir, 'long.sqlite-wal'))).toEqual(Buffer.alloc(8192, 1));
  });

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

  /** A journal left by a crash: one order sent, one journaled and never sent. */
  function crashedJournal(bootId: string) {
    dir = mkdtempSync(join(tmpdir(), 'quanta-journal-'));
    const path = join(dir, 'journal.sqlite');
    const journal = OrderJournal.open(path, { bootId });
    const sent = journal.insertPending(order('0x10'), 1000);
    const unsent = journal.insertPending(order('0x11'), 1000);
    // The writer knows no attempt was made yet; the file already says one may be.
    expect(sent.attempts).toBe(0);
    const reader = OrderJournal.openReadOnly(path);
    expect(reader.get(sent.id)).toMatchObject({ state: 'PENDING', attempts: 1 });
    journal.markAttempt(sent.id, 1001);
    expect(journal.get(sent.id)).toMatchObject({ state: 'SENT', attempts: 1 });
    expect(reader.get(sent.id)).toMatchObject({ state: 'SENT', attempts: 1 });
    expect(reader.get(unsent.id)).toMatchObject({ state: 'PENDING', attempts: 1 });
    reader.close();
    // No close(): the process dies here.
    return { path, sent: sent.id, unsent: unsent.id };
  }

  function recovered(journal: OrderJournal): [number, string][] {
    const finished: [number, string][] = [];
    recoverJournal(
      journal.all(),
      5000,
      {
        bookRecordedFills: () => undefined,
        resend: () => undefined,
        finish: (record, outcome) => {
          journal.recordOutcome(record.id, outcome, 5000);
          finished.push([record.id, outcome.state]);
        },
      },
      silentLogger,
    );
    return finished;
  }

  it('counts the first attempt with the PENDING row; on the same boot a crash leaves it unsent', () => {
    const { path, sent, unsent } = crashedJournal('boot-1');
    // Same boot: the SENT written before every attempt is in the file, so PENDING is unsent.
    const reopened = OrderJournal.open(path, { bootId: 'boot-1' });
    expect(reopened.get(unsent)).toMatchObject({ state: 'PENDING', attempts: 0 });
    expect(recovered(reopened)).toEqual([
      [sent, 'UNKNOWN'],
      [unsent, 'EXPIRED'],
    ]);
    reopened.close();
  });

  it('after a restart of the machine a PENDING row that counts an attempt may have left: SENT, for good', () => {
    const { path, sent, unsent } = crashedJournal('boot-1');
    // A power loss may have taken back the SENT: the row may have been sent.
    const afterReboot = OrderJournal.open(path, { bootId: 'boot-2' });
    expect(afterReboot.get(unsent)).toMatchObject({ state: 'SENT', attempts: 1 });
    afterReboot.close();
    // A later run on the new boot does not take it for unsent (nor does one that cannot tell).
    for (const bootId of ['boot-2', null]) {
      const later = OrderJournal.open(path, { bootId });
      expect(later.get(unsent)).toMatchObject({ state: 'SENT', attempts: 1 });
      later.close();
    }
    const last = OrderJournal.open(path, { bootId: 'boot-2' });
    expect(recovered(last)).toEqual([
      [sent, 'UNKNOWN'],
      [unsent, 'UNKNOWN'],
    ]);
    last.close();
  });

  it('gives the counted attempt back when the order ends unsent, or is stopped before it left', () => {
    dir = mkdtempSync(join(tmpdir(), 'quanta-journal-'));
    const path = join(dir, 'journal.sqlite');
    const journal = OrderJournal.open(path);
    const reader = OrderJournal.openReadOnly(path);
    const expired = journal.insertPending(order('0x20'), 1);
    const stopped = journal.insertPending(order('0x21'), 1);
    const resent = journal.insertPending(order('0x22'), 1);
    expect(journal.recordOutcome(expired.id, { event: 'expired' }, 2)).toMatchObject({
      state: 'EXPIRED',
      attempts: 0,
    });
    expect(reader.get(expired.id)).toMatchObject({ state: 'EXPIRED', attempts: 0 });
    journal.releaseUnsentAttempt(stopped.id);
    expect(reader.get(stopped.id)).toMatchObject({ state: 'PENDING', attempts: 0 });
    // An order with an attempt made keeps it.
    journal.markAttempt(resent.id, 3);
    journal.releaseUnsentAttempt(resent.id);
    journal.markAttempt(resent.id, 4);
    expect(reader.get(resent.id)).toMatchObject({ state: 'SENT', attempts: 2 });
    journal.close();
    // The row given back is known unsent after a restart, on any boot: EXPIRED, never sent.
    const reopened = OrderJournal.open(path, { bootId: 'another boot' });
    const finished: [number, string][] = [];
    recoverJournal(
      reopened.all(),
      5000,
      {
        bookRecordedFills: () => undefined,
        resend: () => undefined,
        finish: (record, outcome) => finished.push([record.id, outcome.state]),
      },
      silentLogger,
    );
    expect(finished).toEqual([
      [stopped.id, 'EXPIRED'],
      [resent.id, 'UNKNOWN'],
    ]);
    // A resend of a row with no attempt in the file counts it (and fsyncs) before it leaves.
    reopened.markAttempt(stopped.id, 6);
    expect(reader.get(stopped.id)).toMatchObject({ state: 'SENT', attempts: 1 });
    reopened.close();
    reader.close();
  });

  it('journals the orders of one batch together: all of them, or none', () => {
    const journal = OrderJournal.open(':memory:');
    const records = journal.insertPendingMany([order('0x30'), order('0x31')], 7);
    expect(records.map((r) => [r.id, r.signature, r.state])).toEqual([
      [1, '0x30', 'PENDING'],
      [2, '0x31', 'PENDING'],
    ]);
    expect(() => journal.insertPendingMany([order('0x32'), order('0x30')], 8)).toThrow(/UNIQUE/);
    expect(journal.all().map((r) => r.signature)).toEqual(['0x30', '0x31']);
    expect(journal.insertPendingMany([], 9)).toEqual([]);
    journal.close();
  });

  it('journals in memory as the file does: a batch with a signature seen before writes nothing', () => {
    const journal = OrderJournal.inMemory();
    journal.insertPending(order('0x40'), 1);
    expect(() => journal.insertPending(order('0x40'), 2)).toThrow(/UNIQUE/);
    expect(() => journal.insertPendingMany([order('0x41'), order('0x41')], 3)).toThrow(/UNIQUE/);
    expect(() => journal.insertPendingMany([order('0x42'), order('0x40')], 4)).toThrow(/UNIQUE/);
    expect(journal.all().map((r) => r.signature)).toEqual(['0x40']);
    expect(journal.insertPendingMany([order('0x41'), order('0x42')], 5).map((r) => r.id)).toEqual([
      2, 3,
    ]);
    journal.close();
  });

  it('answers from memory exactly what the file holds, through every kind of change', () => {
    dir = mkdtempSync(join(tmpdir(), 'quanta-journal-'));
    const path = join(dir, 'journal.sqlite');
    const journal = OrderJournal.open(path);
    const reader = OrderJournal.openReadOnly(path);
    const compare = (): void => {
      for (const states of [
        OPEN_ORDER_STATES,
        UNRESOLVED_STATES,
        ['OPEN', 'PARTIALLY_FILLED'] as const,
      ])
        expect(journal.inStates(states)).toEqual(
          reader.inStates(states).map((r) => ({ ...r, attempts: journal.get(r.id).attempts })),
        );
      for (const record of reader.all()) {
        const mine = journal.get(record.id);
        // Only a row never sent differs: the file counts its first attempt ahead.
        expect(mine).toEqual({
          ...record,
          attempts: record.state === 'PENDING' && mine.attempts === 0 ? 0 : record.attempts,
        });
      }
    };
    const ids = journal
      .insertPendingMany([order('0x40'), order('0x41'), order('0x42'), order('0x43')], 1)
      .map((r) => r.id);
    const [a = 0, b = 0, c = 0, d = 0] = ids;
    compare();
    journal.markAttempt(a, 2);
    journal.markAttempt(b, 2);
    journal.markAttempt(c, 2);
    compare();
    journal.recordOutcome(a, { event: 'opened', venueOrderId: 5 }, 3);
    journal.recordOutcome(b, { event: 'landed', error: 'seen' }, 3);
    journal.recordOutcome(
      c,
      { state: 'FILLED', filledX18: 9n, avgFillPriceX18: 2n, feesX18: 1n },
      3,
    );
    compare();
    journal.recordOutcome(
      a,
      { event: 'partiallyFilled', filledX18: 1n, fillPriceEstimated: true },
      4,
    );
    journal.recordOutcome(b, { event: 'filled', filledX18: 3n, venueOrderId: 6 }, 4);
    journal.recordOutcome(d, { event: 'rejected', error: 'never sent' }, 4);
    compare();
    expect(journal.inStates(['PARTIALLY_FILLED']).map((r) => r.id)).toEqual([a]);
    expect(journal.inStates(['FILLED']).map((r) => r.id)).toEqual([b, c]);
    journal.close();
    const reopened = OrderJournal.open(path);
    expect(reopened.inStates(OPEN_ORDER_STATES)).toEqual(reader.inStates(OPEN_ORDER_STATES));
    reopened.close();
    reader.close();
  });
});

describe('OrderJournal.inMemory (backtests)', () => {
  // Every answer of the in-memory rows against SQLite's, after each step of the same history.
  it('answers what a journal on SQLite answers, through every kind of change', () => {
    const sql = OrderJournal.open(':memory:');
    const memory = OrderJournal.inMemory();
    const both = <T>(act: (journal: OrderJournal) => T): T => {
      const expected = act(sql);
      const actual = act(memory);
      expect(actual).toEqual(expected);
      return actual;
    };
    // A PENDING row in SQLite counts the attempt it is about to make; in memory it says 0.
    const fileView = (records: OrderRecord[]): OrderRecord[] =>
      records.map((r) => (r.state === 'PENDING' && r.attempts === 0 ? { ...r, attempts: 1 } : r));
    const compare = (): void => {
      expect(fileView(memory.all())).toEqual(sql.all());
      for (const limit of [-1, 0, 1, 3, 99])
        expect(fileView(memory.latest(limit))).toEqual(sql.latest(limit));
      expect(memory.countByState()).toEqual(sql.countByState());
      for (const states of [
        OPEN_ORDER_STATES,
        UNRESOLVED_STATES,
        ['FILLED', 'REJECTED'] as const,
        ['PENDING', 'FILLED'] as const,
      ])
        expect(fileView(memory.inStates(states))).toEqual(fileView(sql.inStates(states)));
      for (const { id } of sql.all()) expect(memory.get(id)).toEqual(sql.get(id));
    };
    const [a = 0, b = 0, c = 0, d = 0] = both((j) =>
      j.insertPendingMany([order('0x50'), order('0x51'), order('0x52'), order('0x53')], 1),
    ).map((r) => r.id);
    const e = both((j) => j.insertPending(order('0x54'), 1)).id;
    compare();
    for (const id of [a, b, c, e]) both((j) => j.markAttempt(id, 2));
    compare();
    both((j) => j.recordOutcome(a, { event: 'opened', venueOrderId: 5 }, 3));
    both((j) => j.recordOutcome(b, { event: 'landed', error: 'seen' }, 3));
    both((j) =>
      j.recordOutcome(c, { state: 'FILLED', filledX18: 9n, avgFillPriceX18: 2n, feesX18: 1n }, 3),
    );
    both((j) => j.markAttempt(e, 3));
    compare();
    both((j) =>
      j.recordOutcome(a, { event: 'partiallyFilled', filledX18: 1n, fillPriceEstimated: true }, 4),
    );
    both((j) => j.recordOutcome(b, { event: 'filled', filledX18: 3n, venueOrderId: 6 }, 4));
    both((j) => j.recordOutcome(d, { event: 'rejected', error: 'never sent' }, 4));
    both((j) => j.recordOutcome(e, { event: 'outcomeUnknown', error: 'no answer' }, 4));
    both((j) => j.kvSet('s', 'k', 'v'));
    compare();
    expect(memory.kvGet('s', 'k')).toBe('v');
    // What either refuses, both refuse, and neither writes anything of it.
    for (const refused of [
      (j: OrderJournal) => j.insertPendingMany([order('0x60'), order('0x51')], 5),
      (j: OrderJournal) => j.insertPendingMany([order('0x61'), order('0x61')], 5),
      (j: OrderJournal) => j.recordOutcome(c, { event: 'cancelled' }, 5),
      (j: OrderJournal) => j.markAttempt(b, 5),
      (j: OrderJournal) => j.get(99),
    ]) {
      expect(() => refused(sql)).toThrow();
      expect(() => refused(memory)).toThrow();
    }
    expect(() => memory.insertPending(order('0x52'), 5)).toThrow(/UNIQUE/);
    compare();
    expect(memory.insertPending(order('0x62'), 6).id).toBe(sql.insertPending(order('0x62'), 6).id);
    compare();
    // Stopped before it left, then expired unsent.
    const f = both((j) => j.insertPending(order('0x63'), 7)).id;
    both((j) => j.releaseUnsentAttempt(f));
    both((j) => j.recordOutcome(f, { event: 'expired', error: 'never sent' }, 8));
    compare();
    sql.close();
    memory.close();
  });
});

/**
 * Issue 25's corruption corpus, the journal half: a real journal file (written by the journal,
 * closed cleanly) damaged 127 ways, generated here: single bytes flipped at offsets spread over
 * the whole file (a different bit each time, and whole bytes inverted), truncations, and whole
 * pages deleted (a journal's lines). Each damaged copy must either read back exactly as the original (every order, stored value and
 * count: the byte was in unused space) or be refused with QUANTA_JOURNAL_DAMAGED (or, for the
 * header's schema version, QUANTA_JOURNAL's version refusal). Nothing may read differently
 * without a word, and nothing may end in a raw SQLite error or stack.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ErrorCodes, isQuantaError } from '../../../src/errors/index.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { writeJournal } from '../../helpers/journal-orders.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const tempDir = tempDirs('quanta-journal-corpus-');

/** Everything a bot or `quanta status` reads from a journal, as plain data. */
function contents(journal: OrderJournal): string {
  return JSON.stringify(
    {
      orders: journal.all(),
      latest: journal.latest(5),
      live: journal.inStates(['PENDING', 'SENT', 'OPEN', 'PARTIALLY_FILLED']),
      counts: journal.countByState(),
      risk: journal.kvGet('quanta:risk', 'baseline'),
      boot: journal.kvGet('quanta:journal', 'bootId'),
    },
    (_, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value),
  );
}

type Outcome = 'identical' | 'refused' | 'different' | 'raw error';

function outcomeOf(
  path: string,
  reference: string,
  open: (path: string) => OrderJournal,
): { outcome: Outcome; detail: string } {
  let journal: OrderJournal | undefined;
  try {
    journal = open(path);
    const read = contents(journal);
    return read === reference
      ? { outcome: 'identical', detail: '' }
      : { outcome: 'different', detail: read.slice(0, 200) };
  } catch (error) {
    const refused =
      isQuantaError(error, ErrorCodes.JOURNAL_DAMAGED) ||
      (isQuantaError(error, ErrorCodes.JOURNAL) && error.message.includes('schema version'));
    return {
      outcome: refused ? 'refused' : 'raw error',
      detail: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  } finally {
    journal?.close();
  }
}

it('127 damaged copies of a journal (byte flips, truncations, deleted pages): each reads back identical or is refused as damaged, none differs silently', () => {
  const dir = tempDir();
  const original = join(dir, 'journal.sqlite');
  writeJournal(original, 150);
  const bytes = readFileSync(original);
  const readOnly = (path: string) => OrderJournal.openReadOnly(path);
  const reference = (() => {
    const journal = readOnly(original);
    try {
      return contents(journal);
    } finally {
      journal.close();
    }
  })();

  const cases: { name: string; damage: (file: Buffer) => Buffer }[] = [];
  const FLIPS = 111;
  for (let k = 0; k < FLIPS; k += 1) {
    // Spread over the file, each at a different place within its page.
    const offset = Math.min(
      bytes.length - 1,
      Math.floor((k * bytes.length) / FLIPS) + ((k * 389) % 4096),
    );
    const mask = k % 3 === 0 ? 0xff : 1 << (k % 8);
    cases.push({
      name: `byte ${offset} ^ 0x${mask.toString(16)}`,
      damage: (file) => {
        const copy = Buffer.from(file);
        copy[offset] = copy[offset]! ^ mask;
        return copy;
      },
    });
  }
  // (Not 0 bytes: an empty file is how a new journal starts; telling it from a journal emptied
  // after a crash needs a record outside the file.)
  for (const length of [
    50,
    100,
    4096,
    4097,
    Math.floor(bytes.length / 3),
    Math.floor(bytes.length / 2),
    bytes.length - 4096,
    bytes.length - 512,
    bytes.length - 1,
  ]) {
    cases.push({
      name: `truncated to ${length} of ${bytes.length} bytes`,
      damage: (file) => file.subarray(0, length),
    });
  }

  // A journal's "lines" are its 4096-byte pages: one page cut out (the rest moved up), as a
  // lost block or a bad copy would leave it.
  const PAGE = 4096;
  const pages = Math.floor(bytes.length / PAGE);
  for (const page of new Set([
    0,
    1,
    2,
    Math.floor(pages / 3),
    Math.floor(pages / 2),
    pages - 2,
    pages - 1,
  ])) {
    cases.push({
      name: `page ${page} of ${pages} deleted`,
      damage: (file) =>
        Buffer.concat([file.subarray(0, page * PAGE), file.subarray((page + 1) * PAGE)]),
    });
  }

  const tally: Record<Outcome, string[]> = {
    identical: [],
    refused: [],
    different: [],
    'raw error': [],
  };
  cases.forEach(({ name, damage }, i) => {
    const path = join(dir, `damaged-${i}.sqlite`);
    writeFileSync(path, damage(bytes));
    const { outcome, detail } = outcomeOf(path, reference, readOnly);
    tally[outcome].push(`${name}: ${detail.split('\n')[0]}`);
    // The bot's own open (writable, which migrates and settles) on every tenth copy: it must
    // refuse whatever the read-only open refused, and read the same where that one did.
    if (i % 10 === 0) {
      const writable = join(dir, `damaged-${i}-writable.sqlite`);
      copyFileSync(path, writable);
      const bot = outcomeOf(writable, reference, (p) => OrderJournal.open(p, { bootId: null }));
      if (bot.outcome !== outcome && !(outcome === 'identical' && bot.outcome === 'identical'))
        tally[bot.outcome === 'refused' && outcome === 'identical' ? 'refused' : bot.outcome].push(
          `${name} (writable open): ${bot.detail.split('\n')[0]}`,
        );
    }
  });

  expect(cases.length).toBeGreaterThanOrEqual(127);
  expect(tally.different, 'read differently without a word').toEqual([]);
  expect(tally['raw error'], 'ended in an error that is no damage report').toEqual([]);
  // The corpus does hit data: most flips land in rows or structure and are refused.
  expect(tally.refused.length).toBeGreaterThan(cases.length / 2);
});

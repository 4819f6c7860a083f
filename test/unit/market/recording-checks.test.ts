/**
 * Bad recordings are never replayed silently (issue 12, item 6): snapshots out of order, two
 * files of one stream, files that overlap in time or are named against their time order, and a
 * gzip stream without its trailer.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants as zlibConstants, deflateRawSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';
import {
  RecordingWriter,
  openRecording,
  readRecording,
  type ReadRecordingOptions,
  type RecordingWarning,
} from '../../../src/market/recording/index.ts';
import { createSnapshot, type Snapshot } from '../../../src/market/snapshot.ts';
import { testMarket } from '../../helpers/markets.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';
import { editRecording } from '../../helpers/recordings.ts';
import { sealLine } from '../../../src/market/recording/line-seal.ts';

const T0 = Date.UTC(2026, 0, 5, 9, 30);
const HOUR = 3_600_000;
const eth = testMarket({ id: 1, symbol: 'ETH-USD' });
const tempDir = tempDirs('quanta-recording-checks-');

/** `count` snapshots numbered from `firstSeq`, one second apart from `start`. */
function series(count: number, start = T0 + 1000, firstSeq = 1): Snapshot[] {
  return Array.from({ length: count }, (_, i) =>
    createSnapshot({
      seq: firstSeq + i,
      takenAt: start + i * 1000,
      markets: [eth],
      quotes: [
        {
          marketId: 1,
          timestamp: start + i * 1000 - 5,
          bids: [{ price: `${2999 - i}.5`, quantity: '0.25' }],
          asks: [{ price: `${3001 + i}.5`, quantity: '0.5' }],
        },
      ],
    }),
  );
}

async function record(path: string, snapshots: readonly Snapshot[]): Promise<string> {
  const writer = await RecordingWriter.open({ path, now: () => T0, source: 'test' });
  for (const snapshot of snapshots) writer.write(snapshot);
  await writer.close();
  return path;
}

/**
 * Rewrites a plain recording's lines (line 1 is the header, line 2 ETH's market row), sealed
 * again as a writer would have written them: these are checks behind the line checksums.
 */
function editLines(path: string, edit: (lines: string[]) => string[]): void {
  editRecording(path, (text) => `${edit(text.split('\n').slice(0, -1)).join('\n')}\n`);
}

/** The snapshot line of `seq` in {@link series}(…, T0 + 1000, 1): line 2 + seq (1-based). */
const lineIndexOf = (seq: number): number => 1 + seq;

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function readError(promise: Promise<unknown>): Promise<QuantaError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof QuantaError))
    throw new Error(`expected a QuantaError, got ${String(error)}`);
  return error;
}

function warnings(): { list: RecordingWarning[]; onWarning: (w: RecordingWarning) => void } {
  const list: RecordingWarning[] = [];
  return { list, onWarning: (w) => list.push(w) };
}

/** The error message with the temporary directory written as `DIR`. */
function messageOf(error: QuantaError, dir: string): string {
  return error.message.replaceAll(dir, 'DIR');
}

const seqs = (snapshots: readonly Snapshot[]): number[] => snapshots.map((s) => s.seq);

/** Reads with `repair` on through openRecording, twice: both passes must agree. */
async function repaired(
  path: string,
  options: ReadRecordingOptions = {},
): Promise<{ seqs: number[]; dropped: number }> {
  const recording = await openRecording(path, { ...options, repair: true });
  const first = recording.snapshots();
  const firstSeqs = seqs(await collect(first));
  const second = recording.snapshots();
  expect(seqs(await collect(second))).toEqual(firstSeqs);
  expect(second.dropped).toBe(first.dropped);
  return { seqs: firstSeqs, dropped: first.dropped };
}

describe('recording: seq and takenAt must increase', () => {
  it('fails on a duplicated snapshot line, naming file:line; --repair drops and counts it', async () => {
    const dir = tempDir();
    const path = await record(join(dir, 'rec.jsonl'), series(6));
    editLines(path, (lines) => {
      const copy = lines[lineIndexOf(3)] as string;
      return [...lines.slice(0, lineIndexOf(3) + 1), copy, ...lines.slice(lineIndexOf(3) + 1)];
    });
    const error = await readError(collect(readRecording(path)));
    expect(error.code).toBe(ErrorCodes.RECORDING_INVALID);
    expect(messageOf(error, dir)).toMatchInlineSnapshot(`
      "DIR/rec.jsonl:6: snapshot seq 3 does not increase: the snapshot before it (DIR/rec.jsonl:5) has seq 3 (a duplicated or out-of-order line)
      Fix the recording, or replay it with repair (quanta backtest --repair), which drops such snapshots and counts them."
    `);
    const { list, onWarning } = warnings();
    expect(await repaired(path, { onWarning })).toEqual({ seqs: [1, 2, 3, 4, 5, 6], dropped: 1 });
    expect(list.map((w) => w.message.replaceAll(dir, 'DIR'))).toEqual([
      'recording repaired: dropped 1 snapshot whose seq or takenAt did not increase (DIR/rec.jsonl:6)',
      'recording repaired: dropped 1 snapshot whose seq or takenAt did not increase (DIR/rec.jsonl:6)',
    ]);
  });

  it('fails on two swapped snapshot lines; --repair drops the one out of place', async () => {
    const dir = tempDir();
    const path = await record(join(dir, 'rec.jsonl'), series(6));
    editLines(path, (lines) => {
      const out = [...lines];
      out[lineIndexOf(3)] = lines[lineIndexOf(4)] as string;
      out[lineIndexOf(4)] = lines[lineIndexOf(3)] as string;
      return out;
    });
    const error = await readError(collect(readRecording(path)));
    expect(error.code).toBe(ErrorCodes.RECORDING_INVALID);
    expect(error.shortMessage.replaceAll(dir, 'DIR')).toMatchInlineSnapshot(
      `"DIR/rec.jsonl:6: snapshot seq 3 does not increase: the snapshot before it (DIR/rec.jsonl:5) has seq 4 (a duplicated or out-of-order line)"`,
    );
    expect(await repaired(path, warnings())).toEqual({ seqs: [1, 2, 4, 5, 6], dropped: 1 });
  });

  it('fails on a snapshot an hour back in time; --repair drops it', async () => {
    const dir = tempDir();
    const path = await record(join(dir, 'rec.jsonl'), series(6));
    editLines(path, (lines) => {
      const row = JSON.parse(lines[lineIndexOf(4)] as string) as unknown[];
      row[2] = (row[2] as number) - HOUR;
      const out = [...lines];
      out[lineIndexOf(4)] = JSON.stringify(row);
      return out;
    });
    const error = await readError(collect(readRecording(path)));
    expect(error.code).toBe(ErrorCodes.RECORDING_INVALID);
    expect(error.shortMessage.replaceAll(dir, 'DIR')).toMatchInlineSnapshot(
      `"DIR/rec.jsonl:6: snapshot 4 goes back in time: takenAt 2026-01-05T08:30:04.000Z is 3599000 ms before that of the snapshot before it (DIR/rec.jsonl:5, 2026-01-05T09:30:03.000Z)"`,
    );
    expect(await repaired(path, warnings())).toEqual({ seqs: [1, 2, 3, 5, 6], dropped: 1 });
  });

  it('accepts snapshots taken in the same millisecond, and repair of a clean file drops nothing', async () => {
    const path = join(tempDir(), 'rec.jsonl');
    const same = [1, 2, 3].map((seq) => createSnapshot({ seq, takenAt: T0, markets: [eth] }));
    await record(path, same);
    expect(seqs(await collect(readRecording(path)))).toEqual([1, 2, 3]);
    const { list, onWarning } = warnings();
    expect(await repaired(path, { onWarning })).toEqual({ seqs: [1, 2, 3], dropped: 0 });
    expect(list).toEqual([]);
  });
});

describe('recording: the files of a directory', () => {
  it('refuses rec.jsonl beside rec.jsonl.gz (two files of one stream), listing both', async () => {
    const dir = tempDir();
    const plain = await record(join(dir, 'rec.jsonl'), series(4));
    writeFileSync(join(dir, 'rec.jsonl.gz'), gzipSync(readFileSync(plain)));
    for (const options of [{}, { repair: true }]) {
      const error = await readError(collect(readRecording(dir, options)));
      expect(error.code).toBe(ErrorCodes.RECORDING_INVALID);
      expect(messageOf(error, dir)).toMatchInlineSnapshot(`
        "recording: two files hold part 0 of recording DIR/rec: DIR/rec.jsonl, DIR/rec.jsonl.gz
        Keep one of them: the other is most likely a copy (compressed or renamed)."
      `);
      expect((await readError(openRecording(dir, options))).code).toBe(
        ErrorCodes.RECORDING_INVALID,
      );
    }
  });

  it('refuses the same file named twice in a list, and two files of one rotation part', async () => {
    const dir = tempDir();
    const path = await record(join(dir, 'rec.jsonl'), series(2));
    copyFileSync(path, join(dir, 'rec.0.jsonl'));
    const twice = await readError(collect(readRecording([path, path])));
    expect(twice.code).toBe(ErrorCodes.RECORDING_INVALID);
    const parts = await readError(collect(readRecording(dir)));
    expect(parts.shortMessage.replaceAll(dir, 'DIR')).toBe(
      'recording: two files hold part 0 of recording DIR/rec: DIR/rec.0.jsonl, DIR/rec.jsonl',
    );
  });

  it('refuses files whose names sort against their time order, listing the files', async () => {
    const dir = tempDir();
    // a.jsonl sorts first but was recorded an hour after b.jsonl.
    await record(join(dir, 'a.jsonl'), series(3, T0 + HOUR));
    await record(join(dir, 'b.jsonl'), series(3, T0));
    for (const options of [{}, { repair: true }]) {
      const error = await readError(collect(readRecording(dir, options)));
      expect(error.code).toBe(ErrorCodes.RECORDING_INVALID);
      expect(messageOf(error, dir)).toMatchInlineSnapshot(`
        "recording files overlap in time or are named against their time order: DIR/b.jsonl:3 starts at 2026-01-05T09:30:00.000Z, before DIR/a.jsonl ends (2026-01-05T10:30:02.000Z)
        Files in reading order (by name, then rotation part):
          DIR/a.jsonl: 2026-01-05T10:30:00.000Z … 2026-01-05T10:30:02.000Z
          DIR/b.jsonl: from 2026-01-05T09:30:00.000Z
        Rename the files so that their names sort in time order, or remove the one that overlaps."
      `);
    }
  });

  it('refuses two recordings whose time ranges overlap', async () => {
    const dir = tempDir();
    await record(join(dir, 'a.jsonl'), series(6, T0));
    await record(join(dir, 'b.jsonl'), series(6, T0 + 3000));
    const error = await readError(collect(readRecording(dir)));
    expect(error.code).toBe(ErrorCodes.RECORDING_INVALID);
    expect(error.shortMessage.replaceAll(dir, 'DIR')).toBe(
      'recording files overlap in time or are named against their time order: DIR/b.jsonl:3 starts at 2026-01-05T09:30:03.000Z, before DIR/a.jsonl ends (2026-01-05T09:30:05.000Z)',
    );
  });

  it('reads consecutive recordings, each numbering its snapshots from 1', async () => {
    const dir = tempDir();
    await record(join(dir, 'a.jsonl'), series(3, T0));
    await record(join(dir, 'b.jsonl'), series(3, T0 + HOUR));
    const { list, onWarning } = warnings();
    expect(seqs(await collect(readRecording(dir, { onWarning })))).toEqual([1, 2, 3, 1, 2, 3]);
    expect(list).toEqual([]);
  });
});

describe('recording: gzip without its trailer', () => {
  it('warns, saying how many snapshots were read, when the stream is cut at a line boundary', async () => {
    const dir = tempDir();
    const plain = await record(join(dir, 'plain.jsonl'), series(40));
    const lines = readFileSync(plain, 'utf8').split('\n');
    // Header, market row and the first 25 snapshots, as the writer leaves them after a kill: a
    // gzip header and the deflate data up to the last sync flush, no final block, no trailer.
    const text = `${lines.slice(0, 27).join('\n')}\n`;
    const gzipHeader = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
    const body = deflateRawSync(text, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
    const path = join(dir, 'rec.jsonl.gz');
    writeFileSync(path, Buffer.concat([gzipHeader, body]));
    const { list, onWarning } = warnings();
    const read = await collect(readRecording(path, { onWarning }));
    expect(seqs(read)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(list.map((w) => w.message.replaceAll(dir, 'DIR'))).toEqual([
      'DIR/rec.jsonl.gz: the gzip stream ends without its trailer (the file was cut short, e.g. the recorder was killed): read 25 snapshots from it',
    ]);
    // The same lines, complete with their end line: no warning.
    writeFileSync(path, gzipSync(`${text}${sealLine('["e",25,0,0]', 28)}\n`));
    const clean = warnings();
    expect(await collect(readRecording(path, clean))).toHaveLength(25);
    expect(clean.list).toEqual([]);
  });
});

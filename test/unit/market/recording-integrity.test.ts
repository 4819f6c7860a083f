/**
 * Issue 25, "Recordings read silently wrong": a damaged recording is refused naming file:line (or
 * warned about where a crash explains it), never read as other numbers. The corpus at the end
 * damages a real recording (the paper-venue fixture, written again as format 5) in 100+ ways.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';
import {
  readRecording,
  RecordingWriter,
  type RecordingWarning,
} from '../../../src/market/recording/index.ts';
import { createSnapshot, type Snapshot } from '../../../src/market/snapshot.ts';
import { formatTicks } from '../../../src/market/recording/price-ticks.ts';
import { testMarket } from '../../helpers/markets.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';
import { RECORDING_T0, recordingText, recordSnapshots } from '../../helpers/recordings.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const tempDir = tempDirs('quanta-recording-integrity-');
const FIXTURE = join(ROOT, 'test/fixtures/recording/recording-2026-11-23T04-03-16-618Z.jsonl.gz');

/** Every snapshot as text, every quote's levels read (lazily decoded sides included). */
function canonical(snapshots: readonly Snapshot[]): string {
  return JSON.stringify(
    snapshots.map((s) => ({
      seq: s.seq,
      takenAt: s.takenAt,
      stale: s.stale,
      markets: [...s.markets.values()],
      quotes: [...(s.quotes?.values() ?? [])].map((q) => [q.marketId, q.timestamp, q.bids, q.asks]),
    })),
    (_, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value),
  );
}

interface Outcome {
  readonly text?: string;
  readonly error?: unknown;
  readonly warnings: readonly RecordingWarning[];
}

async function readOutcome(path: string | readonly string[]): Promise<Outcome> {
  const warnings: RecordingWarning[] = [];
  const snapshots: Snapshot[] = [];
  try {
    for await (const s of readRecording(path, { onWarning: (w) => warnings.push(w) }))
      snapshots.push(s);
    return { text: canonical(snapshots), warnings };
  } catch (error) {
    return { error, warnings };
  }
}

/** The error of an outcome that must have been refused naming `file:line`. */
function refusal(outcome: Outcome, file: string): QuantaError {
  const { error } = outcome;
  if (!(error instanceof QuantaError))
    throw new Error(
      `expected a refusal, got ${error === undefined ? 'a read' : error instanceof Error ? error.stack : typeof error}`,
    );
  expect(error.code).toBe(ErrorCodes.RECORDING_INVALID);
  expect(error.message.startsWith(`${file}:`)).toBe(true);
  return error;
}

/** Reads every snapshot without reading any quote's levels (a replay reads few of them). */
async function iterateOnly(path: string): Promise<Outcome> {
  const warnings: RecordingWarning[] = [];
  try {
    for await (const s of readRecording(path, { onWarning: (w) => warnings.push(w) })) void s;
    return { warnings };
  } catch (error) {
    return { error, warnings };
  }
}

/** ETH's book moving one tick a snapshot as a whole, every size new: written as shifted sides. */
function shiftingBook(count: number): Snapshot[] {
  const eth = testMarket({ id: 1, priceExpo: 2 });
  return Array.from({ length: count }, (_, i) => {
    const levels = (from: number, step: number) =>
      Array.from({ length: 10 }, (_, k) => ({
        price: formatTicks(from + i + step * k, 2),
        quantity: `${1 + ((i * 7 + k * 3) % 40)}.25`,
      }));
    return createSnapshot({
      seq: i + 1,
      takenAt: RECORDING_T0 + i * 1000,
      markets: [eth],
      quotes: [
        {
          marketId: 1,
          timestamp: RECORDING_T0 + i * 1000,
          bids: levels(300_000, -5),
          asks: levels(300_010, 5),
        },
      ],
    });
  });
}

/** The fixture's snapshots (a real paper-venue recording, format 1). */
async function fixtureSnapshots(): Promise<Snapshot[]> {
  const out: Snapshot[] = [];
  for await (const s of readRecording(FIXTURE, { onWarning: () => undefined })) out.push(s);
  return out;
}

/** The fixture written again by today's writer: format 5, a keyframe every 16 snapshots. */
async function realRecording(path: string, options: { rotateBytes?: number } = {}) {
  const writer = await RecordingWriter.open({
    path,
    now: () => RECORDING_T0,
    source: 'paper',
    keyframeEverySnapshots: 16,
    ...options,
  });
  for (const snapshot of await fixtureSnapshots()) {
    writer.write(snapshot);
    await writer.drained();
  }
  await writer.close();
  return writer.files;
}

function lines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n');
}

describe('recording integrity: the reproductions of issue 25', () => {
  it('refuses a keyframe tag changed to a delta tag (k→s), naming file:line', async () => {
    const [path] = (await realRecording(join(tempDir(), 'rec.jsonl'))) as [string];
    const all = lines(path);
    const at = all.findIndex((line) => line.startsWith('["k",'));
    expect(at).toBeGreaterThan(0);
    all[at] = `["s",${(all[at] as string).slice(5)}`;
    writeFileSync(path, all.join('\n'));
    const error = refusal(await readOutcome(path), path);
    expect(error.shortMessage).toBe(
      `${path}:${at + 1}: the line does not match its checksum: it was changed (a flipped or edited byte)`,
    );
  });

  it('refuses a deleted delta line, saying a line is missing before the next', async () => {
    const [path] = (await realRecording(join(tempDir(), 'rec.jsonl'))) as [string];
    const all = lines(path);
    const at = all.findIndex((line, i) => i > 20 && line.startsWith('["s",'));
    all.splice(at, 1);
    writeFileSync(path, all.join('\n'));
    const error = refusal(await readOutcome(path), path);
    expect(error.shortMessage).toBe(
      `${path}:${at + 1}: the line was written as line ${at + 2}: a line is missing before it (deleted or lost)`,
    );
  });

  it('refuses a negative quantity and a malformed quantity block while the file is read, before any level is', async () => {
    const path = join(tempDir(), 'rec.jsonl');
    await recordSnapshots({ path }, shiftingBook(4));
    const clean = readFileSync(path, 'utf8');
    // The first snapshot's first bid quantity made negative: "price qty" → "price -qty".
    const negative = clean.replace(/(\["s",[^"]*"\d+ )(\d)/, '$1-$2');
    expect(negative).not.toBe(clean);
    writeFileSync(path, negative);
    const at = negative.split('\n').findIndex((line) => /^\["s",[^"]*"\d+ -\d/.test(line));
    expect(refusal(await iterateOnly(path), path).shortMessage).toMatch(
      new RegExp(`^${path}:${at + 1}: the line does not match its checksum`),
    );
    // A shifted side's quantity block given a digit too many.
    const block = clean.replace(/("\*-?\d+ [0-9a-f][1-8])/, '$1A');
    expect(block).not.toBe(clean);
    writeFileSync(path, block);
    expect(refusal(await iterateOnly(path), path).shortMessage).toMatch(
      /^.*:\d+: the line does not match its checksum/,
    );
  });

  it('refuses a negative quantity and a malformed quantity block of an unverifiable format (1 and 4) while the file is read', async () => {
    const path = join(tempDir(), 'rec.jsonl');
    await recordSnapshots({ path, version: 4 }, shiftingBook(4));
    const clean = readFileSync(path, 'utf8');
    writeFileSync(path, clean.replace(/(\["s",[^"]*"\d+ )(\d)/, '$1-$2'));
    expect(refusal(await iterateOnly(path), path).shortMessage).toMatch(
      new RegExp(
        `^${path}:3: snapshot 1: quotes\\[0\\]\\.bids\\[0\\]: quantity "-\\d+\\.25" is negative$`,
      ),
    );
    writeFileSync(path, clean.replace(/("\*-?\d+ [0-9a-f][1-8])/, '$1A'));
    expect(refusal(await iterateOnly(path), path).shortMessage).toMatch(
      new RegExp(
        `^${path}:4: snapshot 2: quotes\\[0\\]\\.bids: quantity block "\\w\\d": expected a scale \\(0-f\\), a width \\(1-8\\) and whole quantities of that width$`,
      ),
    );
    const v1 = join(tempDir(), 'v1.jsonl');
    await recordSnapshots({ path: v1, version: 1 }, shiftingBook(2));
    writeFileSync(v1, readFileSync(v1, 'utf8').replace(/("\d+\.\d+ )(\d)/, '$1-$2'));
    expect(refusal(await iterateOnly(v1), v1).shortMessage).toMatch(
      new RegExp(
        `^${v1}:3: snapshot 1: quotes\\[0\\]\\.(bids|asks)\\[0\\]: quantity "-\\d+\\.25" is negative$`,
      ),
    );
  });

  it('names a missing rotation part between two parts, and warns about a missing last part', async () => {
    const dir = tempDir();
    const files = await realRecording(join(dir, 'rec.jsonl'), { rotateBytes: 6000 });
    expect(files.length).toBeGreaterThan(3);
    const whole = await readOutcome(dir);
    expect(whole.warnings).toEqual([]);
    rmSync(files[1] as string);
    const error = refusal(await readOutcome(dir), files[2] as string);
    expect(error.shortMessage).toBe(
      `${files[2]}:1: part 2 of the recording follows part 0 (${files[0]}): part 1 is missing (part 1 (${files[1]}))`,
    );
    const last = files.at(-1) as string;
    rmSync(last);
    const read = await readOutcome([files[0] as string]);
    expect(read.error).toBeUndefined();
    expect(read.warnings.map((w) => w.message)).toEqual([
      `${files[0]}: the recording continues in part 1 (${files[1]}), which was not read`,
    ]);
    const upToLast = await readOutcome(files.slice(2, -1));
    expect(upToLast.warnings.map((w) => w.message)).toEqual([
      `${files[2]}:1: the recording is read from part 2: parts 0 to 1 are not read (it starts at part 0 (${files[0]}))`,
      `${files.at(-2)}: the recording continues in part ${files.length - 1} (${last}), which was not read`,
    ]);
  });

  it('says once per read that an older format cannot be verified, counting the snapshots read so', async () => {
    const outcome = await readOutcome([FIXTURE]);
    expect(outcome.error).toBeUndefined();
    expect(outcome.warnings.map((w) => w.message)).toEqual([
      `${FIXTURE}:1: recording format version 1 has no line checksums: a changed or deleted line cannot be detected, so 60 snapshots were read unverified (recordings written from now on are version 5)`,
    ]);
  });

  it('a deleted line of a format 4 recording is not read silently: the read counts it unverified', async () => {
    // Format 4 cannot tell a deleted line from one never written (the issue's "a deleted line
    // reads silently"): the rule is that such a read always says how much it could not verify.
    const dir = tempDir();
    const path = join(dir, 'rec.jsonl');
    await recordSnapshots({ path, version: 4 }, shiftingBook(6));
    const all = lines(path);
    all.splice(4, 1);
    writeFileSync(path, all.join('\n'));
    const other = join(dir, 'v1.jsonl');
    await recordSnapshots({ path: other, version: 1 }, shiftingBook(8).slice(6));
    const outcome = await readOutcome([path, other]);
    expect(outcome.error).toBeUndefined();
    expect(outcome.warnings.map((w) => w.message)).toEqual([
      `${path}:1: recording format versions 1, 4 have no line checksums: a changed or deleted line cannot be detected, so 7 snapshots were read unverified (recordings written from now on are version 5)`,
    ]);
  });

  it('refuses a line appended after the end line, and warns about a file without one', async () => {
    const [path] = (await realRecording(join(tempDir(), 'rec.jsonl'))) as [string];
    const clean = readFileSync(path, 'utf8');
    const all = clean.split('\n');
    const count = all.length - 1;
    writeFileSync(path, `${clean}${all[count - 1] as string}\n`);
    expect(refusal(await readOutcome(path), path).shortMessage).toBe(
      `${path}:${count + 1}: a line after the end line (lines were appended, moved or joined from another file)`,
    );
    // Without its end line (the recorder was killed): the snapshots, and a warning.
    writeFileSync(path, `${all.slice(0, count - 1).join('\n')}\n`);
    const cut = await readOutcome(path);
    expect(cut.error).toBeUndefined();
    expect(cut.warnings.map((w) => w.message)).toEqual([
      `${path}: no end line (the file was cut short, e.g. the recorder was killed): read 60 snapshots from it`,
    ]);
  });
});

/** A deterministic PRNG (xorshift32), so the corpus is the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 2 ** 32;
  };
}

type Verdict = 'same' | 'refused' | 'silently different';

async function verdict(path: string, bytes: Buffer, expected: string): Promise<Verdict> {
  writeFileSync(path, bytes);
  const outcome = await readOutcome(path);
  if (outcome.error === undefined) return outcome.text === expected ? 'same' : 'silently different';
  // Anything else than a refusal naming file:line fails the test here.
  refusal(outcome, path);
  return 'refused';
}

describe('recording integrity: a corruption corpus over a real recording', () => {
  for (const gzip of [false, true]) {
    it(`${gzip ? 'gzip' : 'plain'}: every single-byte flip and line deletion reads the same snapshots or is refused naming file:line`, async () => {
      const dir = tempDir();
      const [source] = (await realRecording(join(dir, `source.jsonl${gzip ? '.gz' : ''}`))) as [
        string,
      ];
      const expected = (await readOutcome(source)).text as string;
      expect(expected.length).toBeGreaterThan(10_000);
      const clean = readFileSync(source);
      const path = join(dir, `damaged.jsonl${gzip ? '.gz' : ''}`);
      const verdicts: Record<Verdict, number> = {
        same: 0,
        refused: 0,
        'silently different': 0,
      };
      const silent: string[] = [];
      const next = random(gzip ? 2525 : 25);
      // Single-byte flips at random offsets of the file as stored (compressed bytes for gzip).
      for (let i = 0; i < 120; i++) {
        const bytes = Buffer.from(clean);
        const offset = Math.floor(next() * bytes.length);
        const mask = 1 + Math.floor(next() * 255);
        bytes[offset] = (bytes[offset] as number) ^ mask;
        const found = await verdict(path, bytes, expected);
        verdicts[found] += 1;
        if (found === 'silently different') silent.push(`flip ${mask} at byte ${offset}`);
      }
      // Every line deleted in turn (gzip: in the text, compressed again).
      const text = (gzip ? gunzipSync(clean) : clean).toString('utf8').split('\n');
      for (let at = 0; at < text.length - 1; at++) {
        const damaged = Buffer.from([...text.slice(0, at), ...text.slice(at + 1)].join('\n'));
        const found = await verdict(path, gzip ? gzipSync(damaged) : damaged, expected);
        verdicts[found] += 1;
        if (found === 'silently different') silent.push(`line ${at + 1} deleted`);
      }
      expect(silent).toEqual([]);
      expect(verdicts.refused).toBeGreaterThan(100);
      expect(verdicts.same + verdicts.refused).toBeGreaterThanOrEqual(120 + 60);
      // (Same: a flip the format ignores, e.g. a gzip header's time; the end line deleted.)
      expect(recordingText(source)).toContain('["e",60,');
    }, 120_000);
  }
});

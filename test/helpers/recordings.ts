import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { hasSeal, SEAL_LENGTH, sealLine } from '../../src/market/recording/line-seal.ts';
import {
  RecordingWriter,
  readRecording,
  type RecordingWarning,
  type RecordingWriterOptions,
} from '../../src/market/recording/index.ts';
import type { Snapshot } from '../../src/market/snapshot.ts';

/** The time recording tests open their writers at (the header's createdAt). */
export const RECORDING_T0 = Date.parse('2026-01-05T09:30:00Z');

/** Writes `snapshots` (source `test`, opened at RECORDING_T0) and returns the first file. */
export async function recordSnapshots(
  options: RecordingWriterOptions,
  snapshots: readonly Snapshot[],
): Promise<string> {
  const writer = await RecordingWriter.open({
    now: () => RECORDING_T0,
    source: 'test',
    ...options,
  });
  for (const snapshot of snapshots) {
    writer.write(snapshot);
    await writer.drained();
  }
  await writer.close();
  return writer.files[0] as string;
}

/** Every snapshot of the recording at `path`. */
export async function readSnapshots(
  path: string,
  onWarning?: (warning: RecordingWarning) => void,
): Promise<Snapshot[]> {
  const out: Snapshot[] = [];
  for await (const s of readRecording(path, onWarning === undefined ? {} : { onWarning }))
    out.push(s);
  return out;
}

/** Snapshots as plain data (quote levels read through their getters), for `toEqual`. */
export function plainSnapshots(snapshots: readonly Snapshot[]) {
  return snapshots.map((s) => ({
    seq: s.seq,
    takenAt: s.takenAt,
    quotes: [...(s.quotes?.values() ?? [])].map((q) => ({ ...q, bids: q.bids, asks: q.asks })),
  }));
}

/** `text` (a recording file's lines) without the check fields of format version 5. */
export function unsealText(text: string): string {
  return text
    .split('\n')
    .map((line) => (hasSeal(line) ? line.slice(0, line.length - SEAL_LENGTH) : line))
    .join('\n');
}

/**
 * Lines (without check fields) sealed again with their numbers and the end line's counts, as the
 * version 5 writer would have written them: a test edits a line and reseals it to reach the check behind the checksum
 * (which a real edit fails first). Text of an older version is returned as it is.
 */
export function resealText(text: string): string {
  if (!/"version":[5-9]/.test(text.slice(0, text.indexOf('\n')))) return text;
  const lines = text.split('\n');
  // The end line counts the snapshot and keyframe lines the edit left.
  const snapshots = lines.filter((line) => /^\["[sk]",/.test(line)).length;
  const keyframes = lines.filter((line) => line.startsWith('["k",')).length;
  return lines
    .map((line) => line.replace(/^\["e",\d+,\d+,/, `["e",${snapshots},${keyframes},`))
    .map((line, index) => (line === '' ? line : sealLine(line, index + 1)))
    .join('\n');
}

/** A recording file's text (gunzipped for `.gz`), without check fields. */
export function recordingText(path: string): string {
  const bytes = readFileSync(path);
  return unsealText(
    path.endsWith('.gz') ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8'),
  );
}

/**
 * Rewrites a recording file through `edit` (on its text without check fields), sealing the
 * result again as the writer would (see {@link resealText}); gzip files are compressed again.
 */
export function editRecording(path: string, edit: (text: string) => string): void {
  const text = resealText(edit(recordingText(path)));
  writeFileSync(path, path.endsWith('.gz') ? gzipSync(text) : text);
}

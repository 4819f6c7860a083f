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

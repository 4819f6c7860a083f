import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

// `<stem>.jsonl`, `<stem>.<part>.jsonl`, each optionally `.gz`. The stem is the shortest that
// fits, so `rec.3.jsonl` is part 3 of `rec`.
const RECORDING_NAME = /^(.+?)(?:\.(\d+))?\.jsonl(\.gz)?$/;

/** True when a recording path is gzip-compressed (its name ends in `.gz`). */
export function isGzipPath(path: string): boolean {
  return path.endsWith('.gz');
}

/** True when `name` is a recording file name (`.jsonl` or `.jsonl.gz`). */
export function isRecordingFileName(name: string): boolean {
  return RECORDING_NAME.test(name);
}

/**
 * The path of rotation part `part` of the recording whose first file is `firstPath`:
 * `rec.jsonl.gz` → `rec.2.jsonl.gz` for part 2; part 0 is `firstPath` itself.
 */
export function partPath(firstPath: string, part: number): string {
  if (part === 0) return firstPath;
  const gz = isGzipPath(firstPath) ? '.gz' : '';
  const stem = firstPath.slice(0, firstPath.length - gz.length - '.jsonl'.length);
  return `${stem}.${part}.jsonl${gz}`;
}

/**
 * The file name the writer picks in a directory: `recording-2026-01-05T09-30-00-000Z.jsonl`
 * (UTC, so names sort in time order; no `:` so it is valid everywhere).
 */
export function defaultRecordingName(nowMs: number, gzip: boolean): string {
  const stamp = new Date(nowMs).toISOString().replace(/[:.]/g, '-');
  return `recording-${stamp}.jsonl${gzip ? '.gz' : ''}`;
}

/**
 * The recording files of a directory in reading order: recordings by name (time order for the
 * writer's default names), each one's parts by rotation index. Other files are ignored.
 */
export async function listRecordingFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const found: { group: string; part: number; name: string }[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const match = RECORDING_NAME.exec(entry.name);
    if (match === null) continue;
    const [, stem = '', part, gz = ''] = match;
    found.push({
      group: `${stem}${gz}`,
      part: part === undefined ? 0 : Number(part),
      name: entry.name,
    });
  }
  found.sort((a, b) => (a.group !== b.group ? (a.group < b.group ? -1 : 1) : a.part - b.part));
  return found.map((file) => join(dir, file.name));
}

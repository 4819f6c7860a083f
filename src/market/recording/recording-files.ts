import { readdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';

// `<stem>.jsonl`, `<stem>.<part>.jsonl`, each optionally `.gz`. The stem is the shortest that
// fits, so `rec.3.jsonl` is part 3 of `rec`.
const RECORDING_NAME = /^(.+?)(?:\.(\d+))?\.jsonl(\.gz)?$/;

/** True when a recording path is gzip-compressed (its name ends in `.gz`). */
export function isGzipPath(path: string): boolean {
  return path.endsWith('.gz');
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
 * The path the writer gives rotation part `part` of the recording `path` belongs to
 * (`rec.2.jsonl.gz` → `rec.3.jsonl.gz` for part 3), or undefined when `path` is not named as
 * the writer names recordings.
 */
export function siblingPartPath(path: string, part: number): string | undefined {
  const place = placeOf(path);
  if (place === undefined) return undefined;
  return partPath(`${place.stem}.jsonl${isGzipPath(path) ? '.gz' : ''}`, part);
}

/**
 * The file name the writer picks in a directory: `recording-2026-01-05T09-30-00-000Z.jsonl`
 * (UTC, so names sort in time order; no `:` so it is valid everywhere).
 */
export function defaultRecordingName(nowMs: number, gzip: boolean): string {
  const stamp = new Date(nowMs).toISOString().replace(/[:.]/g, '-');
  return `recording-${stamp}.jsonl${gzip ? '.gz' : ''}`;
}

/** Where a file sits in a recording: its stem (with the directory) and rotation part. */
interface FilePlace {
  readonly path: string;
  readonly stem: string;
  readonly part: number;
}

function placeOf(path: string): FilePlace | undefined {
  const match = RECORDING_NAME.exec(basename(path));
  if (match === null) return undefined;
  const [, stem = '', part] = match;
  return { path, stem: join(dirname(path), stem), part: part === undefined ? 0 : Number(part) };
}

/**
 * The recording files of a directory in reading order: recordings by name (time order for the
 * writer's default names), each one's parts by rotation index. Other files are ignored.
 * `rec.jsonl` and `rec.jsonl.gz` are the same recording (see {@link checkOneFilePerPart}).
 */
export async function listRecordingFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const found: FilePlace[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const place = placeOf(join(dir, entry.name));
    if (place !== undefined) found.push(place);
  }
  found.sort((a, b) =>
    a.stem !== b.stem
      ? a.stem < b.stem
        ? -1
        : 1
      : a.part !== b.part
        ? a.part - b.part
        : a.path < b.path
          ? -1
          : 1,
  );
  return found.map((file) => file.path);
}

/**
 * Refuses a list of files in which one file appears twice or two files hold the same part of
 * one recording (`rec.jsonl` beside `rec.jsonl.gz`, or `rec.jsonl` beside `rec.0.jsonl`): read
 * in turn, they would replay the same stretch of time twice.
 *
 * @throws QuantaError `QUANTA_RECORDING_INVALID` listing the files.
 */
export function checkOneFilePerPart(files: readonly string[]): void {
  const seen = new Map<string, string[]>();
  for (const path of files) {
    const place = placeOf(path);
    // A file whose name is not a recording name is still only allowed once.
    const key = place === undefined ? resolve(path) : `${resolve(place.stem)}\0${place.part}`;
    const same = seen.get(key);
    if (same === undefined) seen.set(key, [path]);
    else same.push(path);
  }
  for (const [key, paths] of seen) {
    if (paths.length < 2) continue;
    const [first = ''] = paths;
    if (paths.every((path) => resolve(path) === resolve(first))) {
      throw new QuantaError(
        ErrorCodes.RECORDING_INVALID,
        `recording: ${first} is named ${paths.length} times`,
      );
    }
    const place = placeOf(first);
    const what = place === undefined ? key : `part ${place.part} of recording ${place.stem}`;
    throw new QuantaError(
      ErrorCodes.RECORDING_INVALID,
      `recording: two files hold ${what}: ${paths.join(', ')}`,
      { details: ['Keep one of them: the other is most likely a copy (compressed or renamed).'] },
    );
  }
}

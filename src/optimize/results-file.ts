import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type { SetOutcome } from './run-set.ts';

const FORMAT = 'quanta-optimize-results';

/** The results of a sweep so far, streamed to a JSONL file as each set finishes. */
export interface ResultsFile {
  readonly path: string;
  /** Outcomes already in the file (a resumed sweep skips these), by task key. */
  readonly done: ReadonlyMap<string, SetOutcome>;
  /**
   * Where the results of another sweep the file held were moved (`results.<their sweep>.jsonl`
   * beside it) before it was started afresh; undefined when it held this sweep's or none.
   */
  readonly setAside: string | undefined;
  append(outcome: SetOutcome): void;
}

/** A free name beside `path` for the results of the sweep its header `first` names. */
function asideOf(path: string, first: string): string {
  let sweep = 'unknown';
  try {
    const named = (JSON.parse(first) as { sweep?: unknown }).sweep;
    if (typeof named === 'string' && /^[\w-]+$/.test(named)) sweep = named;
  } catch {
    // Not a results file's header: set aside under `unknown`.
  }
  const base = join(dirname(path), `results.${sweep}`);
  let candidate = `${base}.jsonl`;
  for (let n = 1; existsSync(candidate); n += 1) candidate = `${base}.${n}.jsonl`;
  return candidate;
}

/**
 * Opens (or starts) `path`: a header line naming the sweep, then one outcome per line. The file of
 * the same sweep is resumed: its successful outcomes are kept (failed sets run again) and a torn
 * last line (a kill mid-write) is dropped. A file of another sweep (other config, space, recording files, strategy source or windows:
 * optimize.ts, sweep-inputs.ts) is moved aside to `results.<its sweep>.jsonl` and started afresh.
 * Lines are appended synchronously, each whole, as results arrive.
 */
export function openResultsFile(path: string, sweep: string): ResultsFile {
  const header = `${JSON.stringify({ format: FORMAT, sweep })}\n`;
  const done = new Map<string, SetOutcome>();
  let setAside: string | undefined;
  if (existsSync(path)) {
    const lines = readFileSync(path, 'utf8').split('\n');
    if (lines[0] !== header.trimEnd()) {
      // Kept, not overwritten: the inputs may differ only in a file's time (a copy, a checkout).
      setAside = asideOf(path, lines[0] ?? '');
      renameSync(path, setAside);
      writeFileSync(path, header);
    } else {
      const whole: string[] = [lines[0]];
      for (const line of lines.slice(1)) {
        if (line.trim() === '') continue;
        try {
          const outcome = JSON.parse(line) as SetOutcome;
          if (typeof outcome.key !== 'string') continue;
          whole.push(line);
          // A set that failed (a strategy that threw, a file that could not be read) runs again.
          if (outcome.metrics === null) done.delete(outcome.key);
          else done.set(outcome.key, outcome);
        } catch {
          // A torn line: the set is run again.
        }
      }
      // Rewritten without torn lines, so appends start on a fresh line.
      writeFileSync(path, `${whole.join('\n')}\n`);
    }
  } else {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, header);
  }
  return {
    path,
    done,
    setAside,
    append(outcome) {
      appendFileSync(path, `${JSON.stringify(outcome)}\n`);
      done.set(outcome.key, outcome);
    },
  };
}

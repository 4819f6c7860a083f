import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SetOutcome } from './run-set.ts';

const FORMAT = 'quanta-optimize-results';

/** The results of a sweep so far, streamed to a JSONL file as each set finishes. */
export interface ResultsFile {
  readonly path: string;
  /** Outcomes already in the file (a resumed sweep skips these), by task key. */
  readonly done: ReadonlyMap<string, SetOutcome>;
  /** True when the file held another sweep's results and was started afresh. */
  readonly restarted: boolean;
  append(outcome: SetOutcome): void;
}

/**
 * Opens (or starts) `path`: a header line naming the sweep, then one outcome per line. The file of
 * the same sweep is resumed: its successful outcomes are kept (failed sets run again) and a torn
 * last line (a kill mid-write) is dropped. A file of another sweep (other config, space, recording or windows) is started afresh.
 * Lines are appended synchronously, each whole, as results arrive.
 */
export function openResultsFile(path: string, sweep: string): ResultsFile {
  const header = `${JSON.stringify({ format: FORMAT, sweep })}\n`;
  const done = new Map<string, SetOutcome>();
  let restarted = false;
  if (existsSync(path)) {
    const lines = readFileSync(path, 'utf8').split('\n');
    if (lines[0] !== header.trimEnd()) {
      restarted = true;
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
    restarted,
    append(outcome) {
      appendFileSync(path, `${JSON.stringify(outcome)}\n`);
      done.set(outcome.key, outcome);
    },
  };
}

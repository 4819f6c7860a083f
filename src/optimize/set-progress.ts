import type { Writable } from 'node:stream';

/** Options of {@link createSetProgress}. */
export interface SetProgressOptions {
  /** Sets in the sweep. */
  readonly total: number;
  /** Sets already done (a resumed sweep). */
  readonly done: number;
  readonly stream: Writable;
  /** A terminal gets one line redrawn in place; anything else a line per tenth. */
  readonly isTTY: boolean;
  /** Clock in ms (inject a fake one in tests). */
  readonly now: () => number;
}

function clock(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * The sweep's progress across every worker: sets done of all, the rate of this run (sets resumed
 * from the results file do not count towards it) and the time left at that rate. Redraws a TTY
 * line at most every 100 ms of the injected clock; elsewhere writes a line per tenth done.
 */
export function createSetProgress(options: SetProgressOptions): {
  tick(): void;
  done(): void;
} {
  const { total, stream, isTTY, now } = options;
  const startedAt = now();
  const resumed = options.done;
  let count = options.done;
  let lastDraw: number | undefined;
  let lastTenth = Math.floor((count * 10) / Math.max(1, total));
  let finished = false;
  const line = (at: number): string => {
    const ran = count - resumed;
    const elapsed = at - startedAt;
    const rate = elapsed > 0 ? (ran * 1000) / elapsed : 0;
    const eta = rate > 0 ? clock(((total - count) / rate) * 1000) : '-:--';
    const percent = Math.floor((count * 100) / Math.max(1, total));
    const filled = Math.floor((count * 24) / Math.max(1, total));
    const bar = `${'#'.repeat(filled)}${'.'.repeat(24 - filled)}`;
    return `optimize [${bar}] ${String(percent).padStart(3)}% ${count}/${total} sets  ${rate.toFixed(1)}/s  ETA ${eta}`;
  };
  return {
    tick() {
      if (finished) return;
      count += 1;
      const at = now();
      if (isTTY) {
        if (lastDraw !== undefined && at - lastDraw < 100) return;
        lastDraw = at;
        stream.write(`\r${line(at)}`);
        return;
      }
      const tenth = Math.floor((count * 10) / Math.max(1, total));
      if (tenth > lastTenth && count < total) {
        lastTenth = tenth;
        stream.write(`${line(at)}\n`);
      }
    },
    done() {
      if (finished) return;
      finished = true;
      const at = now();
      stream.write(
        `${isTTY ? '\r' : ''}optimize: ${count}/${total} sets in ${clock(at - startedAt)}\n`,
      );
    },
  };
}

import type { Writable } from 'node:stream';

/** Options of `createProgress`. */
export interface ProgressOptions {
  /** Expected number of ticks (snapshots); without it there is no bar, percentage or ETA. */
  readonly total?: number;
  /** Where to write (usually `process.stderr`, so `--json` output on stdout stays clean). */
  readonly stream: NodeJS.WriteStream | Writable;
  /** A terminal gets one line redrawn in place; anything else gets plain periodic lines. */
  readonly isTTY: boolean;
  /** Clock in ms (inject a fake one in tests). */
  readonly now: () => number;
  /** Word that starts each line. Default "backtest". */
  readonly label?: string;
  /** Least time between redraws on a TTY. Default 100 ms. */
  readonly ttyIntervalMs?: number;
  /** Longest silence between plain lines. Default 10 s. */
  readonly plainIntervalMs?: number;
}

/** A progress display: count work with `tick`, finish with `done`. */
export interface Progress {
  /** Counts `n` more units of work (default 1); redraws when due. */
  tick(n?: number): void;
  /** Writes the final line. Later calls of `tick` and `done` do nothing. */
  done(): void;
}

const BAR_WIDTH = 24;

function duration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

function rate(perSecond: number | null): string {
  if (perSecond === null) return '-/s';
  return `${perSecond >= 100 ? Math.round(perSecond) : perSecond.toFixed(1)}/s`;
}

/**
 * Shows the progress of a long loop (the backtest's snapshots). On a TTY: one line redrawn in
 * place with `\r` — bar, percentage, count, rate and ETA — at most every `ttyIntervalMs` of the
 * injected clock, so a fast loop does not spend its time printing. Elsewhere (CI logs, pipes):
 * a plain line each time another 10% is done, or after `plainIntervalMs` without one, so logs
 * stay short but show a slow run is alive. Writes nothing else and never reads the real clock.
 *
 * @example
 * const progress = createProgress({ total: snapshots, stream: process.stderr,
 *   isTTY: process.stderr.isTTY === true, now: Date.now });
 * for (const snapshot of recording) { step(snapshot); progress.tick(); }
 * progress.done();
 */
export function createProgress(options: ProgressOptions): Progress {
  const { stream, isTTY, now } = options;
  const total = options.total !== undefined && options.total > 0 ? options.total : undefined;
  const label = options.label ?? 'backtest';
  const ttyInterval = options.ttyIntervalMs ?? 100;
  const plainInterval = options.plainIntervalMs ?? 10_000;
  const startedAt = now();
  let count = 0;
  let finished = false;
  let lastWriteAt: number | undefined;
  let lastTenth = 0;
  let drawnLength = 0;

  const perSecond = (at: number): number | null => {
    const elapsed = at - startedAt;
    return elapsed > 0 ? (count * 1000) / elapsed : null;
  };
  const eta = (at: number): string => {
    const speed = perSecond(at);
    if (total === undefined || speed === null || speed === 0) return 'ETA -:--';
    return `ETA ${duration(((total - Math.min(count, total)) / speed) * 1000)}`;
  };
  const percent = (): number =>
    total === undefined ? 0 : Math.floor((Math.min(count, total) * 100) / total);

  const ttyLine = (at: number, tail: string): string => {
    if (total === undefined) return `${label} ${count} snapshots  ${rate(perSecond(at))}  ${tail}`;
    const filled = Math.floor((Math.min(count, total) * BAR_WIDTH) / total);
    const bar = `${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}`;
    return `${label} [${bar}] ${String(percent()).padStart(3)}% ${count}/${total}  ${rate(perSecond(at))}  ${tail}`;
  };
  const drawTty = (line: string): void => {
    // Pad over the previous line's tail: `\r` moves the cursor but does not clear.
    stream.write(`\r${line.padEnd(drawnLength)}`);
    drawnLength = line.length;
  };
  const plainLine = (at: number): string =>
    total === undefined
      ? `${label}: ${count} snapshots, ${rate(perSecond(at))}\n`
      : `${label}: ${percent()}% (${count}/${total} snapshots), ${rate(perSecond(at))}, ${eta(at)}\n`;

  return {
    tick(n = 1) {
      if (finished) return;
      count += n;
      const at = now();
      if (isTTY) {
        if (lastWriteAt !== undefined && at - lastWriteAt < ttyInterval) return;
        lastWriteAt = at;
        drawTty(ttyLine(at, total === undefined ? `${duration(at - startedAt)} elapsed` : eta(at)));
        return;
      }
      const tenth = total === undefined ? 0 : Math.floor(percent() / 10);
      const quiet = at - (lastWriteAt ?? startedAt) >= plainInterval;
      if (tenth > lastTenth || quiet) {
        lastTenth = Math.max(lastTenth, tenth);
        lastWriteAt = at;
        if (tenth < 10) stream.write(plainLine(at));
      }
    },
    done() {
      if (finished) return;
      finished = true;
      const at = now();
      const took = duration(at - startedAt);
      if (isTTY) {
        drawTty(ttyLine(at, `done in ${took}`));
        stream.write('\n');
        return;
      }
      stream.write(`${label}: done, ${count} snapshots in ${took} (${rate(perSecond(at))})\n`);
    },
  };
}

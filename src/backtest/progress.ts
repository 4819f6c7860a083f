import type { Writable } from 'node:stream';

/** Options of `createProgress`. */
export interface ProgressOptions {
  /** Expected number of ticks (snapshots); without it there is no bar, percentage or ETA. */
  readonly total?: number;
  /**
   * Size of the input in bytes (a recording's files; compressed size for gzip), when the number
   * of ticks is not known up front: the bar, percentage and ETA then follow the bytes consumed
   * that `tick` is given, and the count stays a plain number of snapshots. Ignored with `total`.
   */
  readonly totalBytes?: number;
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
  /**
   * Counts `n` more units of work (default 1); redraws when due. With `totalBytes`, `bytes` is
   * how much of the input is consumed so far (it only moves forward).
   */
  tick(n?: number, bytes?: number): void;
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
  const totalBytes =
    total === undefined && options.totalBytes !== undefined && options.totalBytes > 0
      ? options.totalBytes
      : undefined;
  const label = options.label ?? 'backtest';
  const ttyInterval = options.ttyIntervalMs ?? 100;
  const plainInterval = options.plainIntervalMs ?? 10_000;
  const startedAt = now();
  let count = 0;
  let consumed = 0;
  let finished = false;
  let lastWriteAt: number | undefined;
  let lastTenth = 0;
  let drawnLength = 0;

  const perSecond = (at: number): number | null => {
    const elapsed = at - startedAt;
    return elapsed > 0 ? (count * 1000) / elapsed : null;
  };
  /** Share of the input consumed (0 to 1) when measured in bytes. */
  const byteShare = (): number => Math.min(consumed, totalBytes ?? 0) / (totalBytes ?? 1);
  const eta = (at: number): string => {
    if (totalBytes !== undefined) {
      const share = byteShare();
      if (share === 0 || at <= startedAt) return 'ETA -:--';
      return `ETA ${duration(((at - startedAt) * (1 - share)) / share)}`;
    }
    const speed = perSecond(at);
    if (total === undefined || speed === null || speed === 0) return 'ETA -:--';
    return `ETA ${duration(((total - Math.min(count, total)) / speed) * 1000)}`;
  };
  const percent = (): number => {
    if (totalBytes !== undefined) return Math.floor(byteShare() * 100);
    return total === undefined ? 0 : Math.floor((Math.min(count, total) * 100) / total);
  };
  const measured = total !== undefined || totalBytes !== undefined;

  const ttyLine = (at: number, tail: string): string => {
    if (!measured) return `${label} ${count} snapshots  ${rate(perSecond(at))}  ${tail}`;
    const filled =
      totalBytes !== undefined
        ? Math.floor(byteShare() * BAR_WIDTH)
        : Math.floor((Math.min(count, total ?? 0) * BAR_WIDTH) / (total ?? 1));
    const bar = `${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}`;
    const done = total === undefined ? `${count} snapshots` : `${count}/${total}`;
    return `${label} [${bar}] ${String(percent()).padStart(3)}% ${done}  ${rate(perSecond(at))}  ${tail}`;
  };
  const drawTty = (line: string): void => {
    // Pad over the previous line's tail: `\r` moves the cursor but does not clear.
    stream.write(`\r${line.padEnd(drawnLength)}`);
    drawnLength = line.length;
  };
  const plainLine = (at: number): string => {
    if (!measured) return `${label}: ${count} snapshots, ${rate(perSecond(at))}\n`;
    const done = total === undefined ? `${count} snapshots` : `${count}/${total} snapshots`;
    return `${label}: ${percent()}% (${done}), ${rate(perSecond(at))}, ${eta(at)}\n`;
  };

  return {
    tick(n = 1, bytes?: number) {
      if (finished) return;
      count += n;
      if (bytes !== undefined && bytes > consumed) consumed = bytes;
      const at = now();
      if (isTTY) {
        if (lastWriteAt !== undefined && at - lastWriteAt < ttyInterval) return;
        lastWriteAt = at;
        drawTty(ttyLine(at, measured ? eta(at) : `${duration(at - startedAt)} elapsed`));
        return;
      }
      const tenth = measured ? Math.floor(percent() / 10) : 0;
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

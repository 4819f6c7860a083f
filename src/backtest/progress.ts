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

/** What has been counted so far, against what, since when: the numbers every line shows. */
class ProgressGauge {
  count = 0;
  /** Bytes of the input consumed (with `totalBytes`); only moves forward. */
  consumed = 0;

  constructor(
    /** Expected ticks, when known and positive. */
    readonly total: number | undefined,
    /** Input size in bytes, when known, positive and there is no `total`. */
    readonly totalBytes: number | undefined,
    readonly startedAt: number,
  ) {}

  /** Whether there is anything to measure against (a bar, a percentage, an ETA). */
  get measured(): boolean {
    return this.total !== undefined || this.totalBytes !== undefined;
  }

  perSecond(at: number): number | null {
    const elapsed = at - this.startedAt;
    return elapsed > 0 ? (this.count * 1000) / elapsed : null;
  }

  /** Share of the input consumed (0 to 1) when measured in bytes. */
  byteShare(): number {
    return Math.min(this.consumed, this.totalBytes ?? 0) / (this.totalBytes ?? 1);
  }

  eta(at: number): string {
    if (this.totalBytes !== undefined) {
      const share = this.byteShare();
      if (share === 0 || at <= this.startedAt) return 'ETA -:--';
      return `ETA ${duration(((at - this.startedAt) * (1 - share)) / share)}`;
    }
    const speed = this.perSecond(at);
    if (this.total === undefined || speed === null || speed === 0) return 'ETA -:--';
    return `ETA ${duration(((this.total - Math.min(this.count, this.total)) / speed) * 1000)}`;
  }

  percent(): number {
    if (this.totalBytes !== undefined) return Math.floor(this.byteShare() * 100);
    const total = this.total;
    return total === undefined ? 0 : Math.floor((Math.min(this.count, total) * 100) / total);
  }

  /** The bar: `#` for what is done, `.` for the rest. */
  bar(): string {
    const filled =
      this.totalBytes !== undefined
        ? Math.floor(this.byteShare() * BAR_WIDTH)
        : Math.floor((Math.min(this.count, this.total ?? 0) * BAR_WIDTH) / (this.total ?? 1));
    return `${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}`;
  }
}

/** The line a terminal redraws in place, ending with `tail` (the ETA, the elapsed time, "done"). */
function ttyLine(gauge: ProgressGauge, label: string, at: number, tail: string): string {
  const { count, total } = gauge;
  const speed = rate(gauge.perSecond(at));
  if (!gauge.measured) return `${label} ${count} snapshots  ${speed}  ${tail}`;
  const done = total === undefined ? `${count} snapshots` : `${count}/${total}`;
  return `${label} [${gauge.bar()}] ${String(gauge.percent()).padStart(3)}% ${done}  ${speed}  ${tail}`;
}

/** One line of a log (not a terminal). */
function plainLine(gauge: ProgressGauge, label: string, at: number): string {
  const { count, total } = gauge;
  if (!gauge.measured) return `${label}: ${count} snapshots, ${rate(gauge.perSecond(at))}\n`;
  const done = total === undefined ? `${count} snapshots` : `${count}/${total} snapshots`;
  return `${label}: ${gauge.percent()}% (${done}), ${rate(gauge.perSecond(at))}, ${gauge.eta(at)}\n`;
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
  const gauge = new ProgressGauge(total, totalBytes, now());
  const { startedAt } = gauge;
  let finished = false;
  let lastWriteAt: number | undefined;
  let lastTenth = 0;
  let drawnLength = 0;

  const drawTty = (line: string): void => {
    // Pad over the previous line's tail: `\r` moves the cursor but does not clear.
    stream.write(`\r${line.padEnd(drawnLength)}`);
    drawnLength = line.length;
  };

  return {
    tick(n = 1, bytes?: number) {
      if (finished) return;
      gauge.count += n;
      if (bytes !== undefined && bytes > gauge.consumed) gauge.consumed = bytes;
      const at = now();
      if (isTTY) {
        if (lastWriteAt !== undefined && at - lastWriteAt < ttyInterval) return;
        lastWriteAt = at;
        const tail = gauge.measured ? gauge.eta(at) : `${duration(at - startedAt)} elapsed`;
        drawTty(ttyLine(gauge, label, at, tail));
        return;
      }
      const tenth = gauge.measured ? Math.floor(gauge.percent() / 10) : 0;
      const quiet = at - (lastWriteAt ?? startedAt) >= plainInterval;
      if (tenth > lastTenth || quiet) {
        lastTenth = Math.max(lastTenth, tenth);
        lastWriteAt = at;
        if (tenth < 10) stream.write(plainLine(gauge, label, at));
      }
    },
    done() {
      if (finished) return;
      finished = true;
      const at = now();
      const took = duration(at - startedAt);
      if (isTTY) {
        drawTty(ttyLine(gauge, label, at, `done in ${took}`));
        stream.write('\n');
        return;
      }
      const speed = rate(gauge.perSecond(at));
      stream.write(`${label}: done, ${gauge.count} snapshots in ${took} (${speed})\n`);
    },
  };
}

import { stdout } from 'node:process';
import { systemClock } from '../clock/clock.ts';
import { RecordingWriter } from '../market/recording/index.ts';
import { resolveVenue } from '../runtime/embedded-venue.ts';
import { systemSleep as sleep, systemTimer } from '../clock/timers.ts';
import { createVenuePoller } from '../runtime/venue-poller.ts';
import { httpVenueReads } from '../venue/http-venue-client.ts';
import type { CommandInput } from './command-spec.ts';
import type { COMMANDS } from './commands.ts';
import { loadConfigFlag, loggerFor } from './common.ts';
import { ExitCode } from './exit-codes.ts';
import { parseDuration } from './parse-duration.ts';

/**
 * `quanta record`: polls the venue like a bot does (public market data only: no credentials,
 * no orders) and writes every snapshot to a recording in `--out`. Stops after `--duration`
 * (exit 0) or on SIGINT (exit 130) / SIGTERM (exit 0), closing the file cleanly either way.
 */
export async function run({ flags }: CommandInput<typeof COMMANDS.record>): Promise<number> {
  const durationMs =
    flags.duration === undefined ? undefined : parseDuration(flags.duration, '--duration');
  const config = await loadConfigFlag(flags.config, process.env);
  const log = loggerFor(config, process.stderr);
  const venue = await resolveVenue(config);
  const read = { baseUrl: venue.readUrl, timeoutMs: config.venue.timeoutMs };
  const writer = await RecordingWriter.open({
    dir: flags.out,
    gzip: flags.gzip,
    source: venue.embedded === undefined ? venue.readUrl : 'embedded paper venue',
  });
  const controller = new AbortController();
  let exitCode: number = ExitCode.OK;
  const onSignal = (signal: NodeJS.Signals): void => {
    exitCode = signal === 'SIGINT' ? ExitCode.INTERRUPTED : ExitCode.OK;
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const cancelTimer =
    durationMs === undefined ? undefined : systemTimer(durationMs, () => controller.abort());
  let count = 0;
  try {
    // The bot's poller wiring: no per-poll signal retained by the long-lived one.
    const poller = createVenuePoller({
      transport: httpVenueReads(read),
      poll: config.poll,
      now: systemClock.now,
      monotonic: systemClock.monotonic,
      sleep,
      log,
    });
    log.info({ out: flags.out, durationMs }, 'recording snapshots');
    const progress = recordProgress(process.stderr, systemClock.monotonic);
    await poller.run(async (snapshot) => {
      writer.write(snapshot);
      count += 1;
      progress.update(count, snapshot.markets.size, writer.bytesWritten);
      await writer.drained();
    }, controller.signal);
    progress.done();
    return exitCode;
  } finally {
    cancelTimer?.();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await writer.close();
    await venue.embedded?.close();
    stdout.write(`recorded ${count} snapshots to ${flags.out}\n`);
  }
}

/**
 * `quanta record`'s progress on a terminal: one line redrawn in place (at most ten times a
 * second) with snapshots, markets, bytes written and elapsed time. Not a terminal: nothing, the
 * log lines say what happens.
 */
export function recordProgress(
  stream: { isTTY?: boolean; write(text: string): unknown },
  now: () => number,
): { update(snapshots: number, markets: number, bytes: number): void; done(): void } {
  const startedAt = now();
  let drawnAt = -Infinity;
  let last = '';
  const line = (snapshots: number, markets: number, bytes: number): string => {
    const elapsed = Math.round((now() - startedAt) / 1000);
    const clock = `${Math.floor(elapsed / 60)}:${String(elapsed % 60).padStart(2, '0')}`;
    return `recording: ${snapshots} snapshots, ${markets} markets, ${(bytes / 1_000_000).toFixed(2)} MB, ${clock}`;
  };
  return {
    update(snapshots, markets, bytes) {
      if (stream.isTTY !== true || now() - drawnAt < 100) return;
      drawnAt = now();
      last = line(snapshots, markets, bytes);
      stream.write(`\r\x1b[2K${last}`);
    },
    done() {
      if (stream.isTTY === true && last !== '') stream.write('\n');
    },
  };
}

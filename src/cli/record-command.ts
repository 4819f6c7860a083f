import { stderr, stdout } from 'node:process';
import { RecordingWriter } from '../market/recording/index.ts';
import { resolveVenue } from '../runtime/embedded-venue.ts';
import { sleep } from '../runtime/sleep.ts';
import { createVenuePoller, httpReadTransport } from '../runtime/venue-poller.ts';
import { loadConfigFlag, loggerFor, parseFlags } from './common.ts';
import { ExitCode } from './exit-codes.ts';
import { parseDuration } from './parse-duration.ts';

const SYNOPSIS = 'quanta record --config FILE --out DIR [--duration D]';

/**
 * `quanta record`: polls the venue like a bot does (public market data only: no credentials,
 * no orders) and writes every snapshot to a recording in `--out`. Stops after `--duration`
 * (exit 0) or on SIGINT (exit 130) / SIGTERM (exit 0), closing the file cleanly either way.
 */
export async function runRecordCommand(args: readonly string[]): Promise<number> {
  const flags = parseFlags(
    args,
    {
      config: { type: 'string' },
      out: { type: 'string' },
      duration: { type: 'string' },
      gzip: { type: 'boolean' },
    },
    SYNOPSIS,
  );
  if (flags.out === undefined) {
    stderr.write(`quanta: --out DIR is required\nusage: ${SYNOPSIS}\n`);
    return ExitCode.USAGE;
  }
  const durationMs =
    flags.duration === undefined ? undefined : parseDuration(flags.duration, '--duration');
  const config = await loadConfigFlag(flags.config, process.env);
  const log = loggerFor(config, process.stderr);
  const venue = await resolveVenue(config);
  const read = { baseUrl: venue.readUrl, timeoutMs: config.venue.timeoutMs };
  const writer = await RecordingWriter.open({
    dir: flags.out,
    gzip: flags.gzip === true,
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
  const timer =
    durationMs === undefined ? undefined : setTimeout(() => controller.abort(), durationMs);
  let count = 0;
  try {
    // The bot's poller wiring: no per-poll signal retained by the long-lived one.
    const poller = createVenuePoller({
      transport: httpReadTransport(read),
      poll: config.poll,
      now: Date.now,
      sleep,
      log,
    });
    log.info({ out: flags.out, durationMs }, 'recording snapshots');
    await poller.run(async (snapshot) => {
      writer.write(snapshot);
      count += 1;
      await writer.drained();
    }, controller.signal);
    return exitCode;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await writer.close();
    await venue.embedded?.close();
    stdout.write(`recorded ${count} snapshots to ${flags.out}\n`);
  }
}

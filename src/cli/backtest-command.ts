import { systemClock } from '../clock/clock.ts';
import { resolve } from 'node:path';
import { stderr, stdout } from 'node:process';
import { resolveFillModel, type FillModel } from '../backtest/fill-model.ts';
import { formatSummary } from '../backtest/format-summary.ts';
import { computeMetrics } from '../backtest/metrics.ts';
import { createProgress, type Progress } from '../backtest/progress.ts';
import { buildReport, serializeReport } from '../backtest/report-json.ts';
import { writeReport } from '../backtest/write-report.ts';
import { runBacktest } from '../backtest/run-backtest.ts';
import { createLogger } from '../log/logger.ts';
import type { Config } from '../config/index.ts';
import { ErrorCodes, isQuantaError, QuantaError } from '../errors/index.ts';
import type { CommandInput } from './command-spec.ts';
import type { COMMANDS } from './commands.ts';
import { loadConfigFlag, PROJECT_ROOT } from './common.ts';

/**
 * `quanta backtest`: replays a recording through the config's strategies, sizing and checks
 * against the simulation, prints a summary (or the JSON report with `--json`) and writes
 * report.json + report.html with `--report DIR`. A progress bar goes to stderr. `--repair`
 * replays a recording with duplicated, swapped or back-dated snapshot lines without them, and
 * prints how many it dropped; without it such a recording is an error naming file:line. The fill
 * model flags replace the config's `backtest:` values for this run.
 */
export async function run({ flags }: CommandInput<typeof COMMANDS.backtest>): Promise<number> {
  const config = await loadConfigFlag(flags.config, process.env);
  const fillModel = fillModelOf(config, flags);
  let progress: Progress | undefined;
  const trace = await runBacktest({
    config,
    data: resolve(flags.data),
    projectRoot: PROJECT_ROOT,
    log: createLogger({ level: 'warn', destination: process.stderr }),
    repair: flags.repair,
    fillModel,
    onRepaired: (dropped) => {
      const noun = dropped === 1 ? 'snapshot' : 'snapshots';
      stderr.write(`repair: dropped ${dropped} ${noun} whose seq or takenAt did not increase\n`);
    },
    onStart: (recordingBytes) => {
      // One pass over the recording: the bar follows the bytes read of its files.
      progress = createProgress({
        ...(recordingBytes === undefined ? {} : { totalBytes: recordingBytes }),
        stream: stderr,
        isTTY: stderr.isTTY,
        now: systemClock.monotonic,
        label: 'backtest',
      });
    },
    onProgress: (_done, bytesRead) => progress?.tick(1, bytesRead),
  });
  progress?.done();
  const metrics = computeMetrics(trace);
  const report = buildReport(trace, metrics);
  if (flags.report !== undefined) {
    const written = await writeReport(flags.report, report);
    stderr.write(`report written: ${written.htmlPath}\n`);
  }
  stdout.write(flags.json ? serializeReport(report) : formatSummary(metrics, trace));
  return 0;
}

/** The fill model flags as typed (`quanta compare` has all but `--starting-capital`). */
interface FillModelFlags {
  readonly 'latency-ms': string | undefined;
  readonly 'slippage-bps': string | undefined;
  readonly 'maker-fee-bps': string | undefined;
  readonly 'taker-fee-bps': string | undefined;
  readonly 'starting-capital'?: string | undefined;
}

/**
 * The fill model of the run; a malformed flag value is a usage error (exit 2), for which the
 * CLI prints the usage of the command that was run.
 */
export function fillModelOf(config: Config, flags: FillModelFlags): FillModel {
  try {
    // A refusal names the flag as typed (--latency-ms), not the config key it overrides.
    return resolveFillModel(
      config.backtest,
      {
        latencyMs: flags['latency-ms'],
        slippageBps: flags['slippage-bps'],
        makerFeeBps: flags['maker-fee-bps'],
        takerFeeBps: flags['taker-fee-bps'],
        startingCapital: flags['starting-capital'],
      },
      {
        latencyMs: '--latency-ms',
        slippageBps: '--slippage-bps',
        makerFeeBps: '--maker-fee-bps',
        takerFeeBps: '--taker-fee-bps',
        startingCapital: '--starting-capital',
      },
    );
  } catch (error) {
    if (!isQuantaError(error, ErrorCodes.BACKTEST_INVALID_OPTION)) throw error;
    throw new QuantaError(ErrorCodes.USAGE, error.message, { cause: error });
  }
}

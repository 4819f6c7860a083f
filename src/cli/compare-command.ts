import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stderr, stdout } from 'node:process';
import { compareRuns, readJournalOrders } from '../backtest/compare.ts';
import {
  formatCompareSummary,
  serializeCompare,
  writeCompareReport,
} from '../backtest/compare-report.ts';
import { liveLatencies } from '../backtest/live-latency.ts';
import { computeMetrics } from '../backtest/metrics.ts';
import { runBacktest } from '../backtest/run-backtest.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { createLogger } from '../log/logger.ts';
import { parseSignedDecimalToX18 } from '../money/index.ts';
import { fillModelOf } from './backtest-command.ts';
import type { CommandInput } from './command-spec.ts';
import type { COMMANDS } from './commands.ts';
import { loadConfigFlag, PROJECT_ROOT } from './common.ts';

/**
 * The journal of a state dir: `journal.sqlite` in it (a real venue's) or in its `paper/` folder
 * (an embedded paper run's); a path to the file itself works too.
 */
export function findJournal(path: string): string {
  const candidates = [path, join(path, 'journal.sqlite'), join(path, 'paper', 'journal.sqlite')];
  const found = candidates.find((file) => file.endsWith('.sqlite') && existsSync(file));
  if (found === undefined) {
    throw new QuantaError(ErrorCodes.USAGE, `--journal ${path}: no journal.sqlite there`, {
      details: [
        'Give the state.dir of the run (or its paper/ folder, or the journal.sqlite file).',
      ],
    });
  }
  return found;
}

/**
 * `quanta compare`: backtests the recording a live run made of its own snapshots (`record:`)
 * with the same config, each order arriving after the latency its live twin measured (unless
 * `--latency-ms` sets one for all; `liveLatencies`), pairs every live order of the run's journal with its backtest twin,
 * prints the counts and the PnL gap split into slippage, fees, missed and extra fills (or the
 * JSON with `--json`), and writes compare.json + compare.html with `--report DIR`.
 */
export async function run({ flags }: CommandInput<typeof COMMANDS.compare>): Promise<number> {
  const config = await loadConfigFlag(flags.config, process.env);
  const fillModel = fillModelOf(config, flags);
  const journalPath = findJournal(resolve(flags.journal));
  const liveOrders = readJournalOrders(journalPath);
  // Each backtest order arrives as late as its live twin did, unless --latency-ms says otherwise.
  const latencies = flags['latency-ms'] === undefined ? liveLatencies(liveOrders) : undefined;
  const trace = await runBacktest({
    config,
    data: resolve(flags.data),
    projectRoot: PROJECT_ROOT,
    log: createLogger({ level: 'warn', destination: process.stderr }),
    fillModel,
    // Live orders are placed on the recording's snapshots by time.
    keepTimeline: true,
    ...(latencies === undefined
      ? {}
      : { orderLatency: (order, from, before) => latencies.latencyOf(order, from, before) }),
  });
  const metrics = computeMetrics(trace);
  const backtestPnlX18 = parseSignedDecimalToX18(metrics.total.netPnl, 'backtest net PnL');
  const report = compareRuns(
    liveOrders,
    trace,
    backtestPnlX18,
    journalPath,
    latencies === undefined ? {} : { latency: latencies.describe() },
  );
  if (flags.report !== undefined) {
    const written = await writeCompareReport(flags.report, report);
    stderr.write(`compare report written: ${written.htmlPath}\n`);
  }
  stdout.write(flags.json ? serializeCompare(report) : formatCompareSummary(report));
  return 0;
}

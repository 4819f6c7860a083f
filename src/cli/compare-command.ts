import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stderr, stdout } from 'node:process';
import { compareRuns, readJournalOrders } from '../backtest/compare.ts';
import {
  formatCompareSummary,
  serializeCompare,
  writeCompareReport,
} from '../backtest/compare-report.ts';
import { computeMetrics } from '../backtest/metrics.ts';
import { runBacktest } from '../backtest/run-backtest.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { createLogger } from '../log/logger.ts';
import { parseSignedDecimalToX18 } from '../money/index.ts';
import { fillModelOf } from './backtest-command.ts';
import { loadConfigFlag, parseFlags, PROJECT_ROOT } from './common.ts';

const SYNOPSIS =
  'quanta compare --journal STATE_DIR --data PATH [--config FILE] [--report DIR] [--json] [--latency-ms N] [--slippage-bps N] [--maker-fee-bps N] [--taker-fee-bps N]';

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
        `usage: ${SYNOPSIS}`,
      ],
    });
  }
  return found;
}

/**
 * `quanta compare`: backtests the recording a live run made of its own snapshots (`record:`)
 * with the same config, pairs every live order of the run's journal with its backtest twin,
 * prints the counts and the PnL gap split into slippage, fees, missed and extra fills (or the
 * JSON with `--json`), and writes compare.json + compare.html with `--report DIR`.
 */
export async function runCompareCommand(args: readonly string[]): Promise<number> {
  const flags = parseFlags(
    args,
    {
      journal: { type: 'string' },
      data: { type: 'string' },
      config: { type: 'string' },
      report: { type: 'string' },
      json: { type: 'boolean' },
      'latency-ms': { type: 'string' },
      'slippage-bps': { type: 'string' },
      'maker-fee-bps': { type: 'string' },
      'taker-fee-bps': { type: 'string' },
    },
    SYNOPSIS,
  );
  if (flags.journal === undefined || flags.data === undefined) {
    throw new QuantaError(ErrorCodes.USAGE, '--journal STATE_DIR and --data PATH are required', {
      details: [`usage: ${SYNOPSIS}`],
    });
  }
  const journalPath = findJournal(resolve(flags.journal));
  const config = await loadConfigFlag(flags.config, process.env);
  const trace = await runBacktest({
    config,
    data: resolve(flags.data),
    projectRoot: PROJECT_ROOT,
    log: createLogger({ level: 'warn', destination: process.stderr }),
    fillModel: fillModelOf(config, flags),
    // Live orders are placed on the recording's snapshots by time.
    keepTimeline: true,
  });
  const metrics = computeMetrics(trace);
  const liveOrders = readJournalOrders(journalPath);
  const backtestPnlX18 = parseSignedDecimalToX18(metrics.total.netPnl, 'backtest net PnL');
  const report = compareRuns(liveOrders, trace, backtestPnlX18, journalPath);
  if (flags.report !== undefined) {
    const written = await writeCompareReport(flags.report, report);
    stderr.write(`compare report written: ${written.htmlPath}\n`);
  }
  stdout.write(flags.json === true ? serializeCompare(report) : formatCompareSummary(report));
  return 0;
}

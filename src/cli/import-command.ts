import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { stderr, stdout } from 'node:process';
import { createProgress } from '../backtest/progress.ts';
import { systemClock } from '../clock/clock.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import {
  HISTORY_KINDS,
  importHistory,
  isoOfMs,
  parseColumnMapping,
  readMarketRules,
  type HistoryKind,
  type ImportSummary,
  type MarketRules,
} from '../market/history/index.ts';
import { resolveVenue } from '../runtime/embedded-venue.ts';
import { listMarkets } from '../venue/endpoints/index.ts';
import type { CommandInput } from './command-spec.ts';
import type { COMMANDS } from './commands.ts';
import { loadConfigFlag } from './common.ts';

const usage = (message: string): QuantaError => new QuantaError(ErrorCodes.USAGE, message);

const CSV_NAME = /\.csv(\.gz)?$/;

/** `--in`: files as given (comma-separated); a folder stands for its CSV files in name order. */
export async function inputFiles(text: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of text.split(',').filter((e) => e !== '')) {
    let isDir = false;
    try {
      isDir = (await stat(entry)).isDirectory();
    } catch (error) {
      throw new QuantaError(ErrorCodes.HISTORY_INVALID, `--in ${entry}: no such file or folder`, {
        cause: error,
      });
    }
    if (!isDir) {
      files.push(entry);
      continue;
    }
    const names = (await readdir(entry)).filter((n) => CSV_NAME.test(n)).sort();
    if (names.length === 0)
      throw new QuantaError(
        ErrorCodes.HISTORY_INVALID,
        `--in ${entry}: no .csv or .csv.gz file in it`,
      );
    files.push(...names.map((n) => join(entry, n)));
  }
  if (files.length === 0) throw usage('--in: no file given');
  return files;
}

/**
 * The market: from a rules file (a path ending in .yaml, .yml or .json), or the venue's listing
 * of the symbol (the venue of `--config`, embedded paper venue included).
 */
async function marketOf(flag: string, configPath: string): Promise<MarketRules> {
  if (/\.(ya?ml|json)$/.test(flag)) return readMarketRules(flag);
  const config = await loadConfigFlag(configPath, process.env);
  const venue = await resolveVenue(config);
  try {
    // The read's own timeout (timeoutMs) bounds it.
    const markets = await listMarkets({
      baseUrl: venue.readUrl,
      timeoutMs: config.venue.timeoutMs,
    });
    const market = markets.find((m) => m.symbol === flag);
    if (market === undefined)
      throw usage(
        `--market ${flag}: the venue of ${configPath} lists no such symbol (it lists ${markets
          .map((m) => m.symbol)
          .join(', ')}); or give a rules file (.yaml/.json)`,
      );
    return { market, sourceSymbol: undefined };
  } finally {
    await venue.embedded?.close();
  }
}

/** The summary printed after an import. */
export function formatImportSummary(summary: ImportSummary): string {
  const skipped = Object.entries(summary.skipped).filter(([, n]) => n > 0);
  const lines = [
    `imported ${summary.timeframe === undefined ? `${summary.snapshots} snapshots` : `${summary.snapshots} ${summary.timeframe} candles`} from ${summary.rows} rows of ${summary.files.length} file${summary.files.length === 1 ? '' : 's'} (layout ${[...new Set(summary.layouts)].join(', ')}${summary.symbol === undefined ? '' : `, symbol ${summary.symbol}`})`,
    summary.firstMs === undefined || summary.lastMs === undefined
      ? ''
      : `time ${isoOfMs(summary.firstMs)} to ${isoOfMs(summary.lastMs)}`,
    summary.superseded > 0
      ? `${summary.superseded} rows shared a millisecond with the next row (a finer source, or updates stamped with one time): the last row of each millisecond is its snapshot`
      : '',
    skipped.length > 0
      ? `skipped ${skipped.reduce((n, [, k]) => n + k, 0)} rows: ${skipped.map(([kind, n]) => `${n} ${kind}`).join(', ')}`
      : '',
    ...summary.examples.map((e) => `  ${e.file}:${e.line}: ${e.reason}`),
    `recording: ${summary.recording.join(', ')}`,
  ];
  return `${lines.filter((l) => l !== '').join('\n')}\n`;
}

/** `quanta import`: CSV history into a recording (see the table entry in commands.ts). */
export async function run({ flags }: CommandInput<typeof COMMANDS.import>): Promise<number> {
  if (!(HISTORY_KINDS as readonly string[]).includes(flags.kind))
    throw usage(`--kind must be ${HISTORY_KINDS.join(', ')}, got ${JSON.stringify(flags.kind)}`);
  const kind = flags.kind as HistoryKind;
  if (flags['on-bad'] !== 'fail' && flags['on-bad'] !== 'skip')
    throw usage(`--on-bad must be fail or skip, got ${JSON.stringify(flags['on-bad'])}`);
  const mapping = parseColumnMapping(kind, flags.columns);
  if (typeof mapping === 'string') throw usage(mapping);
  const files = await inputFiles(flags.in);
  const rules = await marketOf(flags.market, flags.config);
  let progress: ReturnType<typeof createProgress> | undefined;
  let done = 0;
  const summary = await importHistory({
    kind,
    market: rules.market,
    sourceSymbol: rules.sourceSymbol,
    files,
    out: flags.out,
    mapping,
    onBad: flags['on-bad'],
    now: systemClock.now,
    // A line redrawn on a terminal; elsewhere the summary says it all.
    onProgress: (rows, bytes, totalBytes) => {
      if (stderr.isTTY !== true) return;
      progress ??= createProgress({
        totalBytes,
        stream: stderr,
        isTTY: stderr.isTTY,
        now: systemClock.monotonic,
        label: 'import',
      });
      progress.tick(rows - done, bytes);
      done = rows;
    },
  });
  progress?.done();
  stdout.write(formatImportSummary(summary));
  return 0;
}

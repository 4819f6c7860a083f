/**
 * One table for `npm run bench` (issue 17, item 7). Every benchmark measures its figure and the
 * figure's honest baseline in the same run, round after round (paired, interleaved), and reports
 * each figure here with its goal. `run.ts` collects the figures of every benchmark process and
 * prints one table: figure, goal, min / median / max over the rounds, and whether the median
 * meets the goal. A missed goal is printed, never a failure: benchmarks fail only on a crash or a
 * wrong answer, never on noise.
 *
 * @example
 *   reportFigure({
 *     name: 'live signing / raw secp256k1',
 *     measures: 'orderSigningKey(…).signOrderBody: digest and signature of an order body',
 *     baseline: 'secp256k1.sign of @noble/curves on the same precomputed digests',
 *     goal: { atLeast: 0.9 },
 *     unit: 'x',
 *     rounds: [0.93, 0.95, 0.91],
 *   });
 */
import { appendFileSync } from 'node:fs';

/** A goal the median of the rounds is held to. */
export type FigureGoal = { readonly atLeast: number } | { readonly atMost: number };

export interface BenchFigure {
  /** What is measured, with its baseline: `backtest do-nothing rows/s / naive decode`. */
  readonly name: string;
  /** What the measured side does, in a phrase a reader can re-run: printed with the figure. */
  readonly measures: string;
  /** What the baseline it is held against does (`none` for an absolute figure, and why). */
  readonly baseline: string;
  readonly goal: FigureGoal;
  /** `x` for a ratio, or a unit such as `ms`, `MB`, `fsync/order`, `429s`. */
  readonly unit: string;
  /** One value per round (at least 3 paired rounds where the figure is a ratio). */
  readonly rounds: readonly number[];
}

/** The env var through which `run.ts` tells each benchmark process where to append figures. */
export const FIGURES_FILE_ENV = 'QUANTA_BENCH_FIGURES';

export function summarize(rounds: readonly number[]): { min: number; median: number; max: number } {
  if (rounds.length === 0) throw new Error('a figure needs at least one round');
  const sorted = [...rounds].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { min: sorted[0]!, median, max: sorted[sorted.length - 1]! };
}

export function meetsGoal(figure: BenchFigure): boolean {
  const { median } = summarize(figure.rounds);
  return 'atLeast' in figure.goal ? median >= figure.goal.atLeast : median <= figure.goal.atMost;
}

export function describeGoal(goal: FigureGoal): string {
  return 'atLeast' in goal ? `>= ${String(goal.atLeast)}` : `<= ${String(goal.atMost)}`;
}

/**
 * Records one figure: printed at once by the benchmark and appended (one JSON line) to the file
 * `run.ts` collects, when the benchmark runs under `npm run bench`.
 */
export function reportFigure(figure: BenchFigure): void {
  if (!Number.isFinite(figure.rounds.length) || figure.rounds.some((v) => !Number.isFinite(v))) {
    throw new Error(`figure ${figure.name}: every round must be a finite number`);
  }
  const { min, median, max } = summarize(figure.rounds);
  console.log(
    `  figure: ${figure.name}: median ${formatAgainstGoal(median, figure.goal)}${figure.unit} ` +
      `(min ${formatAgainstGoal(min, figure.goal)}, max ${formatAgainstGoal(max, figure.goal)}, ${String(figure.rounds.length)} rounds; ` +
      `goal ${describeGoal(figure.goal)}${figure.unit}${meetsGoal(figure) ? '' : ', NOT MET'})`,
  );
  console.log(`    measured: ${figure.measures}`);
  console.log(`    baseline: ${figure.baseline}`);
  const file = process.env[FIGURES_FILE_ENV];
  if (file !== undefined && file !== '') appendFileSync(file, `${JSON.stringify(figure)}\n`);
}

/**
 * `value` as `formatValue` prints it, with more significant digits when two would print it as
 * the goal's own number while it is not (0.347 against a goal of 0.35 reads 0.347, not 0.35;
 * 0.7996 against 0.8 reads 0.7996, not 0.800).
 */
export function formatAgainstGoal(value: number, goal: FigureGoal): string {
  const target = 'atLeast' in goal ? goal.atLeast : goal.atMost;
  const text = formatValue(value);
  if (text !== formatValue(target) || value === target) return text;
  // As many significant digits as it takes to read different from the goal (0.7996, not 0.800).
  for (let digits = 3; digits < 12; digits++) {
    const longer = value.toPrecision(digits);
    if (Number(longer) !== target) return longer;
  }
  return String(value);
}

export function formatValue(value: number): string {
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  if (magnitude >= 1000) return Math.round(value).toLocaleString('en-US');
  if (magnitude >= 10) return value.toFixed(1);
  if (magnitude >= 0.01) return value.toFixed(2);
  return value.toPrecision(2);
}

/** The one table `run.ts` prints after every benchmark ran. */
export function formatFigureTable(figures: readonly BenchFigure[]): string {
  const header = ['figure', 'goal', 'min', 'median', 'max', 'rounds', 'met'];
  const rows = figures.map((figure) => {
    const { min, median, max } = summarize(figure.rounds);
    const unit = figure.unit;
    return [
      figure.name,
      `${describeGoal(figure.goal)}${unit}`,
      `${formatAgainstGoal(min, figure.goal)}${unit}`,
      `${formatAgainstGoal(median, figure.goal)}${unit}`,
      `${formatAgainstGoal(max, figure.goal)}${unit}`,
      String(figure.rounds.length),
      meetsGoal(figure) ? 'yes' : 'NO',
    ];
  });
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** The markers in README.md between which `npm run bench` writes its table (and nothing else does). */
export const README_START = '<!-- bench:start (written by npm run bench; do not edit by hand) -->';
export const README_END = '<!-- bench:end -->';

/** Where and when a table was measured: printed above it. */
export interface RunInfo {
  /** UTC, minutes: `2026-11-26 21:30`. */
  readonly at: string;
  readonly node: string;
  readonly cpus: number;
  /** 1-minute load average when the run started and when it ended. */
  readonly loadBefore: number;
  readonly loadAfter: number;
  /** Wall time of the whole run, seconds. */
  readonly seconds: number;
}

/**
 * The README's Benchmarks block: one line saying which run it is, the figure table, then what
 * each figure measures and against what, in the order the benchmarks reported them. Markdown that
 * prettier leaves as it is (plain ASCII, cells padded to their column's width).
 */
export function formatReadmeBlock(figures: readonly BenchFigure[], run: RunInfo): string {
  const met = figures.filter(meetsGoal).length;
  return [
    `Generated by \`npm run bench\` on ${run.at} UTC (Node ${run.node}, ${String(run.cpus)} CPUs, ` +
      `load average ${run.loadBefore.toFixed(2)} at the start and ${run.loadAfter.toFixed(2)} at the ` +
      `end, ${String(Math.round(run.seconds / 60))} minutes); every figure of that one run, ` +
      `${String(met)} of ${String(figures.length)} goals met. Median of the rounds, with their min and max.`,
    '',
    formatFigureTable(figures),
    '',
    'What each figure measures, and against what:',
    '',
    ...figures.map(
      (figure) => `- **${figure.name}**: ${figure.measures}. Baseline: ${figure.baseline}.`,
    ),
  ].join('\n');
}

/** What `npm run bench` keeps of a whole run (test/bench/last-run.json), the README's source. */
export interface RecordedRun {
  readonly run: RunInfo;
  readonly figures: readonly BenchFigure[];
}

/** The README's block until a whole run has been recorded (no last-run.json yet). */
export const NO_RUN_BLOCK =
  'No whole `npm run bench` run is recorded yet (no test/bench/last-run.json): a whole run ' +
  'writes its table here.';

/** The file, beside this one, in which a whole run's figures are kept with their rounds. */
export const LAST_RUN_FILE = 'last-run.json';

/** The text between README.md's two markers (trimmed); throws without them. */
export function readmeBlock(readme: string): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start || readme.indexOf(README_START, start + 1) >= 0)
    throw new Error(`README.md: expected one ${README_START} followed by ${README_END}`);
  return readme.slice(start + README_START.length, end).trim();
}

/** `readme` with the text between its two markers replaced by `block`; throws without them. */
export function replaceReadmeBlock(readme: string, block: string): string {
  readmeBlock(readme);
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  return `${readme.slice(0, start + README_START.length)}\n\n${block}\n\n${readme.slice(end)}`;
}

import { MONEY_DECIMALS } from '../money/index.ts';
import { describeDataKind } from './data-kind.ts';
import { annualizedCaveat } from './annualized-caveat.ts';
import { displayDecimal, displayShare } from './display-decimal.ts';
import { describeFillModel } from './fill-model.ts';
import type { BacktestMetrics, PnlMetrics } from './metrics.ts';
import type { BacktestTrace } from './trace.ts';
import { describeWarmup } from './warmup-text.ts';

/** What the summary says about the run beyond its metrics. */
export type SummaryRun = Pick<
  BacktestTrace,
  'startedAt' | 'endedAt' | 'instances' | 'intents' | 'dataKind' | 'timeframe'
>;

/** Lays out rows under headers: first column left-aligned, the rest right-aligned. */
function textTable(headers: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)];
}

function money(value: string): string {
  return displayDecimal(value, MONEY_DECIMALS);
}

function ratio(value: string | null): string {
  return value === null ? 'n/a' : displayDecimal(value, 2);
}

function percent(value: string): string {
  return `${displayDecimal(value, 2)}%`;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function counts(entries: Readonly<Record<string, number | undefined>>): string {
  const parts = Object.entries(entries).map(([key, n]) => `${key} ${n ?? 0}`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}

/** The annualized ratios' caveat, when some ratio is shown and the run is short. */
function caveatLines(metrics: BacktestMetrics, run: SummaryRun | undefined): string[] {
  if (run === undefined) return [];
  const shown = [metrics.total, ...metrics.markets, ...metrics.strategies].some(
    (m) => m.sharpe !== null || m.sortino !== null,
  );
  const caveat = annualizedCaveat(metrics.samples, Math.max(0, run.endedAt - run.startedAt));
  return shown && caveat !== undefined ? ['', `Read with care: ${caveat}`] : [];
}

/** One row per strategy instance (two of one module with other params are two rows). */
function strategyLines(metrics: BacktestMetrics): string[] {
  if (metrics.strategies.length === 0) return [];
  return [
    '',
    ...textTable(
      ['strategy', 'net', 'return', 'fees', 'max DD %', 'Sharpe', 'win rate', 'orders', 'refused'],
      metrics.strategies.map((s) => [
        s.strategy,
        money(s.netPnl),
        percent(s.returnPct),
        money(s.fees),
        percent(s.maxDrawdownPct),
        ratio(s.sharpe),
        displayShare(s.winRate),
        String(s.orders.total),
        String(s.refusals.total),
      ]),
    ),
  ];
}

/** One line per instance that declares a warm-up: when it ended, or what it waited for. */
function warmupLines(run: SummaryRun | undefined): string[] {
  if (run === undefined) return [];
  return run.instances.flatMap((instance) =>
    instance.warmup === undefined
      ? []
      : [`Warm-up: ${describeWarmup(instance.name, instance.warmup, run.startedAt)}`],
  );
}

/** The markets of the first line: those traded, or why none was when the run tells. */
function marketsPart(metrics: BacktestMetrics, run: SummaryRun | undefined): string {
  if (metrics.markets.length > 0) return plural(metrics.markets.length, 'market');
  const configured = [...new Set(run?.instances.flatMap((i) => i.markets) ?? [])];
  if (run === undefined || configured.length === 0) return 'no market traded';
  const cold = run.instances.filter((i) => i.warmup !== undefined && 'waitingFor' in i.warmup);
  const why =
    metrics.snapshots === 0
      ? 'the recording has no snapshots'
      : cold.length > 0 && run.intents.length === 0
        ? `${cold.map((i) => i.name).join(', ')} never warmed up (see Warm-up)`
        : run.intents.length === 0
          ? 'the strategies asked for no orders'
          : metrics.refusals.total > 0 && metrics.total.orders.total === 0
            ? `all ${plural(run.intents.length, 'intent')} refused (reasons below)`
            : undefined;
  return `nothing traded on ${configured.join(', ')} (configured)${why === undefined ? '' : `: ${why}`}`;
}

/**
 * A terminal summary of backtest metrics that a person can read: the run, a PnL table and a
 * risk table (one row per market and a total row, aligned columns), one row per strategy
 * instance, orders by outcome and refusals by reason. Money is rounded to the cent for reading
 * (the JSON report keeps it exact); undefined ratios show as `n/a`, and ratios annualized from
 * a short run carry the HTML report's caveat (`annualizedCaveat`). Deterministic; ends with a
 * newline.
 *
 * @param metrics - from `computeMetrics`.
 * @param run - the trace: its span (for the caveat), its configured markets and intents (to say
 *   why nothing traded).
 * @example
 * process.stdout.write(formatSummary(computeMetrics(trace), trace));
 */
export function formatSummary(metrics: BacktestMetrics, run?: SummaryRun): string {
  const t = metrics.total;
  const named: { name: string; m: PnlMetrics; position: string }[] = [
    ...metrics.markets.map((m) => ({ name: m.symbol, m, position: m.finalPosition })),
    { name: 'TOTAL', m: t, position: '' },
  ];
  const interval = metrics.snapshotIntervalMs > 0 ? `, every ${metrics.snapshotIntervalMs} ms` : '';
  const lines = [
    `Backtest: ${plural(metrics.snapshots, 'snapshot')}${interval}, ${marketsPart(metrics, run)}, starting capital ${displayDecimal(metrics.startingCapital, MONEY_DECIMALS, true)}`,
    `Fill model: ${describeFillModel(metrics.fillModel)}`,
    // Candles fill by their own rule, whose caveat a reader must see (data-kind.ts).
    ...(run?.dataKind === 'candles' ? [`Data: ${describeDataKind('candles', run.timeframe)}`] : []),
    ...warmupLines(run),
    `Net PnL ${money(t.netPnl)} (${percent(t.returnPct)}), final equity ${money(t.finalEquity)}, max drawdown ${money(t.maxDrawdown)} (${percent(t.maxDrawdownPct)})`,
    '',
    ...textTable(
      ['market', 'realized', 'unrealized', 'fees', 'net', 'turnover', 'position'],
      named.map(({ name, m, position }) => [
        name,
        money(m.realizedPnl),
        money(m.unrealizedPnl),
        money(m.fees),
        money(m.netPnl),
        money(m.turnover),
        position,
      ]),
    ),
    '',
    ...textTable(
      ['market', 'max DD', 'max DD %', 'Sharpe', 'Sortino', 'win rate', 'in market', 'orders'],
      named.map(({ name, m }) => [
        name,
        money(m.maxDrawdown),
        percent(m.maxDrawdownPct),
        ratio(m.sharpe),
        ratio(m.sortino),
        displayShare(m.winRate),
        displayShare(m.exposure.timeInMarket),
        String(m.orders.total),
      ]),
    ),
    ...strategyLines(metrics),
    ...caveatLines(metrics, run),
    '',
    `Orders (${t.orders.total}): ${counts(t.orders.byState)}`,
    `Refusals (${metrics.refusals.total}): ${counts(metrics.refusals.byReason)}`,
  ];
  return `${lines.join('\n')}\n`;
}

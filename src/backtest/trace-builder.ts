import { isAbsolute, relative, sep } from 'node:path';
import type { Config } from '../config/index.ts';
import type { Market } from '../domain/index.ts';
import type { ExecutorStats } from '../execution/executor.ts';
import type { OrderRecord } from '../execution/order-record.ts';
import type { ProducedIntent } from '../stack/trading-session.ts';
import type { StrategyWarmup } from '../strategy/bars/warmup.ts';
import type { BarChart } from '../strategy/bars/bar-chart.ts';
import type { PreparedStrategy } from '../strategy/prepare-strategies.ts';
import type { DataKind } from './data-kind.ts';
import type { FillModel } from './fill-model.ts';
import type { RunMeasured } from './measurements.ts';
import { paramUses } from './param-sources.ts';
import type { BacktestTrace, FillEvent, LiquidationEvent, StrategyInstance } from './trace.ts';

/** What a finished replay hands to {@link buildTrace}. */
export interface TraceParts {
  /** The recording file(s) as given. */
  readonly data: string | readonly string[];
  readonly projectRoot: string;
  readonly config: Config;
  readonly strategies: readonly PreparedStrategy[];
  readonly fillModel: FillModel;
  /** Candle history: the candles' timeframe. */
  readonly timeframe: string | undefined;
  /** Instance names, as the session knows them. */
  readonly instanceNames: readonly string[];
  readonly warmups: Readonly<Record<string, StrategyWarmup>>;
  /** Each instance's kept bars and indicator values (`TradingSession.barCharts`). */
  readonly barCharts: readonly BarChart[];
  /** Every market seen, with the fill model's fees. */
  readonly markets: ReadonlyMap<number, Market>;
  readonly dataKind: DataKind;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly snapshots: number;
  readonly measured: RunMeasured;
  readonly orders: readonly OrderRecord[];
  readonly stats: ExecutorStats;
  readonly fills: readonly FillEvent[];
  readonly intents: readonly ProducedIntent[];
  readonly liquidations: readonly LiquidationEvent[];
}

/** The trace of a finished backtest, from what its replay kept and measured. */
export function buildTrace(parts: TraceParts): BacktestTrace {
  const { config, markets, measured } = parts;
  return {
    data: typeof parts.data === 'string' ? parts.data : parts.data.join(','),
    strategies: parts.instanceNames,
    symbols: new Map([...markets.values()].map((m) => [m.id, m.symbol])),
    precision: new Map(
      [...markets.values()].map((m) => [
        m.id,
        { priceExpo: m.priceExpo, amountExpo: m.amountExpo },
      ]),
    ),
    margins: new Map(
      [...markets.values()].map((m) => [
        m.id,
        {
          type: m.type,
          initialMarginX18: m.initialMarginX18,
          maintenanceMarginX18: m.maintenanceMarginX18,
        },
      ]),
    ),
    snapshotIntervalMs: measured.snapshotIntervalMs,
    dataKind: parts.dataKind,
    ...(parts.timeframe === undefined ? {} : { timeframe: parts.timeframe }),
    startedAt: parts.startedAt,
    endedAt: parts.endedAt,
    snapshots: parts.snapshots,
    fillModel: parts.fillModel,
    samples: measured.samples,
    sampleCount: parts.snapshots,
    measured: measured.measured,
    ...(measured.timeline === undefined ? {} : { timeline: measured.timeline }),
    orders: parts.orders,
    refusals: parts.stats.refusals,
    instances: instancesOf(parts),
    refusalsByStrategy: parts.stats.refusalsByStrategy,
    config: {
      risk: {
        ...config.risk,
        ...(config.risk.killSwitchFile === undefined
          ? {}
          : { killSwitchFile: displayPath(config.risk.killSwitchFile, parts.projectRoot) }),
      },
      execution: { orderTtlMs: config.execution.orderTtlMs },
      backtest: config.backtest,
      paper: { seed: config.paper.seed },
    },
    finalMarks: measured.finalMarks,
    fills: parts.fills,
    plots: measured.plots,
    barCharts: parts.barCharts,
    intents: parts.intents,
    ...(parts.liquidations.length === 0 ? {} : { liquidations: parts.liquidations }),
  };
}

/** The configured instances, as the report embeds them. */
function instancesOf(parts: TraceParts): StrategyInstance[] {
  const { config, warmups } = parts;
  return parts.strategies.map((prepared) => {
    const entry = config.strategies[prepared.index];
    return {
      name: prepared.name,
      module: displayPath(entry?.module ?? '', parts.projectRoot),
      markets: [...(entry?.markets ?? [])],
      params: entry?.params ?? {},
      paramsUsed: paramUses(entry?.params, prepared.params),
      ...(warmups[prepared.name] === undefined ? {} : { warmup: warmups[prepared.name] }),
    };
  });
}

/** A path as a report shows it: relative to the project root when inside it. */
function displayPath(path: string, root: string): string {
  const inside = relative(root, path);
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside)
    ? inside.split(sep).join('/')
    : path;
}

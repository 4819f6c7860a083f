import type { Strategy } from '../define-strategy.ts';
import { IndicatorBank } from '../indicators/indicator-bank.ts';
import { BarChartRecorder } from './bar-chart.ts';
import { BarFeed, type CommitListener } from './bar-feed.ts';
import { planIndicators, planTimeframes } from './bar-plan.ts';
import { planWarmup, WarmupGate } from './warmup.ts';

/** One strategy instance's bars, its indicators, its warm-up gate and (if kept) its chart. */
export interface StrategyBars {
  readonly bars: BarFeed;
  readonly indicators: IndicatorBank;
  readonly warmup: WarmupGate;
  readonly chart: BarChartRecorder | undefined;
}

/** What hears each committed bar: the indicators first, then the chart (which reads them). */
function commitListener(
  indicators: IndicatorBank,
  chart: BarChartRecorder | undefined,
): CommitListener | undefined {
  if (chart !== undefined)
    return (closed) => {
      if (!indicators.empty) indicators.update(closed);
      chart.commit(closed);
    };
  return indicators.empty ? undefined : (closed) => indicators.update(closed);
}

/**
 * Plans a strategy's declared bars, indicators and warm-up (throwing `QUANTA_STRATEGY_LOAD` as
 * the planners do) and wires them: every committed bar updates the indicators, then the chart
 * recorder when `chartBars` asks for one (the backtest report's candles).
 */
export function strategyBars(
  name: string,
  strategy: Strategy,
  params: unknown,
  chartBars: boolean,
): StrategyBars {
  const timeframes = planTimeframes(name, strategy.bars);
  const indicators = new IndicatorBank(
    planIndicators(name, strategy.indicators?.bind(strategy), params, timeframes),
  );
  const first = timeframes[0];
  const chart =
    chartBars && first !== undefined
      ? new BarChartRecorder({
          strategy: name,
          timeframe: first.timeframe,
          ms: first.ms,
          indicators: indicators.specs,
          views: (marketId) => indicators.views(marketId),
        })
      : undefined;
  const bars = new BarFeed(timeframes, commitListener(indicators, chart));
  const warmup = new WarmupGate(planWarmup(name, strategy.warmup, timeframes), bars, indicators);
  return { bars, indicators, warmup, chart };
}

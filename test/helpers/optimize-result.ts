import type { SetMetrics } from '../../src/optimize/objective.ts';
import type { OptimizeResult } from '../../src/optimize/optimize.ts';

/** One parameter set's figures for optimize page and ranking tests, money with 18 digits. */
export function setMetrics(pnl: string, sharpe: string | null): SetMetrics {
  return {
    pnl,
    returnPct: '-0.000730',
    sharpe,
    sortino: null,
    calmar: null,
    maxDrawdown: '1.953125000000000001',
    maxDrawdownPct: '0.001953',
    trades: 4,
    winRate: '0.250000',
    fees: '0.123456789012345678',
    turnover: '1234.567890123456789012',
    orders: 9,
  };
}

/** A mean-reversion sweep result around `parts` (a fixed window, nothing skipped or failed). */
export function sweepResult(
  parts: Pick<OptimizeResult, 'ranking' | 'walkForward' | 'holdout'>,
): OptimizeResult {
  return {
    format: 'quanta-optimize',
    version: 1,
    config: 'quanta.yaml',
    data: 'recordings/',
    space: 'space.yaml',
    strategy: 'mean-reversion',
    objective: 'sharpe',
    constraints: {},
    window: SWEEP_WINDOW,
    sets: parts.ranking.length,
    skipped: [],
    failed: [],
    ...parts,
  };
}

/** The window of `sweepResult`. */
export const SWEEP_WINDOW = { from: '2026-03-02T10:00:00.000Z', to: '2026-03-02T11:00:00.000Z' };

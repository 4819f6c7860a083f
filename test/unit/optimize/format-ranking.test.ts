import { expect, it } from 'vitest';
import { formatRanking } from '../../../src/optimize/format-ranking.ts';
import type { OptimizeResult } from '../../../src/optimize/optimize.ts';
import { setMetrics, sweepResult, SWEEP_WINDOW } from '../../helpers/optimize-result.ts';

const window = SWEEP_WINDOW;

function result(): OptimizeResult {
  const row = (rank: number, pnl: string, score: string, sharpe: string | null) => ({
    rank,
    id: `set-${rank}`,
    params: { lookback: rank * 10 },
    score,
    passed: rank === 1,
    violations: rank === 1 ? [] : ['maxDrawdownPct <= 1'],
    metrics: setMetrics(pnl, sharpe),
  });
  return sweepResult({
    ranking: [
      row(1, '12.345678901234567891', '1.234567', '1.234567'),
      row(2, '-0.729670039893902082', '-0.055555', null),
    ],
    walkForward: null,
    holdout: {
      window,
      winner: { id: 'set-1', params: { lookback: 10 } },
      inSample: { score: '1.100000', metrics: null },
      outOfSample: { score: '-0.450049', metrics: null },
    },
  });
}

it('the terminal ranking shows PnL to the cent and ratios rounded (it cut PnL to 4 digits and printed 6)', () => {
  expect(formatRanking(result())).toBe(
    [
      'Optimize mean-reversion: 2 sets, objective sharpe, 1 meet the constraints',
      '',
      'rank    score    pnl  sharpe  maxDD%  trades  params',
      '   1   1.2346  12.35    1.23    0.00       4  {"lookback":10}',
      '  2*  -0.0556  -0.73       -    0.00       4  {"lookback":20}',
      '* misses a constraint',
      '',
      `Holdout ${window.from} .. ${window.to}: winner {"lookback":10}, in-sample 1.1, out-of-sample -0.45`,
      '',
    ].join('\n'),
  );
});

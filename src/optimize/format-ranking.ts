import { displayDecimal } from '../backtest/display-decimal.ts';
import { MONEY_DECIMALS } from '../money/index.ts';
import { canonicalJson } from './expand-space.ts';
import { SCORE_PLACES } from './optimize-html.ts';
import type { OptimizeResult } from './optimize-result.ts';

/** A score as read: at most `SCORE_PLACES` fraction digits (optimize.json keeps it exact). */
function score(value: string | null): string {
  return value === null ? '-' : displayDecimal(value, SCORE_PLACES, true);
}

/**
 * The terminal view of a sweep: the top of the ranking, then walk-forward and holdout lines.
 * PnL to the cent, Sharpe and max drawdown % to 2 places, scores to 4 at most, as optimize.html
 * shows them (optimize.json keeps every figure exact).
 */
export function formatRanking(result: OptimizeResult, top = 10): string {
  const lines: string[] = [];
  const passed = result.ranking.filter((row) => row.passed).length;
  lines.push(
    `Optimize ${result.strategy}: ${result.sets} sets, objective ${result.objective}, ` +
      `${passed} meet the constraints` +
      (result.skipped.length > 0 ? `, ${result.skipped.length} skipped` : '') +
      (result.failed.length > 0 ? `, ${result.failed.length} failed` : ''),
  );
  const header = ['rank', 'score', 'pnl', 'sharpe', 'maxDD%', 'trades', 'params'];
  const rows = result.ranking
    .slice(0, top)
    .map((row) => [
      `${row.rank}${row.passed ? '' : '*'}`,
      score(row.score),
      displayDecimal(row.metrics.pnl, MONEY_DECIMALS),
      row.metrics.sharpe === null ? '-' : displayDecimal(row.metrics.sharpe, 2),
      displayDecimal(row.metrics.maxDrawdownPct, 2),
      String(row.metrics.trades),
      canonicalJson(row.params),
    ]);
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => row[column]!.length)),
  );
  const render = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padStart(widths[column]!)))
      .join('  ');
  lines.push('', render(header), ...rows.map(render));
  if (result.ranking.some((row, index) => index < top && !row.passed))
    lines.push('* misses a constraint');
  if (result.walkForward !== null) {
    lines.push('', 'Walk-forward: fold  in-sample  out-of-sample  winner');
    for (const fold of result.walkForward.folds)
      lines.push(
        `  ${String(fold.fold).padStart(4)}  ${score(fold.inSample.score).padStart(9)}  ` +
          `${score(fold.outOfSample.score).padStart(13)}  ${fold.winner === null ? '-' : canonicalJson(fold.winner.params)}`,
      );
  }
  if (result.holdout !== null) {
    const h = result.holdout;
    lines.push(
      '',
      `Holdout ${h.window.from} .. ${h.window.to}: winner ${h.winner === null ? '-' : canonicalJson(h.winner.params)}, ` +
        `in-sample ${score(h.inSample.score)}, out-of-sample ${score(h.outOfSample.score)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

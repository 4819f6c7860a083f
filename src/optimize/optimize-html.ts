import { Decimal } from 'decimal.js';
import { canonicalJson } from './expand-space.ts';
import type { OptimizeResult } from './optimize.ts';

/** Options of {@link renderOptimizeHtml}. */
export interface OptimizeHtmlOptions {
  /** Report page of a set, relative to the page, by set id (the best runs). */
  readonly links?: ReadonlyMap<string, string>;
  /** The two params of the heatmap; default the first two of the space. */
  readonly heatmap?: readonly [string, string] | readonly string[];
}

const ROWS_SHOWN = 200;

function escape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function cellText(value: unknown): string {
  return typeof value === 'string' ? value : canonicalJson(value);
}

/** Sorts param values: numbers (and decimal strings) by value, others by text. */
function compareValues(a: unknown, b: unknown): number {
  const na = Number(a);
  const nb = Number(b);
  if (Number.isFinite(na) && Number.isFinite(nb) && na !== nb) return na - nb;
  const ta = cellText(a);
  const tb = cellText(b);
  return ta < tb ? -1 : ta > tb ? 1 : 0;
}

/** Red (worst) to green (best) through pale yellow. */
function colour(fraction: number): string {
  const f = Math.min(1, Math.max(0, fraction));
  const r = Math.round(f < 0.5 ? 215 : 215 - (f - 0.5) * 2 * 150);
  const g = Math.round(f < 0.5 ? 60 + f * 2 * 160 : 220);
  return `rgb(${r},${g},90)`;
}

function heatmapSvg(result: OptimizeResult, names: readonly string[]): string {
  const [x, y] = names;
  if (x === undefined || y === undefined) return '<p>A heatmap needs two searched params.</p>';
  const xs: unknown[] = [];
  const ys: unknown[] = [];
  const best = new Map<string, Decimal>();
  for (const row of result.ranking) {
    const vx = row.params[x];
    const vy = row.params[y];
    if (!xs.some((v) => cellText(v) === cellText(vx))) xs.push(vx);
    if (!ys.some((v) => cellText(v) === cellText(vy))) ys.push(vy);
    if (row.score === null) continue;
    // Other params vary too: a cell shows the best score among its sets.
    const key = `${cellText(vx)}\u0000${cellText(vy)}`;
    const score = new Decimal(row.score);
    const seen = best.get(key);
    if (seen === undefined || score.gt(seen)) best.set(key, score);
  }
  if (xs.length === 0) return '<p>No set to draw.</p>';
  xs.sort(compareValues);
  ys.sort(compareValues);
  const scores = [...best.values()];
  const low = scores.length === 0 ? new Decimal(0) : Decimal.min(...scores);
  const high = scores.length === 0 ? new Decimal(0) : Decimal.max(...scores);
  const cell = Math.max(8, Math.min(40, Math.floor(640 / Math.max(xs.length, ys.length))));
  const left = 80;
  const top = 10;
  const width = left + xs.length * cell + 10;
  const height = top + ys.length * cell + 50;
  const parts: string[] = [];
  for (const [j, vy] of ys.entries()) {
    for (const [i, vx] of xs.entries()) {
      const score = best.get(`${cellText(vx)}\u0000${cellText(vy)}`);
      const fill =
        score === undefined
          ? '#eee'
          : colour(high.eq(low) ? 1 : score.minus(low).div(high.minus(low)).toNumber());
      const label = `${x}=${cellText(vx)} ${y}=${cellText(vy)}: ${score?.toFixed(6) ?? 'no score'}`;
      parts.push(
        `<rect x="${left + i * cell}" y="${top + (ys.length - 1 - j) * cell}" width="${cell}" height="${cell}" fill="${fill}"><title>${escape(label)}</title></rect>`,
      );
    }
    parts.push(
      `<text x="${left - 4}" y="${top + (ys.length - 1 - j) * cell + cell / 2 + 4}" text-anchor="end">${escape(cellText(vy))}</text>`,
    );
  }
  const step = Math.max(1, Math.ceil(xs.length / 12));
  for (const [i, vx] of xs.entries())
    if (i % step === 0)
      parts.push(
        `<text x="${left + i * cell + cell / 2}" y="${top + ys.length * cell + 14}" text-anchor="middle">${escape(cellText(vx))}</text>`,
      );
  parts.push(
    `<text x="${left + (xs.length * cell) / 2}" y="${height - 8}" text-anchor="middle">${escape(x)}</text>`,
    `<text x="12" y="${top + (ys.length * cell) / 2}" transform="rotate(-90 12 ${top + (ys.length * cell) / 2})" text-anchor="middle">${escape(y)}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-size="11">${parts.join('')}</svg>`;
}

function scatterSvg(result: OptimizeResult): string {
  const points: { label: string; x: Decimal; y: Decimal }[] = [];
  for (const fold of result.walkForward?.folds ?? [])
    if (fold.inSample.score !== null && fold.outOfSample.score !== null)
      points.push({
        label: `fold ${fold.fold}`,
        x: new Decimal(fold.inSample.score),
        y: new Decimal(fold.outOfSample.score),
      });
  const h = result.holdout;
  if (h !== null && h.inSample.score !== null && h.outOfSample.score !== null)
    points.push({
      label: 'holdout',
      x: new Decimal(h.inSample.score),
      y: new Decimal(h.outOfSample.score),
    });
  if (points.length === 0)
    return '<p>No in-sample/out-of-sample pair: run with --walk-forward or --holdout.</p>';
  const values = points.flatMap((p) => [p.x, p.y]);
  let low = Decimal.min(...values, 0);
  let high = Decimal.max(...values, 0);
  if (low.eq(high)) {
    low = low.minus(1);
    high = high.plus(1);
  }
  const size = 320;
  const pad = 40;
  const at = (v: Decimal): number => v.minus(low).div(high.minus(low)).times(size).toNumber();
  const parts = [
    `<line x1="${pad}" y1="${pad + size}" x2="${pad + size}" y2="${pad}" stroke="#bbb" stroke-dasharray="4"/>`,
    `<line x1="${pad + at(new Decimal(0))}" y1="${pad}" x2="${pad + at(new Decimal(0))}" y2="${pad + size}" stroke="#ddd"/>`,
    `<line x1="${pad}" y1="${pad + size - at(new Decimal(0))}" x2="${pad + size}" y2="${pad + size - at(new Decimal(0))}" stroke="#ddd"/>`,
    `<rect x="${pad}" y="${pad}" width="${size}" height="${size}" fill="none" stroke="#888"/>`,
    `<text x="${pad + size / 2}" y="${pad + size + 30}" text-anchor="middle">in-sample score</text>`,
    `<text x="12" y="${pad + size / 2}" transform="rotate(-90 12 ${pad + size / 2})" text-anchor="middle">out-of-sample score</text>`,
  ];
  for (const point of points)
    parts.push(
      `<circle cx="${pad + at(point.x)}" cy="${pad + size - at(point.y)}" r="5" fill="${point.label === 'holdout' ? '#c33' : '#36c'}"><title>${escape(`${point.label}: in-sample ${point.x.toFixed(6)}, out-of-sample ${point.y.toFixed(6)}`)}</title></circle>`,
    );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size + 2 * pad}" height="${size + 2 * pad}" font-size="11">${parts.join('')}</svg>`;
}

/**
 * The sweep as one self-contained HTML page (no script, no request): the ranking, a heatmap of
 * the best score over two params, the in-sample/out-of-sample scatter of the walk-forward folds
 * and the holdout, and links to the best runs' backtest reports.
 */
export function renderOptimizeHtml(
  result: OptimizeResult,
  options: OptimizeHtmlOptions = {},
): string {
  const links = options.links ?? new Map<string, string>();
  const paramNames = [...new Set(result.ranking.flatMap((row) => Object.keys(row.params)))];
  const heatmap = options.heatmap ?? paramNames.slice(0, 2);
  const rows = result.ranking.slice(0, ROWS_SHOWN).map((row) => {
    const link = links.get(row.id);
    const id =
      link === undefined ? escape(row.id) : `<a href="${escape(link)}">${escape(row.id)}</a>`;
    return `<tr class="${row.passed ? '' : 'missed'}"><td>${row.rank}</td><td>${id}</td>${paramNames
      .map((name) => `<td>${escape(cellText(row.params[name]))}</td>`)
      .join(
        '',
      )}<td>${row.score ?? '-'}</td><td>${escape(row.metrics.pnl)}</td><td>${row.metrics.sharpe ?? '-'}</td><td>${row.metrics.maxDrawdownPct}</td><td>${row.metrics.trades}</td><td>${escape(row.violations.join('; '))}</td></tr>`;
  });
  const folds = (result.walkForward?.folds ?? []).map(
    (fold) =>
      `<tr><td>${fold.fold}</td><td>${fold.train.from} .. ${fold.train.to}</td><td>${fold.test.from} .. ${fold.test.to}</td><td>${escape(fold.winner === null ? '-' : canonicalJson(fold.winner.params))}</td><td>${fold.inSample.score ?? '-'}</td><td>${fold.outOfSample.score ?? '-'}</td></tr>`,
  );
  const stitched = result.walkForward?.stitched;
  const best = result.ranking
    .filter((row) => links.has(row.id))
    .map(
      (row) =>
        `<li><a href="${escape(links.get(row.id)!)}">#${row.rank} ${escape(canonicalJson(row.params))}</a> score ${row.score ?? '-'}</li>`,
    );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>quanta optimize: ${escape(result.strategy)}</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 24px; color: #222; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
td, th { padding: 2px 8px; border-bottom: 1px solid #eee; text-align: right; }
tr.missed { color: #999; }
h2 { margin-top: 32px; }
</style></head><body>
<h1>quanta optimize: ${escape(result.strategy)}</h1>
<p>${result.sets} sets over ${escape(result.data)} (${result.window.from} .. ${result.window.to}), objective <code>${escape(result.objective)}</code>, constraints <code>${escape(canonicalJson(result.constraints))}</code>; ${result.skipped.length} skipped, ${result.failed.length} failed.</p>
${best.length === 0 ? '' : `<h2>Best runs</h2><ul>${best.join('')}</ul>`}
<h2>Heatmap: best ${escape(result.objective)} by ${escape(heatmap.join(' and '))}</h2>
${heatmapSvg(result, heatmap)}
<h2>In-sample vs out-of-sample</h2>
${scatterSvg(result)}
${folds.length === 0 ? '' : `<h2>Walk-forward folds</h2><table><tr><th>fold</th><th>train</th><th>test</th><th>winner</th><th>in-sample</th><th>out-of-sample</th></tr>${folds.join('')}</table>`}
${stitched === undefined || stitched.equity.length === 0 ? '' : `<p>Stitched out-of-sample equity: ${escape(stitched.equity[0]!)} to ${escape(stitched.equity[stitched.equity.length - 1]!)} over ${stitched.equity.length} points.</p>`}
${result.holdout === null ? '' : `<h2>Holdout</h2><p>${result.holdout.window.from} .. ${result.holdout.window.to}: winner ${escape(result.holdout.winner === null ? '-' : canonicalJson(result.holdout.winner.params))}, in-sample ${result.holdout.inSample.score ?? '-'}, out-of-sample ${result.holdout.outOfSample.score ?? '-'}.</p>`}
<h2>Ranking${result.ranking.length > ROWS_SHOWN ? ` (best ${ROWS_SHOWN} of ${result.ranking.length})` : ''}</h2>
<table><tr><th>rank</th><th>set</th>${paramNames.map((name) => `<th>${escape(name)}</th>`).join('')}<th>score</th><th>pnl</th><th>sharpe</th><th>max DD %</th><th>trades</th><th>misses</th></tr>
${rows.join('\n')}
</table>
</body></html>
`;
}

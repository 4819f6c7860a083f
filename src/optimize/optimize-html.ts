import { Decimal } from 'decimal.js';
import { displayDecimal } from '../backtest/display-decimal.ts';
import { escapeHtml as escape, moneyHtml } from '../backtest/html-kit.ts';
import { canonicalJson } from './expand-space.ts';
import type { OptimizeResult } from './optimize-result.ts';

/** Options of {@link renderOptimizeHtml}. */
export interface OptimizeHtmlOptions {
  /** Report page of a set, relative to the page, by set id (the best runs). */
  readonly links?: ReadonlyMap<string, string>;
  /** The two params of the heatmap; default the first two of the space. */
  readonly heatmap?: readonly [string, string] | readonly string[];
}

const ROWS_SHOWN = 200;

/** Fraction digits a score or ratio is shown with (the exact score in its tooltip). */
/** Fraction digits a score is shown with at most (exact in optimize.json and the tooltip). */
export const SCORE_PLACES = 4;

/** A score as read: 4 fraction digits at most, the exact value (6 digits) in the tooltip. */
function scoreHtml(score: string | null): string {
  if (score === null) return '-';
  return `<span title="${escape(score)}">${escape(displayDecimal(score, SCORE_PLACES, true))}</span>`;
}

function scoreText(score: Decimal): string {
  return displayDecimal(score.toString(), SCORE_PLACES, true);
}

/**
 * About five round tick values from `low` to `high` (steps of 1, 2 or 5 times a power of ten),
 * with the fraction digits the step needs.
 */
function ticks(low: Decimal, high: Decimal): { value: Decimal; text: string }[] {
  const raw = high.minus(low).div(4);
  if (raw.lte(0)) return [{ value: low, text: low.toString() }];
  const exponent = Math.floor(Decimal.log10(raw).toNumber());
  const base = new Decimal(10).pow(exponent);
  const step = [1, 2, 5, 10].map((m) => base.times(m)).find((s) => s.gte(raw)) ?? base.times(10);
  const places = Math.max(0, -Math.floor(Decimal.log10(step).toNumber()));
  const out: { value: Decimal; text: string }[] = [];
  for (let v = low.div(step).ceil().times(step); v.lte(high); v = v.plus(step))
    out.push({ value: v, text: displayDecimal(v.toString(), places, true) });
  return out;
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

/** The heatmap's cells: the two params' values in order, and each cell's best score. */
interface HeatGrid {
  readonly x: string;
  readonly y: string;
  readonly xs: unknown[];
  readonly ys: unknown[];
  /** Best score by `x value \0 y value`. */
  readonly best: Map<string, Decimal>;
}

const cellKey = (vx: unknown, vy: unknown): string => `${cellText(vx)}\u0000${cellText(vy)}`;

function heatGridOf(result: OptimizeResult, x: string, y: string): HeatGrid {
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
    const key = cellKey(vx, vy);
    const score = new Decimal(row.score);
    const seen = best.get(key);
    if (seen === undefined || score.gt(seen)) best.set(key, score);
  }
  xs.sort(compareValues);
  ys.sort(compareValues);
  return { x, y, xs, ys, best };
}

/** Where the heatmap's parts go, in px. */
interface HeatLayout {
  readonly cellW: number;
  readonly cellH: number;
  readonly printValues: boolean;
  readonly left: number;
  readonly top: number;
  readonly legendX: number;
  readonly legendH: number;
  readonly width: number;
  readonly height: number;
}

function heatLayoutOf({ xs, ys }: HeatGrid): HeatLayout {
  // Cells wide enough to print their score when there are few; at least 8 px when many.
  const cellW = Math.max(8, Math.min(72, Math.floor(720 / xs.length)));
  const cellH = Math.max(8, Math.min(32, Math.floor(480 / ys.length)));
  const left = 80;
  const top = 10;
  const legendX = left + xs.length * cellW + 24;
  const legendH = Math.max(120, ys.length * cellH);
  return {
    cellW,
    cellH,
    printValues: cellW >= 44 && cellH >= 14,
    left,
    top,
    legendX,
    legendH,
    width: legendX + 100,
    height: top + Math.max(ys.length * cellH, legendH) + 50,
  };
}

/** The score range: lowest, highest, and where a score falls between them (0 to 1). */
interface HeatScale {
  readonly low: Decimal;
  readonly high: Decimal;
  readonly fraction: (score: Decimal) => number;
}

function heatmapSvg(result: OptimizeResult, names: readonly string[]): string {
  const [x, y] = names;
  if (x === undefined || y === undefined) return '<p>A heatmap needs two searched params.</p>';
  const grid = heatGridOf(result, x, y);
  if (grid.xs.length === 0) return '<p>No set to draw.</p>';
  const scores = [...grid.best.values()];
  const low = scores.length === 0 ? new Decimal(0) : Decimal.min(...scores);
  const high = scores.length === 0 ? new Decimal(0) : Decimal.max(...scores);
  const scale: HeatScale = {
    low,
    high,
    fraction: (score) => (high.eq(low) ? 1 : score.minus(low).div(high.minus(low)).toNumber()),
  };
  const layout = heatLayoutOf(grid);
  const parts = [
    ...heatCells(grid, layout, scale),
    ...heatAxes(grid, layout),
    ...(scores.length > 0 ? heatLegend(layout, scale, result.objective) : []),
  ];
  return `<svg class="heatmap" xmlns="http://www.w3.org/2000/svg" width="${layout.width}" height="${layout.height}" font-size="11">${parts.join('')}</svg>`;
}

/** The cells, row by row (the first y value at the bottom), each row with its y label. */
function heatCells(grid: HeatGrid, layout: HeatLayout, scale: HeatScale): string[] {
  const { x, y, xs, ys, best } = grid;
  const { left, top, cellW, cellH } = layout;
  const parts: string[] = [];
  for (const [j, vy] of ys.entries()) {
    const rowY = top + (ys.length - 1 - j) * cellH;
    for (const [i, vx] of xs.entries()) {
      const score = best.get(cellKey(vx, vy));
      const fill = score === undefined ? '#eee' : colour(scale.fraction(score));
      const label = `${x}=${cellText(vx)} ${y}=${cellText(vy)}: ${score?.toFixed(6) ?? 'no score'}`;
      parts.push(
        `<rect class="cell" x="${left + i * cellW}" y="${rowY}" width="${cellW}" height="${cellH}" fill="${fill}"><title>${escape(label)}</title></rect>`,
      );
      if (layout.printValues)
        parts.push(
          `<text class="cell-value" x="${left + i * cellW + cellW / 2}" y="${rowY + cellH / 2 + 4}" text-anchor="middle" font-size="10">${escape(score === undefined ? '-' : scoreText(score))}</text>`,
        );
    }
    parts.push(
      `<text x="${left - 4}" y="${rowY + cellH / 2 + 4}" text-anchor="end">${escape(cellText(vy))}</text>`,
    );
  }
  return parts;
}

/** The x labels (one every 40 px at most) and both axis names. */
function heatAxes({ x, y, xs, ys }: HeatGrid, { left, top, cellW, cellH }: HeatLayout): string[] {
  const parts: string[] = [];
  const step = Math.max(1, Math.ceil(40 / cellW));
  for (const [i, vx] of xs.entries())
    if (i % step === 0)
      parts.push(
        `<text x="${left + i * cellW + cellW / 2}" y="${top + ys.length * cellH + 14}" text-anchor="middle">${escape(cellText(vx))}</text>`,
      );
  parts.push(
    `<text x="${left + (xs.length * cellW) / 2}" y="${top + ys.length * cellH + 36}" text-anchor="middle">${escape(x)}</text>`,
    `<text x="12" y="${top + (ys.length * cellH) / 2}" transform="rotate(-90 12 ${top + (ys.length * cellH) / 2})" text-anchor="middle">${escape(y)}</text>`,
  );
  return parts;
}

/** The colour scale: best score at the top, worst at the bottom, with their values. */
function heatLegend(layout: HeatLayout, { low, high }: HeatScale, objective: string): string[] {
  const { legendX, legendH, top } = layout;
  const stops = [1, 0.75, 0.5, 0.25, 0]
    .map((f) => `<stop offset="${(1 - f) * 100}%" stop-color="${colour(f)}"/>`)
    .join('');
  const marks = [
    { value: high, y: top + 4 },
    { value: low.plus(high).div(2), y: top + legendH / 2 + 4 },
    { value: low, y: top + legendH + 4 },
  ];
  return [
    `<defs><linearGradient id="heat-scale" x1="0" y1="0" x2="0" y2="1">${stops}</linearGradient></defs>`,
    `<rect class="scale" x="${legendX}" y="${top}" width="16" height="${legendH}" fill="url(#heat-scale)" stroke="#888"/>`,
    ...marks.map(
      (mark) =>
        `<text class="scale-value" x="${legendX + 22}" y="${mark.y}">${escape(scoreText(mark.value))}</text>`,
    ),
    `<text x="${legendX}" y="${top + legendH + 22}">${escape(objective)}</text>`,
  ];
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
  const pad = 60;
  const at = (v: Decimal): number => v.minus(low).div(high.minus(low)).times(size).toNumber();
  const parts = [
    `<line x1="${pad}" y1="${pad + size}" x2="${pad + size}" y2="${pad}" stroke="#bbb" stroke-dasharray="4"/>`,
    `<line x1="${pad + at(new Decimal(0))}" y1="${pad}" x2="${pad + at(new Decimal(0))}" y2="${pad + size}" stroke="#ddd"/>`,
    `<line x1="${pad}" y1="${pad + size - at(new Decimal(0))}" x2="${pad + size}" y2="${pad + size - at(new Decimal(0))}" stroke="#ddd"/>`,
    `<rect x="${pad}" y="${pad}" width="${size}" height="${size}" fill="none" stroke="#888"/>`,
    `<text x="${pad + size / 2}" y="${pad + size + 40}" text-anchor="middle">in-sample ${escape(result.objective)}</text>`,
    `<text x="14" y="${pad + size / 2}" transform="rotate(-90 14 ${pad + size / 2})" text-anchor="middle">out-of-sample ${escape(result.objective)}</text>`,
  ];
  // The same ticks on both axes (the axes share one range, so the diagonal is "no decay").
  for (const tick of ticks(low, high)) {
    const px = pad + at(tick.value);
    const py = pad + size - at(tick.value);
    parts.push(
      `<line x1="${px}" y1="${pad + size}" x2="${px}" y2="${pad + size + 5}" stroke="#888"/>`,
      `<text class="tick-x" x="${px}" y="${pad + size + 18}" text-anchor="middle">${escape(tick.text)}</text>`,
      `<line x1="${pad - 5}" y1="${py}" x2="${pad}" y2="${py}" stroke="#888"/>`,
      `<text class="tick-y" x="${pad - 8}" y="${py + 4}" text-anchor="end">${escape(tick.text)}</text>`,
    );
  }
  for (const point of points)
    parts.push(
      `<circle cx="${pad + at(point.x)}" cy="${pad + size - at(point.y)}" r="5" fill="${point.label === 'holdout' ? '#c33' : '#36c'}"><title>${escape(`${point.label}: in-sample ${point.x.toFixed(6)}, out-of-sample ${point.y.toFixed(6)}`)}</title></circle>`,
    );
  return `<svg class="scatter" xmlns="http://www.w3.org/2000/svg" width="${size + 2 * pad}" height="${size + 2 * pad}" font-size="11">${parts.join('')}</svg>`;
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
      )}<td>${scoreHtml(row.score)}</td><td>${moneyHtml(row.metrics.pnl)}</td><td>${row.metrics.sharpe === null ? '-' : escape(displayDecimal(row.metrics.sharpe, 2))}</td><td>${escape(displayDecimal(row.metrics.maxDrawdownPct, 2))}</td><td>${row.metrics.trades}</td><td>${escape(row.violations.join('; '))}</td></tr>`;
  });
  const folds = (result.walkForward?.folds ?? []).map(
    (fold) =>
      `<tr><td>${fold.fold}</td><td>${fold.train.from} .. ${fold.train.to}</td><td>${fold.test.from} .. ${fold.test.to}</td><td>${escape(fold.winner === null ? '-' : canonicalJson(fold.winner.params))}</td><td>${scoreHtml(fold.inSample.score)}</td><td>${scoreHtml(fold.outOfSample.score)}</td></tr>`,
  );
  const stitched = result.walkForward?.stitched;
  const best = result.ranking
    .filter((row) => links.has(row.id))
    .map(
      (row) =>
        `<li><a href="${escape(links.get(row.id)!)}">#${row.rank} ${escape(canonicalJson(row.params))}</a> score ${scoreHtml(row.score)}</li>`,
    );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>quanta optimize: ${escape(result.strategy)}</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 24px; color: #222; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
td, th { padding: 2px 8px; border-bottom: 1px solid #eee; text-align: right; }
tr.missed { color: #999; }
.neg { color: #b91c1c; }
.scroll { overflow-x: auto; max-width: 100%; }
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
${stitched === undefined || stitched.equity.length === 0 ? '' : `<p>Stitched out-of-sample equity: ${moneyHtml(stitched.equity[0]!)} to ${moneyHtml(stitched.equity[stitched.equity.length - 1]!)} over ${stitched.equity.length} points.</p>`}
${result.holdout === null ? '' : `<h2>Holdout</h2><p>${result.holdout.window.from} .. ${result.holdout.window.to}: winner ${escape(result.holdout.winner === null ? '-' : canonicalJson(result.holdout.winner.params))}, in-sample ${scoreHtml(result.holdout.inSample.score)}, out-of-sample ${scoreHtml(result.holdout.outOfSample.score)}.</p>`}
<h2>Ranking${result.ranking.length > ROWS_SHOWN ? ` (best ${ROWS_SHOWN} of ${result.ranking.length})` : ''}</h2>
<div class="scroll"><table class="ranking"><tr><th>rank</th><th>set</th>${paramNames.map((name) => `<th>${escape(name)}</th>`).join('')}<th>score</th><th>pnl</th><th>sharpe</th><th>max DD %</th><th>trades</th><th>misses</th></tr>
${rows.join('\n')}
</table></div>
</body></html>
`;
}

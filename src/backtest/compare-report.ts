import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { GapParts } from './compare-gap.ts';
import type { CompareReport, CompareSide } from './compare.ts';
import { displayDecimal } from './display-decimal.ts';
import { escapeHtml as esc, moneyHtml, moneyText as money, roundedHtml } from './html-kit.ts';

/** `compare.json` exactly: two-space indented JSON and a final newline. */
export function serializeCompare(report: CompareReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** The terminal summary of `quanta compare`: pairing counts and the reconciled PnL gap. */
export function formatCompareSummary(report: CompareReport): string {
  const t = report.totals;
  const g = t.gap;
  return `${[
    `Compare: ${t.liveOrders} live orders, ${t.backtestOrders} backtest orders over ${report.run.snapshots} snapshots (${report.run.from} → ${report.run.to})`,
    `Fill model: ${report.run.fillModel}`,
    `Paired ${t.paired}; live only ${t.liveOnly}; backtest only ${t.backtestOnly}${report.run.liveOrdersOutside > 0 ? `; ${report.run.liveOrdersOutside} live orders outside the recording left out` : ''}`,
    `Mean |slippage| live vs backtest: ${t.meanAbsSlippageBps === null ? 'n/a' : `${displayDecimal(t.meanAbsSlippageBps, 2)} bps`}`,
    '',
    `Live PnL      ${money(t.livePnl)}`,
    `Backtest PnL  ${money(t.backtestPnl)}`,
    `Gap           ${money(t.pnlGap)} = slippage ${money(g.slippage)} + fees ${money(g.fees)} + missed fills ${money(g.missed)} + extra fills ${money(g.extra)} + rounding ${money(t.rounding)}`,
  ].join('\n')}\n`;
}

function sideCells(s: CompareSide | null, priceDecimals: number | undefined): string[] {
  if (s === null) return ['<span class="muted">—</span>', '', '', '', ''];
  // The average fill price to the market's tick (exact in its tooltip, and exact without one).
  const price =
    s.avgFillPrice === null
      ? ''
      : priceDecimals === undefined
        ? esc(s.avgFillPrice)
        : roundedHtml(s.avgFillPrice, priceDecimals);
  return [
    `${esc(s.orderId)} <small>${esc(s.state)}</small>`,
    esc(s.filled),
    price,
    moneyHtml(s.fees),
    esc(`${s.latencyMs} ms`),
  ];
}

function gapRow(label: string, g: GapParts): string {
  return `<tr><td>${esc(label)}</td>${[g.slippage, g.fees, g.missed, g.extra, g.total]
    .map((v) => `<td title="${esc(v)}">${esc(money(v))}</td>`)
    .join('')}</tr>`;
}

const CSS = `
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1f2937;background:#f8fafc}
main{max-width:1200px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 10px}
.meta{color:#4b5563;margin:0}.muted,small{color:#6b7280}
table{border-collapse:collapse;width:100%;background:#fff;border:1px solid #e5e7eb;font-variant-numeric:tabular-nums}
th,td{padding:4px 6px;border-bottom:1px solid #f1f5f9;text-align:right;white-space:nowrap;font-size:13px}
th{background:#f1f5f9;font-weight:600;white-space:normal}
td:first-child,th:first-child{text-align:left}
.neg{color:#b91c1c}
.scroll{overflow:auto;max-width:100%;max-height:700px;border-radius:8px}
td.wrap{white-space:normal;min-width:8em}
`;

/** One self-contained page: the run, the reconciled totals and every order side by side. */
export function renderCompareHtml(report: CompareReport): string {
  const t = report.totals;
  const rows = report.orders
    .map((o) => {
      const cells = [
        esc(o.seq),
        `${esc(o.strategy)}${o.tag === null ? '' : ` <small>${esc(o.tag)}</small>`}`,
        esc(o.symbol),
        esc(o.side),
        esc(o.type),
        esc(o.amount),
        ...sideCells(o.live, report.priceDecimals[o.symbol]),
        ...sideCells(o.backtest, report.priceDecimals[o.symbol]),
        o.slippageBps === null ? '' : roundedHtml(o.slippageBps, 2),
        moneyHtml(o.gap.total),
      ];
      // The strategy (and its tag) may wrap; figures stay on one line.
      return `<tr>${cells.map((c, i) => (i === 1 ? `<td class="wrap">${c}</td>` : `<td>${c}</td>`)).join('')}</tr>`;
    })
    .join('\n');
  const head = [
    'seq',
    'strategy',
    'market',
    'side',
    'type',
    'amount',
    'live order',
    'live filled',
    'live price',
    'live fees',
    'live latency',
    'backtest order',
    'bt filled',
    'bt price',
    'bt fees',
    'bt latency',
    'slippage bps',
    'PnL gap',
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Live vs backtest: ${esc(report.run.data)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
<h1>Live vs backtest</h1>
<p class="meta">journal ${esc(report.run.journal)} · recording ${esc(report.run.data)}</p>
<p class="meta">${esc(report.run.from)} → ${esc(report.run.to)} · ${esc(report.run.snapshots)} snapshots · fill model: ${esc(report.run.fillModel)}</p>
<h2>Totals</h2>
<p>${esc(t.liveOrders)} live orders, ${esc(t.backtestOrders)} backtest orders: ${esc(t.paired)} paired, ${esc(t.liveOnly)} live only, ${esc(t.backtestOnly)} backtest only. Mean |slippage| ${t.meanAbsSlippageBps === null ? 'n/a' : `${roundedHtml(t.meanAbsSlippageBps, 2)} bps`}.</p>
<table>
<thead><tr><th></th><th>slippage</th><th>fees</th><th>missed fills</th><th>extra fills</th><th>total</th></tr></thead>
<tbody>${gapRow('PnL gap by cause', t.gap)}</tbody>
</table>
<p>Live PnL <strong title="${esc(t.livePnl)}">${esc(money(t.livePnl))}</strong> − backtest PnL <strong title="${esc(t.backtestPnl)}">${esc(money(t.backtestPnl))}</strong> = <strong>${esc(money(t.pnlGap))}</strong> (rounding ${moneyHtml(t.rounding)}).</p>
<h2>Orders</h2>
<div class="scroll"><table>
<thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead>
<tbody>
${rows}
</tbody></table></div>
</main>
</body>
</html>
`;
}

/**
 * Writes `compare.json` and `compare.html` into `dir` (created if missing).
 *
 * @throws QuantaError `QUANTA_REPORT_WRITE_FAILED` naming the path that cannot be written.
 */
export async function writeCompareReport(
  dir: string,
  report: CompareReport,
): Promise<{ readonly jsonPath: string; readonly htmlPath: string }> {
  const jsonPath = join(dir, 'compare.json');
  const htmlPath = join(dir, 'compare.html');
  for (const [path, write] of [
    [dir, () => mkdir(dir, { recursive: true })],
    [jsonPath, () => writeFile(jsonPath, serializeCompare(report), 'utf8')],
    [htmlPath, () => writeFile(htmlPath, renderCompareHtml(report), 'utf8')],
  ] as const) {
    try {
      await write();
    } catch (error) {
      const reason = error instanceof Error && 'code' in error ? String(error.code) : 'error';
      throw new QuantaError(
        ErrorCodes.REPORT_WRITE_FAILED,
        `compare report ${path}: cannot write (${reason})`,
        { cause: error, details: ['Check that the --report folder is writable.'] },
      );
    }
  }
  return { jsonPath, htmlPath };
}

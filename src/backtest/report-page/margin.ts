/** The report page's margin section (issue 29): leverage, margin use over time, liquidations. */
import { displayDecimal } from '../display-decimal.ts';
import { escapeHtml as esc, moneyHtml as money } from '../html-kit.ts';
import { formatX18, parseSignedDecimalToX18 } from '../../money/index.ts';
import type { BacktestReport } from '../report-json.ts';
import { amountHtml, card, precisionBySymbol, priceHtml, table, utcText } from './cells.ts';

/** A leverage as `12.09x`; n/a when undefined. */
function leverageText(value: string | null): string {
  return value === null ? 'n/a' : `${esc(displayDecimal(value, 2))}x`;
}

/** A ratio (0.25) as a percentage (`25.00%`), exact before the display rounding; n/a when undefined. */
function shareText(value: string | null): string {
  if (value === null) return 'n/a';
  const percent = formatX18(parseSignedDecimalToX18(value, 'margin use') * 100n);
  return `${esc(displayDecimal(percent, 2))}%`;
}

function liquidationsTable(report: BacktestReport): string {
  const list = report.margin?.liquidations ?? [];
  if (list.length === 0) return '<p class="muted">No liquidation.</p>';
  const precision = precisionBySymbol(report);
  return table(
    [
      'time (UTC)',
      'market',
      'side',
      'amount',
      'price',
      'mark',
      'fee',
      'equity before',
      'maintenance margin',
      'equity after',
    ],
    list.map((l) => [
      esc(utcText(l.time)),
      esc(l.symbol),
      esc(l.side),
      amountHtml(l.amount, precision.get(l.symbol)),
      priceHtml(l.price, precision.get(l.symbol)),
      priceHtml(l.mark, precision.get(l.symbol)),
      money(l.fee),
      money(l.equityBefore),
      money(l.maintenanceMargin),
      money(l.equityAfter),
    ]),
    'num',
  );
}

/** The margin section (ending in a newline), or nothing when the run traded no PERPETUAL market. */
export function marginSection(report: BacktestReport): string {
  const m = report.margin;
  if (m === undefined) return '';
  const cards = [
    card('max leverage', leverageText(m.maxLeverage)),
    card('mean leverage (time-weighted)', leverageText(m.meanLeverage)),
    card('max margin use', shareText(m.maxMarginUse)),
    card('liquidations', esc(m.liquidations.length)),
  ].join('\n');
  return `<h2>Margin</h2>
<section class="cards" id="margin-cards">
${cards}
</section>
<div class="chart" id="chart-margin"></div>
<p class="muted">Margin use = initial margin of the open positions (|position| × mark × the listing's initial margin fraction) / equity; leverage = Σ |position| × mark / equity (right axis). From the account model at the equity curve's samples (docs/margin.md). Liquidations are marked black on the candles, named.</p>
<div class="scroll" id="liquidations">${liquidationsTable(report)}</div>
`;
}

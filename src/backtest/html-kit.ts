import { MONEY_DECIMALS } from '../money/index.ts';
import { displayDecimal } from './display-decimal.ts';

/**
 * The small kit the report pages share (report.html, optimize.html, compare.html): escaping and
 * the way a money figure is shown. One copy, so a page cannot forget `'` or round money its own
 * way.
 */

/**
 * Escapes text for HTML content and for attribute values in double or single quotes
 * (`&`, `<`, `>`, `"` and `'`).
 *
 * @example
 * escapeHtml(`<b title='x'>&`) // "&lt;b title=&#39;x&#39;&gt;&amp;"
 */
export function escapeHtml(text: string | number): string {
  return String(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * A money figure (a decimal string in quote units) as read: rounded half-even to the cent, every
 * figure with two fraction digits so columns line up, never `-0.00`. Display only.
 *
 * @example
 * moneyText('-1.953125000000000001') // "-1.95"
 */
export function moneyText(value: string): string {
  return displayDecimal(value, MONEY_DECIMALS);
}

/**
 * A decimal (a price, a ratio) rounded half-even to `places` fraction digits with trailing zeros
 * dropped, as an HTML element with the exact value in its tooltip.
 */
export function roundedHtml(value: string, places: number): string {
  return `<span title="${escapeHtml(value)}">${escapeHtml(displayDecimal(value, places, true))}</span>`;
}

/**
 * A money figure as an HTML element: {@link moneyText} shown, the exact value in the tooltip,
 * class `neg` when below zero (escaped, safe in content).
 */
export function moneyHtml(value: string): string {
  const negative = value.startsWith('-') ? ' class="neg"' : '';
  return `<span title="${escapeHtml(value)}"${negative}>${escapeHtml(moneyText(value))}</span>`;
}

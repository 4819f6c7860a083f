/** The report page's params of each strategy instance: the value used, from config or default. */
import { escapeHtml as esc } from '../html-kit.ts';
import type { BacktestReport } from '../report-json.ts';
import { table } from './cells.ts';

/** Each instance's params as it ran with them; those the strategy's default gave are marked. */
export function paramsTable(report: BacktestReport): string {
  const rows = report.run.params.flatMap((instance) =>
    instance.params.map((p) => [
      esc(instance.strategy),
      esc(p.name),
      `<code>${esc(JSON.stringify(p.value))}</code>`,
      p.source === 'default' ? '<strong>default</strong>' : 'config',
    ]),
  );
  if (rows.length === 0) return '';
  return table(['strategy', 'param', 'value used', 'from'], rows, 'narrow params');
}

import { didYouMean } from '../config/closest-name.ts';
import type { ConfigSource } from '../config/index.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { PreparedStrategy } from './prepare-strategies.ts';

/**
 * Checks that every market a strategy names is listed (by the venue at start, or by the
 * recording in a backtest). A misspelled symbol would otherwise run a bot that trades nothing.
 *
 * @param listed - the symbols listed (active or not).
 * @param where - "the venue" or "the recording", for the message.
 * @throws QuantaError `QUANTA_CONFIG_INVALID` (exit 2) with one line per unlisted symbol, its
 *   `file:line:col` and the closest listed symbol.
 */
export function checkStrategySymbols(
  strategies: readonly PreparedStrategy[],
  listed: ReadonlySet<string>,
  where: string,
  source?: ConfigSource,
): void {
  const lines: string[] = [];
  for (const strategy of strategies) {
    for (const [position, symbol] of strategy.symbols.entries()) {
      if (listed.has(symbol)) continue;
      const at = source?.locate(['strategies', strategy.index, 'markets', position]);
      lines.push(
        `${at === undefined ? '' : `${at} `}strategies[${strategy.index}].markets[${position}]: market ${JSON.stringify(symbol)} is not listed by ${where}${didYouMean(symbol, listed)}`,
      );
    }
  }
  if (lines.length === 0) return;
  const shown = [...listed].sort();
  throw new QuantaError(
    ErrorCodes.CONFIG_INVALID,
    `strategies name ${lines.length === 1 ? 'a market' : `${lines.length} markets`} that ${where} does not list:`,
    {
      details: [
        ...lines,
        `Listed: ${shown.slice(0, 30).join(', ')}${shown.length > 30 ? `, … (${shown.length} in all)` : ''}`,
      ],
    },
  );
}

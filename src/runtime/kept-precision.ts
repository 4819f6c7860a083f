import type { Market } from '../domain/index.ts';
import type { OrderJournal } from '../execution/journal.ts';

/**
 * The journal's key-value scope where a bot keeps the tick and quantum the venue listed for each
 * market it trades, so `quanta status` (which reads the journal alone, no venue) shows prices to
 * the listing's tick instead of guessing it from journaled prices.
 */
export const PRECISION_SCOPE = 'quanta:markets';

/** A market's tick and quantum as the venue listed them (`10^-priceExpo`, `10^-amountExpo`). */
export interface KeptPrecision {
  readonly symbol: string;
  readonly priceExpo: number;
  readonly amountExpo: number;
}

const valueOf = (market: Market): string =>
  JSON.stringify({
    symbol: market.symbol,
    priceExpo: market.priceExpo,
    amountExpo: market.amountExpo,
  } satisfies KeptPrecision);

/**
 * Keeps the listed tick and quantum of `markets` in the journal, writing only a market whose
 * kept value differs (one fsynced commit each, at start, before anything trades).
 */
export function keepPrecision(
  journal: Pick<OrderJournal, 'kvGet' | 'kvSet'>,
  markets: readonly Market[],
): void {
  for (const market of markets) {
    const value = valueOf(market);
    if (journal.kvGet(PRECISION_SCOPE, String(market.id)) !== value)
      journal.kvSet(PRECISION_SCOPE, String(market.id), value);
  }
}

/** The tick and quantum the bot kept for a market, or undefined when it kept none. */
export function keptPrecision(
  journal: Pick<OrderJournal, 'kvGet'>,
  marketId: number,
): KeptPrecision | undefined {
  const text = journal.kvGet(PRECISION_SCOPE, String(marketId));
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { symbol, priceExpo, amountExpo } = value as Record<string, unknown>;
  return typeof symbol === 'string' &&
    Number.isSafeInteger(priceExpo) &&
    Number.isSafeInteger(amountExpo)
    ? { symbol, priceExpo: priceExpo as number, amountExpo: amountExpo as number }
    : undefined;
}

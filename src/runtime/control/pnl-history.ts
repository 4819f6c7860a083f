import type { OrderRecord } from '../../execution/order-record.ts';
import { Portfolio } from '../../execution/portfolio.ts';
import { formatX18 } from '../../money/index.ts';

/** One point of the realized PnL curve: when an order's fill was last written, and the total. */
export interface PnlPoint {
  readonly at: number;
  /** Realized PnL net of fees of every order booked up to here (decimal string). */
  readonly realizedNet: string;
}

/**
 * The realized PnL (net of fees) over time, rebuilt from the journal's orders in the order
 * their fills were last written: the page's curve survives restarts because the journal does.
 * At most `maxPoints`, the latest kept (an order's time is its last update, so a curve over
 * weeks stays the size of the page's chart, not of the journal).
 */
export function realizedPnlHistory(
  records: readonly OrderRecord[],
  maxPoints = 500,
): readonly PnlPoint[] {
  const filled = records
    .filter((record) => record.filledX18 > 0n)
    .sort((a, b) => a.updatedAt - b.updatedAt || a.id - b.id);
  const portfolio = new Portfolio();
  const points: PnlPoint[] = [];
  for (const record of filled) {
    portfolio.bookRecord(record, record.feesX18 ?? 0n);
    points.push({
      at: record.updatedAt,
      realizedNet: formatX18(portfolio.account.realizedNetX18()),
    });
  }
  return points.slice(-maxPoints);
}

import { formatX18 } from '../money/index.ts';
import type { OpenOrder } from '../domain/index.ts';
import type { OrderRecord } from './order-record.ts';

/** A journal row as a strategy sees it in `ctx.openOrders()`: decimal strings, no bytes. */
export function openOrderView(record: OrderRecord): OpenOrder {
  return {
    orderId: record.id,
    marketId: record.marketId,
    side: record.side,
    amount: formatX18(record.amountX18),
    price: formatX18(record.priceX18),
    filled: formatX18(record.filledX18),
    status: record.state as OpenOrder['status'],
  };
}

/**
 * FillBooking books each new fill of an order at the price it was made at: from the venue's
 * average fill price before and after it. A LIMIT order that crossed the book at once and then
 * rested fills first at the book's prices (taker), later at its own price (maker); booking those
 * later fills at the order's average would misstate the position's entry price and the fee.
 */
import { expect, it } from 'vitest';
import type { Fill } from '../../../src/domain/index.ts';
import { ExposureBook } from '../../../src/execution/exposure-book.ts';
import { FillBooking } from '../../../src/execution/fill-booking.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import type { OrderRecord } from '../../../src/execution/order-record.ts';
import { Portfolio } from '../../../src/execution/portfolio.ts';
import { Writable } from 'node:stream';
import { createLogger, silentLogger, type Logger } from '../../../src/log/logger.ts';
import { parseDecimalToX18 } from '../../../src/money/index.ts';
import type { VenueOrder } from '../../../src/venue/types.ts';
import { newOrder } from '../../helpers/journal-orders.ts';
import { testMarket } from '../../helpers/markets.ts';

const X18 = 10n ** 18n;
const MAKER = 2n * 10n ** 14n; // 2 bp
const TAKER = 5n * 10n ** 14n; // 5 bp

/** A LIMIT buy of 2 at 101, journaled and sent. */
function limitBuy(journal: OrderJournal): OrderRecord {
  const { id } = journal.insertPending(
    newOrder('0x01', { type: 'LIMIT', amountX18: 2n * X18, priceX18: 101n * X18 }),
    1000,
  );
  journal.markAttempt(id, 1000);
  return journal.get(id);
}

function answer(over: Partial<VenueOrder>): VenueOrder {
  return {
    id: 7,
    brokerId: 1,
    subaccountId: '1',
    marketSymbol: 'ETH-USD',
    marketType: 'PERPETUAL',
    side: 'BUY',
    type: 'LIMIT',
    status: 'PARTIALLY_FILLED',
    amountX18: 2n * X18,
    priceX18: 101n * X18,
    totalFilledX18: 0n,
    avgFillPriceX18: 0n,
    expiryTs: 2000,
    createdAt: '2026-01-05T00:00:00.000Z',
    updatedAt: '2026-01-05T00:00:00.000Z',
    ...over,
  };
}

/** A FillBooking over an in-memory journal, and the fills it tells `onFill`. */
function booked(log: Logger = silentLogger): {
  journal: OrderJournal;
  portfolio: Portfolio;
  booking: FillBooking;
  fills: Fill[];
} {
  const journal = OrderJournal.inMemory();
  const portfolio = new Portfolio();
  portfolio.rememberMarket(testMarket({ makerFeeX18: MAKER, takerFeeX18: TAKER }));
  const fills: Fill[] = [];
  const booking = new FillBooking({
    journal,
    portfolio,
    exposure: new ExposureBook(() => []),
    now: () => 1500,
    log,
    onFill: (_strategy, fill) => {
      fills.push(fill);
    },
  });
  return { journal, portfolio, booking, fills };
}

it('books a rested LIMIT order’s later fill at its own price, not the order’s average', async () => {
  const { journal, portfolio, booking, fills } = booked();
  const row = limitBuy(journal);
  // The creation answer: 1 filled at once at 100 (taker), 1 resting at 101.
  await booking.apply(row, answer({ totalFilledX18: X18, avgFillPriceX18: 100n * X18 }), 'placing');
  // A lookup: the rest filled at 101 (maker); the order's average is now 100.5.
  const afterFirst = journal.get(row.id);
  await booking.apply(
    afterFirst,
    answer({ status: 'FILLED', totalFilledX18: 2n * X18, avgFillPriceX18: 1005n * 10n ** 17n }),
    'lookup',
  );

  expect(fills.map((fill) => fill.price)).toEqual(['100', '101']);
  const position = portfolio.account.get(1);
  expect(position.amountX18).toBe(2n * X18);
  expect(position.avgEntryPriceX18).toBe(1005n * 10n ** 17n);
  expect(position.turnoverX18).toBe(201n * X18);
  // 5 bp of 100 (taker) and 2 bp of 101 (maker), not 2 bp of 100.5.
  expect(position.feesX18).toBe((100n * X18 * TAKER) / X18 + (101n * X18 * MAKER) / X18);
  // The journal keeps the venue's average and the fees charged.
  const final = journal.get(row.id);
  expect(final.avgFillPriceX18).toBe(1005n * 10n ** 17n);
  expect(final.feesX18).toBe(position.feesX18);
});

it('values a later fill after a multi-price one within the floors’ error of its price, never past the limit', async () => {
  // Two taker fills at once at 3000.638336 and 3000.770753, then a maker fill at the limit
  // 3001.292161; the venue's averages floored to x18, as the paper venue's are.
  const limit = 3_001_292_161n * 10n ** 12n;
  const taker = [
    { amountX18: 1_234_567_891n * 10n ** 9n, priceX18: 3_000_638_336n * 10n ** 12n },
    { amountX18: 987_654_321n * 10n ** 9n, priceX18: 3_000_770_753n * 10n ** 12n },
  ];
  const makerAmount = 79_370n * 10n ** 9n;
  const firstTotal = taker[0]!.amountX18 + taker[1]!.amountX18;
  const firstNotional = taker.reduce((sum, f) => sum + f.amountX18 * f.priceX18, 0n);
  const total = firstTotal + makerAmount;
  const { journal, booking, fills } = booked();
  const { id } = journal.insertPending(
    newOrder('0x02', { type: 'LIMIT', amountX18: total, priceX18: limit }),
    1000,
  );
  journal.markAttempt(id, 1000);
  const created = answer({
    amountX18: total,
    priceX18: limit,
    totalFilledX18: firstTotal,
    avgFillPriceX18: firstNotional / firstTotal,
  });
  await booking.apply(journal.get(id), created, 'placing');
  await booking.apply(
    journal.get(id),
    answer({
      amountX18: total,
      priceX18: limit,
      status: 'FILLED',
      totalFilledX18: total,
      avgFillPriceX18: (firstNotional + makerAmount * limit) / total,
    }),
    'lookup',
  );
  expect(fills[1]).toMatchObject({ amount: '0.00007937', priceEstimated: false });
  // Off by less than the filled amounts over the new one (in x18 units of price), and not past
  // the limit; the order's average (3000.69...) would be 0.6 off.
  const price = parseDecimalToX18(fills[1]!.price);
  expect(price).toBeLessThanOrEqual(limit);
  expect(limit - price).toBeLessThan((firstTotal + total) / makerAmount);
});

it('says a later fill is estimated when the earlier one was (a venue that gave no average then)', async () => {
  const { journal, booking, fills } = booked();
  const row = limitBuy(journal);
  // No average in the creation answer: the fill is valued at the quote seen when sending.
  await booking.apply(row, answer({ totalFilledX18: X18, avgFillPriceX18: 0n }), 'placing');
  expect(journal.get(row.id).fillPriceEstimated).toBe(true);
  await booking.apply(
    journal.get(row.id),
    answer({ status: 'FILLED', totalFilledX18: 2n * X18, avgFillPriceX18: 1005n * 10n ** 17n }),
    'lookup',
  );
  expect(fills.map((fill) => [fill.price, fill.priceEstimated])).toEqual([
    ['3000', true],
    ['100.5', true],
  ]);
  // The row's average is the venue's now: not an estimate.
  expect(journal.get(row.id)).toMatchObject({
    avgFillPriceX18: 1005n * 10n ** 17n,
    fillPriceEstimated: false,
  });
});

it("books a lookup's fills of a LIMIT order never seen resting at the taker rate, and says so", async () => {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const { journal, portfolio, booking } = booked(createLogger({ level: 'info', destination }));
  // The placing answer was lost: a lookup finds 1 filled at 100 and 1 at 101, which may have
  // made liquidity or taken it; the venue does not say.
  const row = limitBuy(journal);
  await booking.apply(
    row,
    answer({ status: 'FILLED', totalFilledX18: 2n * X18, avgFillPriceX18: 1005n * 10n ** 17n }),
    'lookup',
  );
  expect(portfolio.account.get(1).feesX18).toBe((201n * X18 * TAKER) / X18);
  expect(lines.at(-1)).toMatchObject({ liquidity: 'taker', liquidityAssumed: true });

  // What a placing answer filled took liquidity: known, not assumed.
  const placed = booked(createLogger({ level: 'info', destination }));
  await placed.booking.apply(
    limitBuy(placed.journal),
    answer({ totalFilledX18: X18, avgFillPriceX18: 100n * X18 }),
    'placing',
  );
  expect(lines.at(-1)).toMatchObject({ liquidity: 'taker' });
  expect(lines.at(-1)).not.toHaveProperty('liquidityAssumed');
});

/**
 * `Executor.settleAllBut` (the backtest's wait after each snapshot): it resolves once every send
 * has finished except the ones the caller says are parked (a backtest's orders still on their
 * way to the simulated venue), with their answers booked; it neither returns while another send
 * is still being booked nor waits for the parked ones.
 */
import { expect, it } from 'vitest';
import { backtestSigner } from '../../../src/backtest/backtest-signer.ts';
import { NextEvent } from '../../../src/execution/next-event.ts';
import { Dispatcher, type SignedOrderRequest } from '../../../src/execution/dispatcher.ts';
import { Executor } from '../../../src/execution/executor.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { createSnapshot } from '../../../src/market/snapshot.ts';
import type { VenueOrder } from '../../../src/venue/types.ts';
import { testMarket } from '../../helpers/markets.ts';

const X18 = 10n ** 18n;

/**
 * An executor whose submitter parks the first order (after `turnsBeforePark` turns of promise
 * work, as a send that waits on a permit or a hook would) until the test answers it, and
 * answers every later one after a few turns.
 */
async function parkingFirstOrder(turnsBeforePark: number): Promise<void> {
  const journal = OrderJournal.inMemory();
  const market = testMarket();
  const parked: { request: SignedOrderRequest; answer: (order: VenueOrder) => void }[] = [];
  const grew = new NextEvent();
  let sends = 0;
  const filled = (request: SignedOrderRequest): VenueOrder => {
    const body = JSON.parse(request.body) as { isBuy: boolean; expiryTs: number };
    return {
      id: sends,
      brokerId: 1,
      subaccountId: '1',
      marketSymbol: market.symbol,
      marketType: market.type,
      side: body.isBuy ? 'BUY' : 'SELL',
      type: 'MARKET',
      status: 'FILLED',
      amountX18: X18 / 100n,
      priceX18: 0n,
      totalFilledX18: X18 / 100n,
      avgFillPriceX18: 3000n * X18,
      expiryTs: body.expiryTs,
      createdAt: '2026-01-05T00:00:00.000Z',
      updatedAt: '2026-01-05T00:00:00.000Z',
    };
  };
  const dispatcher = new Dispatcher({
    // The first order is parked until the test answers it; every later one is answered after a
    // few turns of promise work (as the simulation's answer is).
    submitter: {
      createOrder: async (request) => {
        sends += 1;
        if (sends === 1) {
          for (let turn = 0; turn < turnsBeforePark; turn++) await Promise.resolve();
          return new Promise<VenueOrder>((answer) => {
            parked.push({ request, answer });
            grew.fire();
          });
        }
        for (let turn = 0; turn < 5; turn++) await Promise.resolve();
        return filled(request);
      },
    },
    requests: Infinity,
    perMs: 1,
    concurrency: Infinity,
    maxAttempts: 1,
    now: () => 1000,
    sleep: () => Promise.resolve(),
    log: silentLogger,
    onAttempt: (orderId) => journal.markAttempt(orderId, 1000),
  });
  const executor = new Executor({
    journal,
    dispatcher,
    signer: backtestSigner(),
    limits: { maxOrderNotionalX18: 10n ** 24n, maxPositionNotionalX18: 10n ** 24n },
    killSwitchOn: () => false,
    capitalX18: 100_000n * 10n ** 18n, // an account the order fits in
    now: () => 1000,
    log: silentLogger,
    orderTtlMs: 60_000,
  });
  const snapshot = createSnapshot({
    seq: 1,
    takenAt: 1000,
    markets: new Map([[market.id, market]]),
    quotes: [
      {
        marketId: market.id,
        timestamp: 999,
        bids: [{ price: '2999', quantity: '10' }],
        asks: [{ price: '3001', quantity: '10' }],
      },
    ],
  });
  const intent = { marketId: market.id, side: 'BUY', type: 'MARKET', amount: '0.01' } as const;
  await executor.submit('s', intent, snapshot);
  await executor.submit('s', intent, snapshot);
  await executor.submit('s', intent, snapshot);

  const settle = (): Promise<void> =>
    executor.settleAllBut(
      () => parked.length,
      () => grew.next(),
    );
  await settle();
  // The two answered orders are booked; the parked one is still on its way.
  expect(journal.all().map((order) => order.state)).toEqual(['SENT', 'FILLED', 'FILLED']);

  const first = parked.shift();
  first?.answer(filled(first.request));
  await settle();
  expect(journal.all().map((order) => order.state)).toEqual(['FILLED', 'FILLED', 'FILLED']);
  journal.close();
}

it('waits for every send but the parked ones, with their answers booked', async () => {
  await parkingFirstOrder(0);
});

it('does not hang on a send that parks only after the wait began', async () => {
  // Still on its way to the venue when settleAllBut starts: only its parking can end the wait.
  await parkingFirstOrder(50);
});

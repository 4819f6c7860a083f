/**
 * Done-when 3 (second part): retries resend the identical signed bytes. A purpose-built proxy
 * on port 0 stands in front of the paper venue and breaks the first order request:
 * - 500 without forwarding: the retry (same signature, same body bytes) lands; one journal
 *   row, FILLED, two attempts;
 * - forwarded but answered 500 (the venue accepted it): the retry gets 409 "signature already
 *   used", and the journal records ACCEPTED while the venue holds exactly one order; then a
 *   lookup by the signature (issue 31: such orders were never reconciled) finds the venue's
 *   order, and the row and the bot's position match the venue's;
 * - forwarded and lost, then every retry lost before the venue: UNKNOWN, and the same lookup
 *   resolves it.
 */
import { afterEach, expect, it } from 'vitest';
import type { OrderRecord } from '../../../src/execution/order-record.ts';
import { startPaperVenue } from '../../../src/paper/index.ts';
import {
  captureLogs,
  journalPath,
  readJournal,
  runBot,
  startOrderProxy,
  strategyModule,
  tempDir,
  venueOrders,
  waitFor,
  writeBotConfig,
  type ProxyAction,
} from './harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

const AMOUNT_X18 = 12_345_000_000_000_000n; // 0.012345 ETH

/**
 * Runs one MARKET buy of 0.012345 ETH-USD through a proxy whose first order request gets
 * `first` and the later ones `later`, until `done` says so of the order's journal row (default:
 * no longer in flight).
 */
async function oneOrderThrough(
  first: ProxyAction,
  later: ProxyAction = 'forward',
  done: (row: OrderRecord) => boolean = (row) => row.state !== 'PENDING' && row.state !== 'SENT',
) {
  const venue = await startPaperVenue({ port: 0, seed: 8 });
  cleanups.push(() => venue.close());
  const proxy = await startOrderProxy(venue.url, (n) => (n === 1 ? first : later));
  cleanups.push(() => proxy.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const path = await writeBotConfig(dir, {
    writeUrl: proxy.url,
    readUrl: venue.url,
    strategies: [
      {
        module: strategyModule('fixtures/scripted'),
        markets: ['ETH-USD'],
        params: { intents: [{ symbol: 'ETH-USD', side: 'BUY', amount: '0.012345' }] },
      },
    ],
  });
  const logs = captureLogs();
  const running = await runBot(path, logs.log);
  cleanups.push(() => running.stop());
  await waitFor('the order to be final', () => {
    const row = running.bot.journal.all()[0];
    return row !== undefined && done(row);
  });
  const position = running.bot.executor.positions.amountX18(1);
  await running.stop();
  return {
    venue,
    proxy,
    logs,
    rows: readJournal(journalPath(dir)),
    accountId: running.accountId,
    position,
  };
}

it('500 then 200: the venue receives the identical signature and bytes twice; journaled once, FILLED', async () => {
  const { venue, proxy, logs, rows, accountId } = await oneOrderThrough('fail');

  expect(proxy.orders).toHaveLength(2);
  const [first, retry] = proxy.orders;
  expect(retry?.signature).toBe(first?.signature);
  expect(retry?.body).toBe(first?.body);
  expect(first?.signature).toMatch(/^0x[0-9a-f]{130}$/);
  // The first attempt never reached the venue; the retry did, once.
  expect(venue.requestCount('/api/v1/order')).toBe(1);

  expect(rows).toHaveLength(1);
  const row = rows[0];
  expect(row).toMatchObject({ state: 'FILLED', attempts: 2, amountX18: AMOUNT_X18 });
  expect(row?.signature).toBe(first?.signature);
  expect(row?.body).toBe(first?.body);
  expect(venue.engine.getOrder(accountId, row?.venueOrderId ?? -1)).toMatchObject({
    status: 'FILLED',
    amountX18: AMOUNT_X18,
  });
  expect(venueOrders(venue, accountId)).toHaveLength(1);
  expect(logs.withMessage('order send attempt failed')).toEqual([
    expect.objectContaining({ orderId: row?.id, attempt: 1 }),
  ]);
});

it('a 409 on the retry is recorded as ACCEPTED, then found by its signature: FILLED, positions equal', async () => {
  const { venue, proxy, logs, rows, accountId, position } = await oneOrderThrough(
    'lose-answer',
    'forward',
    (row) => row.state === 'FILLED',
  );

  expect(proxy.orders).toHaveLength(2);
  expect(proxy.orders[1]).toEqual(proxy.orders[0]);
  // Both reached the venue (the proxy forwards both): one order, the retry refused with 409.
  const onVenue = venueOrders(venue, accountId);
  expect(onVenue).toHaveLength(1);
  expect(onVenue[0]).toMatchObject({ status: 'FILLED', amountX18: AMOUNT_X18 });
  expect(venue.engine.position(accountId, 1).amountX18).toBe(AMOUNT_X18);

  expect(rows).toHaveLength(1);
  const id = rows[0]?.id;
  // First ACCEPTED: the 409 says it landed, not what became of it.
  const accepted = logs.withMessage(`order ${id} ACCEPTED`);
  expect(accepted).toHaveLength(1);
  expect(accepted[0]?.['error']).toMatch(/already seen this signature/);
  // Then the venue's record, found by the signature: its id, state, fill and price.
  expect(rows[0]).toMatchObject({
    state: 'FILLED',
    attempts: 2,
    venueOrderId: onVenue[0]?.id,
    filledX18: AMOUNT_X18,
    avgFillPriceX18: onVenue[0]?.avgFillPriceX18,
    signature: proxy.orders[0]?.signature,
    body: proxy.orders[0]?.body,
  });
  expect(position).toBe(venue.engine.position(accountId, 1).amountX18);
});

it('an order left UNKNOWN (answer lost, every retry lost) is found by its signature: FILLED', async () => {
  const { venue, logs, rows, accountId, position } = await oneOrderThrough(
    'lose-answer',
    'fail',
    (row) => row.state === 'FILLED',
  );

  const onVenue = venueOrders(venue, accountId);
  expect(onVenue).toHaveLength(1);
  const id = rows[0]?.id;
  expect(logs.withMessage(`order ${id} UNKNOWN`)).toHaveLength(1);
  expect(rows).toEqual([
    expect.objectContaining({
      state: 'FILLED',
      venueOrderId: onVenue[0]?.id,
      filledX18: AMOUNT_X18,
    }),
  ]);
  expect(position).toBe(venue.engine.position(accountId, 1).amountX18);
});

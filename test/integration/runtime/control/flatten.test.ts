/**
 * Issue 14, done-when: `POST /halt {"mode": "flatten"}` on a bot holding positions in two markets
 * leaves both flat on the paper venue, with only reduce-only orders sent after the command (the
 * order requests the venue received prove it), each within risk.maxOrderNotional; then the bot
 * halts. Entries a strategy asks for meanwhile are refused and counted.
 */
import { afterEach, expect, it } from 'vitest';
import { generatePrivateKey } from 'viem/accounts';
import { loadConfig } from '../../../../src/config/index.ts';
import { startPaperVenue } from '../../../../src/paper/index.ts';
import { startBotWithParts } from '../../../../src/runtime/bot.ts';
import {
  accountIdOf,
  captureLogs,
  startOrderProxy,
  strategyModule,
  tempDir,
  waitFor,
  WALLET_ENV,
} from '../harness.ts';
import { call, writeControlConfig } from './control-harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

/** The snapshot at which the second strategy asks for a new entry (after the command). */
const LATE_ENTRY_SEQ = 30;

it('flatten closes positions in two markets with reduce-only MARKET orders only, then halts', async () => {
  const venue = await startPaperVenue({ port: 0, seed: 21 });
  cleanups.push(() => venue.close());
  const proxy = await startOrderProxy(venue.url, () => 'forward');
  cleanups.push(() => proxy.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const configPath = await writeControlConfig(dir, {
    writeUrl: proxy.url,
    readUrl: venue.url,
    poll: { intervalMs: 100 },
    // 1.5 ETH (about 4500 USD) needs three closing orders under this cap.
    risk: { maxOrderNotional: '2000', maxPositionNotional: '20000' },
    strategies: [
      {
        module: strategyModule('fixtures/scripted'),
        markets: ['ETH-USD', 'BTC-USD'],
        params: {
          intents: [
            { symbol: 'ETH-USD', side: 'BUY', amount: '0.5' },
            { symbol: 'ETH-USD', side: 'BUY', amount: '0.5' },
            { symbol: 'ETH-USD', side: 'BUY', amount: '0.5' },
            { symbol: 'BTC-USD', side: 'SELL', amount: '0.02' },
          ],
        },
      },
      {
        module: strategyModule('fixtures/scripted'),
        name: 'late-entry',
        markets: ['ETH-USD'],
        params: {
          fromSeq: LATE_ENTRY_SEQ,
          intents: [{ symbol: 'ETH-USD', side: 'BUY', amount: '0.1' }],
        },
      },
    ],
  });
  const walletKey = generatePrivateKey();
  const env = { [WALLET_ENV]: walletKey };
  const config = await loadConfig(configPath, { env });
  const logs = captureLogs();
  const { log } = logs;
  let snapshots = 0;
  const bot = await startBotWithParts({
    config,
    env,
    log,
    projectRoot: process.cwd(),
    onSnapshot: () => (snapshots += 1),
  });
  const controller = new AbortController();
  const running = bot.run(controller.signal);
  cleanups.push(async () => {
    controller.abort();
    await running;
    await bot.shutdown();
  });
  const url = bot.controlUrl ?? '';
  const account = accountIdOf(walletKey, config.venue.brokerId, config.venue.subaccount);
  const marketId = (symbol: string): number =>
    venue.engine.listMarkets().find((m) => m.symbol === symbol)?.id ?? -1;
  const eth = marketId('ETH-USD');
  const btc = marketId('BTC-USD');

  await waitFor('four fills', () =>
    bot.journal.all().filter((r) => r.state === 'FILLED').length === 4 ? true : undefined,
  );
  await bot.executor.settle();
  expect(venue.engine.position(account, eth).amountX18).toBe(1_500_000_000_000_000_000n);
  expect(venue.engine.position(account, btc).amountX18).toBe(-20_000_000_000_000_000n);
  expect(snapshots, 'the command must come before the late entry').toBeLessThan(LATE_ENTRY_SEQ);

  const requestsBefore = proxy.orders.length;
  const rowsBefore = bot.journal.all().length;
  expect((await call(url, '/halt', { body: { mode: 'flatten' } })).body).toEqual({
    mode: 'flatten',
  });
  await waitFor(
    'the bot to halt after flattening',
    async () => (await call(url, '/status')).body.mode === 'halt',
  );
  await bot.executor.settle();

  // Flat on the venue.
  expect(venue.engine.position(account, eth).amountX18).toBe(0n);
  expect(venue.engine.position(account, btc).amountX18).toBe(0n);
  // Every order request after the command: reduce-only MARKET, within the notional cap.
  const after = proxy.orders.slice(requestsBefore).map(
    (order) =>
      JSON.parse(order.body) as {
        marketId: number;
        isBuy: boolean;
        orderType: string;
        amount: string;
        isReduce: boolean;
      },
  );
  expect(after.length).toBeGreaterThanOrEqual(4);
  for (const body of after) expect(body).toMatchObject({ orderType: 'MARKET', isReduce: true });
  expect(after.filter((b) => b.marketId === eth && !b.isBuy).length).toBeGreaterThanOrEqual(3);
  expect(after.filter((b) => b.marketId === btc && b.isBuy)).toHaveLength(1);
  // The journal agrees: every row written after the command is a reduce-only MARKET order,
  // valued within risk.maxOrderNotional at the price it was checked against.
  const newRows = bot.journal.all().slice(rowsBefore);
  expect(newRows.length).toBe(after.length);
  for (const row of newRows) {
    expect(row).toMatchObject({ type: 'MARKET', reduceOnly: true });
    const notionalX36 = row.amountX18 * (row.referencePriceX18 ?? 0n);
    expect(notionalX36).toBeGreaterThan(0n);
    expect(notionalX36).toBeLessThanOrEqual(2000n * 10n ** 36n);
  }

  // Halted: the late entry is refused (counted, not logged one by one), nothing more is sent.
  await waitFor('the late entry', () => (snapshots > LATE_ENTRY_SEQ + 2 ? true : undefined));
  const refusals = bot.executor.stats().refusals;
  expect((refusals.HALTED ?? 0) + (refusals.ENTRIES_HALTED ?? 0)).toBe(1);
  expect(proxy.orders.length).toBe(requestsBefore + after.length);
  expect(logs.withMessage('intent refused')).toHaveLength(0);
  // One line per mode change: trading → flatten → halt.
  expect(logs.withMessage('trading mode').map((r) => r.msg)).toEqual([
    'trading mode trading → flatten (control)',
    'trading mode flatten → halt (flatten-done)',
  ]);
}, 90_000);

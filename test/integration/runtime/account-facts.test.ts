/**
 * Issue 29: `ctx.freeMargin` and `ctx.liquidationPrice` in a live bot (a paper venue over HTTP
 * on port 0) say what they say in a backtest (test/integration/backtest/position-facts.test.ts):
 * the account model on the bot's fills. 100 USDC and a long of ~500 USD of ETH-USD (MMF 2 %):
 * the liquidation price is worked out apart from the model from the journaled fill.
 */
import { afterEach, expect, it } from 'vitest';
import {
  formatX18,
  parseDecimalToX18 as x18,
  parseSignedDecimalToX18,
  X18_SCALE,
} from '../../../src/money/index.ts';
import { startPaperVenue } from '../../../src/paper/index.ts';
import { longLiquidationX18 } from '../../helpers/long-liquidation.ts';
import {
  captureLogs,
  journalPath,
  readJournal,
  runBot,
  strategyModule,
  tempDir,
  waitFor,
  writeBotConfig,
} from './harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

it('a live bot sees the free margin and the liquidation price of the account model', async () => {
  const venue = await startPaperVenue({ port: 0, seed: 29, balance: '100' });
  cleanups.push(() => venue.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const path = await writeBotConfig(dir, {
    writeUrl: venue.url,
    risk: { capital: '100' },
    strategies: [{ module: strategyModule('fixtures/position-facts'), markets: ['ETH-USD'] }],
  });
  const logs = captureLogs();
  const running = await runBot(path, logs.log);
  cleanups.push(() => running.stop());
  const plots = (name: string) =>
    logs.records.filter((r) => r.msg === 'plot' && r.plot === name).map((r) => String(r.value));
  await waitFor('five liquidation prices', () => plots('liquidation').length >= 5);
  await running.stop();

  const [order, ...more] = readJournal(journalPath(dir));
  expect(more).toEqual([]);
  if (order?.avgFillPriceX18 == null || order.feesX18 === null) throw new Error('no fill');
  const entry = plots('entry')[0] ?? '';
  const liquidation = longLiquidationX18(
    100n * X18_SCALE - order.feesX18,
    order.filledX18,
    x18(entry),
    x18('0.02'),
  );
  if (liquidation === undefined) throw new Error('no liquidation price');
  expect(new Set(plots('liquidation'))).toEqual(new Set([formatX18(liquidation)]));
  // Flat before the fill: all 100 free; after it, less (the initial margin, 5 % of ~500).
  expect(plots('free')[0]).toBe('100');
  const after = parseSignedDecimalToX18(plots('free').at(-1) ?? '', 'free');
  expect(after < x18('80')).toBe(true);
});

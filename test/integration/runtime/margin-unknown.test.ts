/**
 * Issue 29: a live bot on a real venue (here a paper venue over HTTP on port 0) without
 * `risk.capital` does not know its account (the venue reports no balance), so it fails closed:
 * every order that adds exposure is refused `MARGIN_UNKNOWN`, counted, logged with a message
 * naming the key to set, and never sent. Before, the margin check was skipped and the order went
 * out. With `risk.capital` written the same order is sent.
 */
import { afterEach, expect, it } from 'vitest';
import { startPaperVenue } from '../../../src/paper/index.ts';
import {
  captureLogs,
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

const BUY = { symbol: 'ETH-USD', side: 'BUY', amount: '0.01', tag: 'opening' } as const;

async function botBuying(capital: string | undefined) {
  const venue = await startPaperVenue({ port: 0, seed: 29 });
  cleanups.push(() => venue.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const path = await writeBotConfig(dir, {
    writeUrl: venue.url,
    risk: { capital },
    strategies: [
      {
        module: strategyModule('fixtures/scripted'),
        markets: ['ETH-USD'],
        params: { intents: [BUY] },
      },
    ],
  });
  const logs = captureLogs();
  const running = await runBot(path, logs.log);
  cleanups.push(() => running.stop());
  await waitFor('the intent', () => running.intents.length >= 1);
  const seen = running.snapshots.length;
  await waitFor('three more snapshots', () => running.snapshots.length >= seen + 3);
  return { venue, logs, summary: await running.stop() };
}

it('without risk.capital an opening order is refused MARGIN_UNKNOWN, counted, and never sent', async () => {
  const { venue, logs, summary } = await botBuying(undefined);
  expect(venue.requestCount('/api/v1/order')).toBe(0);
  expect(summary.stats.refusals).toEqual({ MARGIN_UNKNOWN: 1 });
  const [refusal] = logs.withMessage('intent refused');
  expect(refusal?.msg).toMatchInlineSnapshot(
    `"intent refused (MARGIN_UNKNOWN): the account's balance is not known (the venue reports none): set risk.capital in the config to what the account holds in quote units; until then no order that adds exposure is sent, only reducing ones"`,
  );
});

it('with risk.capital the same order is sent', async () => {
  const { venue, summary } = await botBuying('100000');
  expect(venue.requestCount('/api/v1/order')).toBe(1);
  expect(summary.stats.refusals).toEqual({});
});

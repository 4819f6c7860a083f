/**
 * Done-when 2: intents below MinAmountx18, on an inactive market, or off the grid after sizing
 * never reach the wire; each is counted by reason and logged (once per reason per minute). The paper venue counts every
 * request as it arrives, before any check, so `requestCount('/api/v1/order') === 0` proves that
 * not one order request was made.
 */
import { afterEach, expect, it } from 'vitest';
import { startPaperVenue } from '../../../src/paper/index.ts';
import {
  captureLogs,
  FIXTURE_MARKETS,
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

/** Each intent, and the reason and words its refusal must be logged with. */
const CASES = [
  {
    intent: { symbol: 'ETH-USD', side: 'BUY', amount: '0.00005', tag: 'below-min' },
    reason: 'BELOW_MIN_AMOUNT',
    detail: 'amount 0.00005 ETH-USD is below the market minimum 0.0001',
  },
  {
    // On SOL-USD's grid only after rounding down, and then below its minimum 0.01.
    intent: { symbol: 'SOL-USD', side: 'SELL', amount: '0.0099999999999', tag: 'rounds-below-min' },
    reason: 'BELOW_MIN_AMOUNT',
    detail: 'amount 0.009999999 SOL-USD is below the market minimum 0.01',
  },
  {
    intent: { symbol: 'XRP-USD', side: 'BUY', amount: '5', tag: 'inactive' },
    reason: 'MARKET_INACTIVE',
    detail: 'market XRP-USD is not active',
  },
  {
    intent: { symbol: 'ETH-USD', side: 'BUY', amount: '0.0000000009', tag: 'below-quantum' },
    reason: 'ZERO_AFTER_ROUNDING',
    detail: 'amount 0.0000000009 ETH-USD rounds to 0 on the quantum 0.000000001',
  },
  {
    // Expo 0: whole units only.
    intent: { symbol: 'DOGE-USD', side: 'BUY', amount: '0.99', tag: 'expo-0' },
    reason: 'ZERO_AFTER_ROUNDING',
    detail: 'amount 0.99 DOGE-USD rounds to 0 on the quantum 1',
  },
  {
    // Expo −2: multiples of 100.
    intent: { symbol: 'SHIB-USD', side: 'SELL', amount: '99', tag: 'expo-minus-2' },
    reason: 'ZERO_AFTER_ROUNDING',
    detail: 'amount 99 SHIB-USD rounds to 0 on the quantum 100',
  },
  {
    intent: {
      symbol: 'ETH-USD',
      side: 'BUY',
      type: 'LIMIT',
      amount: '0.01',
      price: '0.0000009',
      tag: 'price-below-tick',
    },
    reason: 'ZERO_AFTER_ROUNDING',
    detail: 'price 0.0000009 ETH-USD rounds to 0',
  },
] as const;

it('refused intents never reach the wire, and each refusal is logged with its reason', async () => {
  const venue = await startPaperVenue({ port: 0, seed: 5, markets: FIXTURE_MARKETS });
  cleanups.push(() => venue.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const path = await writeBotConfig(dir, {
    writeUrl: venue.url,
    strategies: [
      {
        module: strategyModule('fixtures/scripted'),
        markets: ['ETH-USD'],
        params: { intents: CASES.map((c) => c.intent) },
      },
    ],
  });
  const logs = captureLogs();
  const running = await runBot(path, logs.log);
  cleanups.push(() => running.stop());

  await waitFor('every intent refused', () => running.intents.length >= CASES.length);
  // A few more polls: a refused intent must not turn up on the wire later either.
  const seen = running.snapshots.length;
  await waitFor('three more snapshots', () => running.snapshots.length >= seen + 3);
  const summary = await running.stop();

  expect(venue.requestCount('/api/v1/order')).toBe(0);
  // The bot did talk to this venue: it registered and polled it.
  expect(venue.requestCount('/api/v1/auth')).toBe(1);
  expect(venue.requestCount('/api/v1/market')).toBeGreaterThan(3);
  // The strategy did produce every intent; none was journaled.
  expect(running.intents.map((p) => p.intent.tag)).toEqual(CASES.map((c) => c.intent.tag));
  expect(readJournal(journalPath(dir))).toEqual([]);

  // Logged once per strategy and reason per minute: the first intent of each reason.
  const refusals = logs.withMessage('intent refused');
  const firstOfEachReason = CASES.filter(
    (c, i) => CASES.findIndex((other) => other.reason === c.reason) === i,
  );
  expect(
    refusals.map((r) => ({
      tag: (r.intent as { tag?: string }).tag,
      reason: r.reason,
      detail: r.detail,
      msg: r.msg,
      strategy: r.strategy,
    })),
  ).toEqual(
    firstOfEachReason.map((c) => ({
      tag: c.intent.tag,
      reason: c.reason,
      detail: c.detail,
      msg: `intent refused (${c.reason}): ${c.detail}`,
      strategy: 'scripted',
    })),
  );
  expect(summary.stats.refusals).toEqual({
    BELOW_MIN_AMOUNT: 2,
    MARKET_INACTIVE: 1,
    ZERO_AFTER_ROUNDING: 4,
  });
  expect(summary.stats.ordersByState).toEqual({});
});

/**
 * A quant's first mistakes must not pass in silence: a misspelled strategy param and a symbol
 * the venue does not list stop the bot at start (exit 2, file:line:col, did-you-mean) before a
 * key is registered or an order sent; intents the host rejects are counted by reason in the
 * stop summary and logged once per strategy and reason per minute, not once per snapshot. The
 * paper venue counts every request as it arrives, so its counts prove what reached it.
 */
import { afterEach, expect, it } from 'vitest';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';
import { exitCodeFor } from '../../../src/cli/exit-codes.ts';
import { startPaperVenue, type PaperVenue } from '../../../src/paper/index.ts';
import {
  captureLogs,
  FIXTURE_MARKETS,
  runBot,
  spawnQuanta,
  strategyModule,
  tempDir,
  waitFor,
  writeBotConfig,
  WALLET_ENV,
} from './harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

async function setup(): Promise<{ dir: string; venue: PaperVenue }> {
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const venue = await startPaperVenue({ port: 0, markets: FIXTURE_MARKETS });
  cleanups.push(() => venue.close());
  return { dir, venue };
}

async function startError(configPath: string): Promise<QuantaError> {
  const { log } = captureLogs();
  const error = await runBot(configPath, log).then(
    async (bot) => {
      await bot.stop();
      throw new Error('expected the bot not to start');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(QuantaError);
  return error as QuantaError;
}

it('a misspelled strategy param: exit 2 naming file:line:col and the closest name, no venue request', async () => {
  const { dir, venue } = await setup();
  const config = await writeBotConfig(dir, {
    writeUrl: venue.url,
    strategies: [
      {
        module: strategyModule('dca'),
        markets: ['ETH-USD'],
        params: { quoteAmout: '100', everySnapshots: 5 },
      },
    ],
  });
  const error = await startError(config);
  expect(error.code).toBe(ErrorCodes.STRATEGY_PARAMS);
  expect(exitCodeFor(error)).toBe(2);
  expect(error.details.join('\n')).toMatch(
    /bot\.yaml:\d+:\d+ strategies\[0\]\.params\.quoteAmout: unknown param of strategy dca; did you mean "quoteAmount"\?/,
  );
  expect(venue.requestCount()).toBe(0);

  // The same through the command: exit status 2 and the line on stderr.
  const cli = spawnQuanta(['run', '--config', config], {
    ...process.env,
    [WALLET_ENV]: '0x' + '11'.repeat(32),
  });
  expect((await cli.exited).code).toBe(2);
  expect(cli.stderr.map((l) => l.line).join('\n')).toMatch(
    /bot\.yaml:\d+:\d+ strategies\[0\]\.params\.quoteAmout: .*did you mean "quoteAmount"/,
  );
  expect(venue.requestCount()).toBe(0);
}, 30_000);

it('a symbol the venue does not list: exit 2 with did-you-mean, before any key is registered', async () => {
  const { dir, venue } = await setup();
  const config = await writeBotConfig(dir, {
    writeUrl: venue.url,
    strategies: [{ module: strategyModule('dca'), markets: ['ETHUSD'] }],
  });
  const error = await startError(config);
  expect(error.code).toBe(ErrorCodes.CONFIG_INVALID);
  expect(exitCodeFor(error)).toBe(2);
  expect(error.details[0]).toMatch(
    /bot\.yaml:\d+:\d+ strategies\[0\]\.markets\[0\]: market "ETHUSD" is not listed by the venue; did you mean "ETH-USD"\?/,
  );
  // Only the market listing was read: no registration, no order.
  expect(venue.requestCount('/api/v1/auth')).toBe(0);
  expect(venue.requestCount('/api/v1/order')).toBe(0);
  expect(venue.requestCount()).toBe(venue.requestCount('/api/v1/market'));
}, 30_000);

it('intents the host rejects are counted by reason and logged once per minute, never sent', async () => {
  const { dir, venue } = await setup();
  const config = await writeBotConfig(dir, {
    writeUrl: venue.url,
    strategies: [
      {
        module: strategyModule('fixtures/raw-intents'),
        markets: ['ETH-USD'],
        params: {
          intents: [
            { symbol: 'ETH-USD', side: 'BUY', type: 'MARKET', amount: 0.01 }, // a float
            { symbol: 'ETH-USD', side: 'BUY', type: 'MARKET', amount: '0.0000000001' }, // rounds to 0
            { symbol: 'NOPE-USD', side: 'BUY', type: 'MARKET', amount: '1' }, // unknown market
          ],
        },
      },
    ],
  });
  const { log, records } = captureLogs();
  const bot = await runBot(config, log);
  await waitFor('five snapshots', () => bot.snapshots.length >= 5);
  const summary = await bot.stop();
  const snapshots = bot.snapshots.filter((s) => !s.stale).length;
  expect(summary.stats.refusals.INVALID_INTENT).toBeGreaterThanOrEqual(snapshots - 1);
  expect(summary.stats.refusals.ZERO_AFTER_ROUNDING).toBeGreaterThanOrEqual(snapshots - 1);
  expect(summary.stats.refusals.MARKET_NOT_FOUND).toBeGreaterThanOrEqual(snapshots - 1);
  expect(summary.stats.refusalsByStrategy['raw-intents']).toEqual(summary.stats.refusals);
  expect(venue.requestCount('/api/v1/order')).toBe(0);

  const refusalLines = records.filter((r) => r.msg?.startsWith('intent refused') === true);
  // One line per reason within the minute, however many snapshots refused it.
  expect(refusalLines.map((r) => r.reason).sort()).toEqual([
    'INVALID_INTENT',
    'MARKET_NOT_FOUND',
    'ZERO_AFTER_ROUNDING',
  ]);
  const floatLine = refusalLines.find((r) => r.reason === 'INVALID_INTENT');
  expect(floatLine?.detail).toMatch(
    /amount: expected a decimal string like "0.05", got the number 0.01/,
  );
}, 30_000);

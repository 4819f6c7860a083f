/**
 * `quanta status --config FILE` reads a bot's state from its journal, read-only, beside the
 * running bot and after it stopped; the commanded trading mode is kept in the journal, so a
 * halted bot stays halted across a restart and the status says so.
 */
import { readFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { MODE_SCOPE, TradingModes } from '../../../src/execution/trading-mode.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { startPaperVenue } from '../../../src/paper/index.ts';
import { DEFAULT_SIM_MARKETS } from '../../../src/sim/default-markets.ts';
import type { BotStatus } from '../../../src/runtime/bot-status.ts';
import {
  captureLogs,
  journalPath,
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

async function status(config: string): Promise<BotStatus> {
  const child = spawnQuanta(['status', '--config', config, '--json'], {
    ...process.env,
    [WALLET_ENV]: `0x${'3'.repeat(64)}`,
  });
  expect((await child.exited).code, child.tail()).toBe(0);
  return JSON.parse(child.stdout.map((l) => l.line).join('\n')) as BotStatus;
}

it('quanta status shows positions and orders beside the running bot, and the kept mode after it stopped', async () => {
  const venue = await startPaperVenue({ port: 0, seed: 9 });
  cleanups.push(() => venue.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const config = await writeBotConfig(dir, {
    writeUrl: venue.url,
    strategies: [
      {
        module: strategyModule('fixtures/scripted'),
        markets: ['ETH-USD'],
        params: { intents: [{ symbol: 'ETH-USD', side: 'BUY', amount: '0.012345' }] },
      },
    ],
  });
  const { log } = captureLogs();
  const running = await runBot(config, log);
  cleanups.push(() => running.stop());
  await waitFor('the order filled', () => running.bot.journal.all()[0]?.state === 'FILLED');

  const live = await status(config);
  expect(live.mode).toBe('trading');
  expect(live.positions).toMatchObject([{ symbol: 'ETH-USD', amount: '0.012345' }]);
  // The tick of the venue's listing, which the bot kept in its journal at start (before, it was
  // always guessed from the journaled prices, tickFrom 'journaled prices').
  const listed = DEFAULT_SIM_MARKETS.find((m) => m.symbol === 'ETH-USD');
  expect(live.positions[0]).toMatchObject({
    priceDecimals: listed?.priceExpo,
    tickFrom: 'venue listing',
  });
  expect(live.lastOrders).toMatchObject([
    { id: 1, side: 'BUY', amount: '0.012345', state: 'FILLED' },
  ]);
  expect(live.openOrders).toEqual([]);
  expect(live.ordersByState).toEqual({ FILLED: 1 });
  // The signing key the bot registered, from its credential file: addresses and times only.
  const stored = JSON.parse(readFileSync(live.credentials.file, 'utf8')) as {
    credentials: { signerAddress: string; serviceSecret: string; signingPrivateKey: string }[];
  };
  expect(live.credentials).toMatchObject({
    error: null,
    keys: [{ signer: stored.credentials[0]?.signerAddress, refusedAt: null }],
  });
  const shown = JSON.stringify(live);
  for (const secret of [
    stored.credentials[0]?.serviceSecret,
    stored.credentials[0]?.signingPrivateKey.slice(2),
  ])
    expect(shown).not.toContain(secret);
  await running.stop();

  // An operator halted it (as POST /halt does): the mode is in the journal for the next start.
  const journal = OrderJournal.open(journalPath(dir));
  new TradingModes({
    now: Date.now,
    log: silentLogger,
    store: {
      get: (key) => journal.kvGet(MODE_SCOPE, key),
      set: (key, value) => journal.kvSet(MODE_SCOPE, key, value),
    },
  }).set('halt-entries', 'control');
  const restarted = new TradingModes({
    now: Date.now,
    log: silentLogger,
    store: { get: (key) => journal.kvGet(MODE_SCOPE, key), set: () => undefined },
  });
  expect(restarted.mode).toBe('halt-entries');
  journal.close();
  expect((await status(config)).mode).toBe('halt-entries');
}, 60_000);

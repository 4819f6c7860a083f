/**
 * Issue 27, `quanta run --warmup DIR`: a bot whose strategy needs 21 one-minute bars (an EMA(21))
 * pre-loads them from a recording that runs up to its start, and trades on its first live
 * snapshot, through the paper venue (port 0, an injected clock); the same bot without it has
 * each intent refused (WARMING_UP, counted) while it warms up live. History that stops too long
 * before the start, or holds other markets, is refused with a message saying so.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generatePrivateKey } from 'viem/accounts';
import { loadConfig } from '../../../src/config/index.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { RecordingWriter } from '../../../src/market/recording/index.ts';
import { createSnapshot } from '../../../src/market/snapshot.ts';
import { startPaperVenue } from '../../../src/paper/index.ts';
import { startBotWithParts } from '../../../src/runtime/bot.ts';
import { DEFAULT_SIM_MARKETS } from '../../../src/sim/default-markets.ts';
import type { ProducedIntent } from '../../../src/stack/trading-session.ts';
import { virtualTime } from '../../helpers/virtual-time.ts';
import {
  ROOT,
  runVirtualUntil,
  startOrderProxy,
  strategyModule,
  tempDir,
  WALLET_ENV,
  writeBotConfig,
} from './harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

const START = Date.UTC(2026, 0, 5, 12, 30, 5);
const ETH = DEFAULT_SIM_MARKETS.find((market) => market.symbol === 'ETH-USD');

/** 30 minutes of ETH-USD quotes every 10 s, the last `endsBefore` ms before START. */
async function recording(dir: string, endsBefore: number): Promise<string> {
  if (ETH === undefined) throw new Error('no ETH-USD in the default markets');
  const out = join(dir, 'history');
  const writer = await RecordingWriter.open({ dir: out, source: 'warm-up test' });
  const end = START - endsBefore;
  for (let i = 0; i <= 180; i++) {
    const takenAt = end - (180 - i) * 10_000;
    const mid = 3000 + (i % 7) - 3;
    writer.write(
      createSnapshot({
        seq: i + 1,
        takenAt,
        markets: [ETH],
        quotes: [
          {
            marketId: ETH.id,
            timestamp: takenAt,
            bids: [{ price: String(mid - 0.5), quantity: '5' }],
            asks: [{ price: String(mid + 0.5), quantity: '5' }],
          },
        ],
      }),
    );
  }
  await writer.close();
  return out;
}

async function setUp(markets: string[] = ['ETH-USD']) {
  const time = virtualTime(START);
  const venue = await startPaperVenue({ port: 0, seed: 27, clock: time.now });
  cleanups.push(() => venue.close());
  const proxy = await startOrderProxy(venue.url, () => 'forward');
  cleanups.push(() => proxy.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const path = await writeBotConfig(dir, {
    writeUrl: proxy.url,
    poll: { intervalMs: 10_000, quotes: true },
    strategies: [{ module: strategyModule('fixtures/warm-buyer'), markets }],
  });
  const env = { [WALLET_ENV]: generatePrivateKey() };
  const config = await loadConfig(path, { env });
  const intents: ProducedIntent[] = [];
  const start = (warmup?: string) =>
    startBotWithParts({
      config,
      env,
      log: silentLogger,
      projectRoot: ROOT,
      now: time.now,
      monotonic: time.now,
      sleep: time.sleep,
      onIntent: (produced) => intents.push(produced),
      ...(warmup === undefined ? {} : { warmup }),
    });
  const runFor = async (bot: Awaited<ReturnType<typeof start>>, ms: number) => {
    const controller = new AbortController();
    const running = bot.run(controller.signal);
    await runVirtualUntil(time, proxy, time.now() + ms);
    controller.abort();
    await running;
  };
  return { dir, start, runFor, intents };
}

describe('quanta run --warmup', () => {
  it('pre-loads the bars from a recording and trades on the first live snapshot', async () => {
    const { dir, start, runFor, intents } = await setUp();
    const bot = await start(await recording(dir, 5_000));
    cleanups.push(() => bot.shutdown());
    await runFor(bot, 5_000);
    expect(intents.map(({ seq, intent }) => ({ seq, side: intent.side }))).toEqual([
      { seq: 1, side: 'BUY' },
    ]);
    expect(bot.journal.all().map((order) => order.state)).toEqual(['FILLED']);
    expect(bot.executor.stats().refusals).toEqual({});
  }, 120_000);

  it('without it, the strategy warms up live: each intent is refused and counted', async () => {
    const { start, runFor, intents } = await setUp();
    const bot = await start();
    cleanups.push(() => bot.shutdown());
    await runFor(bot, 25_000);
    expect(intents).toEqual([]);
    expect(bot.journal.all()).toEqual([]);
    expect(bot.executor.stats().refusalsByStrategy).toEqual({ 'warm-buyer': { WARMING_UP: 3 } });
  }, 120_000);

  it('refuses history that stops a bar or more before the start', async () => {
    const { dir, start } = await setUp();
    const history = await recording(dir, 5 * 60_000);
    await expect(start(history)).rejects.toThrow(
      `--warmup ${history}: the history ends at 2026-01-05T12:25:05.000Z, 300 s before the bot's start (2026-01-05T12:30:05.000Z); strategy warm-buyer's 1m bars would miss the bars between: pre-load from a recording that runs up to the start (quanta record, or a running bot's record: section), or start without --warmup`,
    );
  }, 120_000);

  it('refuses history of other markets', async () => {
    const { dir, start } = await setUp(['BTC-USD']);
    const history = await recording(dir, 5_000);
    await expect(start(history)).rejects.toThrow(
      `--warmup ${history}: the history holds ETH-USD, not BTC-USD (warm-buyer): pre-load from a recording or candles of the strategies' markets`,
    );
  }, 120_000);
});

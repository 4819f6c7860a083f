import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePrivateKey } from 'viem/accounts';
import { afterEach, describe, expect, it } from 'vitest';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import { parseConfig } from '../../../src/config/index.ts';
import type { ProducedIntent } from '../../../src/stack/trading-session.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { RecordingWriter } from '../../../src/market/recording/index.ts';
import { startPaperVenue, type PaperVenue } from '../../../src/paper/index.ts';
import { startBot } from '../../../src/runtime/bot.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';

let venue: PaperVenue | undefined;
let dir: string | undefined;
afterEach(async () => {
  await venue?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

function botConfig(url: string, stateDir: string) {
  const yaml = `
venue: { writeUrl: '${url}', readUrl: '${url}' }
wallet: { privateKeyEnv: AGREEMENT_WALLET_KEY }
state: { dir: '${stateDir}' }
poll: { intervalMs: 50 }
execution: { rateLimit: { requests: 1000, perMs: 1000 }, concurrency: 1 }
risk: { maxOrderNotional: '100000', maxPositionNotional: '1000000', capital: '100000' }
strategies:
  - module: strategies/dca.ts
    markets: [ETH-USD]
    params: { quoteAmount: '100', everySnapshots: 3 }
  - module: strategies/mean-reversion.ts
    markets: [BTC-USD, SOL-USD]
    params: { window: 4, entryZ: 0.5, exitZ: 0.1, orderAmount: '0.001', maxPosition: '0.003' }
`;
  return parseConfig(yaml, 'agreement.yaml', ROOT);
}

describe('live and backtest agree', () => {
  it('a recorded live run, backtested, produces the same sequence of intents', async () => {
    dir = mkdtempSync(join(tmpdir(), 'quanta-agreement-'));
    // A fast, volatile venue so mean reversion trades within a few dozen polls.
    venue = await startPaperVenue({ port: 0, seed: 7, volatilityBps: 40 });
    const config = botConfig(venue.url, join(dir, 'state'));
    const writer = await RecordingWriter.open({ dir: join(dir, 'rec'), source: 'agreement test' });
    const live: ProducedIntent[] = [];
    const bot = await startBot({
      config,
      env: { AGREEMENT_WALLET_KEY: generatePrivateKey() },
      log: silentLogger,
      projectRoot: ROOT,
      onSnapshot: (snapshot) => writer.write(snapshot),
      onIntent: (produced) => live.push(produced),
    });
    const controller = new AbortController();
    const running = bot.run(controller.signal);
    // Run until both strategies have traded a few times (bounded by the test timeout).
    while (live.filter((p) => p.strategy === 'mean-reversion').length < 3 || live.length < 6) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    controller.abort();
    await running;
    await bot.shutdown();
    await writer.close();

    const trace = await runBacktest({ config, data: join(dir, 'rec'), projectRoot: ROOT });
    const strip = (list: readonly { seq: number; strategy: string; intent: unknown }[]) =>
      list.map(({ seq, strategy, intent }) => ({ seq, strategy, intent }));
    expect(live.length).toBeGreaterThanOrEqual(6);
    expect(strip(trace.intents)).toEqual(strip(live));
  }, 60_000);
});

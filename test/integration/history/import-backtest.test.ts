/**
 * Issue 28: `quanta backtest` on imported quotes and on the `quanta record` recording they
 * came from gives the same trades. The recording (test/fixtures/recording/, made by
 * `quanta record`) is written out as a quotes CSV of ETH-USD's best bid and ask, imported with
 * a rules file holding the recorded market's rules, and both are backtested with the dca
 * example.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { formatX18 } from '../../../src/money/index.ts';
import { importHistory, readMarketRules } from '../../../src/market/history/index.ts';
import { readRecording } from '../../../src/market/recording/index.ts';
import type { Market } from '../../../src/domain/index.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const RECORDING = join(ROOT, 'test/fixtures/recording/recording-2026-11-23T04-03-16-618Z.jsonl.gz');
const tempDir = tempDirs('quanta-import-backtest-');

/** The market's rules as a rules file states them. */
function rulesOf(market: Market): string {
  return [
    `symbol: ${market.symbol}`,
    `id: ${market.id}`,
    `type: ${market.type}`,
    `baseAsset: ${market.baseAsset}`,
    `quoteAsset: ${market.quoteAsset}`,
    `amountExpo: ${market.amountExpo}`,
    `priceExpo: ${market.priceExpo}`,
    `minAmount: '${formatX18(market.minAmountX18)}'`,
    `maxPositionValue: '${formatX18(market.maxPositionValueX18)}'`,
    `makerFee: '${formatX18(market.makerFeeX18)}'`,
    `takerFee: '${formatX18(market.takerFeeX18)}'`,
    `initialMargin: '${formatX18(market.initialMarginX18)}'`,
    `maintenanceMargin: '${formatX18(market.maintenanceMarginX18)}'`,
    '',
  ].join('\n');
}

describe('imported quotes backtest like the recording they came from', () => {
  it('gives the same trades', async () => {
    const dir = tempDir();
    const lines = ['timestamp,bid,bid_size,ask,ask_size'];
    let market: Market | undefined;
    for await (const snapshot of readRecording(RECORDING, { onWarning: () => undefined })) {
      market ??= [...snapshot.markets.values()].find((m) => m.symbol === 'ETH-USD');
      const quote = snapshot.quotes?.get(market?.id ?? -1);
      const [bid, ask] = [quote?.bids[0], quote?.asks[0]];
      if (bid === undefined || ask === undefined) throw new Error('a snapshot without a top');
      lines.push(`${snapshot.takenAt},${bid.price},${bid.quantity},${ask.price},${ask.quantity}`);
    }
    if (market === undefined) throw new Error('no ETH-USD in the recording');
    writeFileSync(join(dir, 'eth.csv'), `${lines.join('\n')}\n`);
    writeFileSync(join(dir, 'eth.yaml'), rulesOf(market));
    const rules = await readMarketRules(join(dir, 'eth.yaml'));
    const out = join(dir, 'imported');
    const summary = await importHistory({
      kind: 'quotes',
      market: rules.market,
      files: [join(dir, 'eth.csv')],
      out,
      now: () => 0,
    });
    expect(summary.snapshots).toBe(lines.length - 1);

    const config = await loadConfig(join(ROOT, 'test/fixtures/configs/dca.yaml'), { env: {} });
    const trades = async (data: string) => {
      const trace = await runBacktest({ config, data, projectRoot: ROOT });
      return trace.fills.map((f) => ({
        t: f.t,
        side: f.side,
        marketId: f.marketId,
        amount: formatX18(f.amountX18),
        price: formatX18(f.priceX18),
        fee: formatX18(f.feeX18),
      }));
    };
    const recorded = await trades(RECORDING);
    const imported = await trades(out);
    // dca buys every 5 snapshots: 60 snapshots give a dozen trades to compare.
    expect(recorded.length).toBeGreaterThanOrEqual(10);
    expect(imported).toEqual(recorded);
  }, 60_000);
});

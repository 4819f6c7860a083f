/**
 * Issue 29 through the backtest: a strategy that doubles its ETH-USD long every snapshot, with
 * 1000 USDC of starting capital (ETH-USD: IMF 5 %, MMF 2 %), is refused at the margin limit
 * (INSUFFICIENT_MARGIN, counted), and when the price then falls it is liquidated at the first
 * snapshot whose mark is at or below the price the maintenance rule gives for its account, at
 * that snapshot's bid, with the 1 % liquidation fee; the liquidation is in the trace, the
 * position is flat after it and the venue refuses the account's orders from then on.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import { parseConfig } from '../../../src/config/index.ts';
import { liquidationPriceX18 } from '../../../src/domain/account/index.ts';
import { formatX18, parseDecimalToX18 as x18 } from '../../../src/money/index.ts';
import { RECORDING_T0, recordSnapshots } from '../../helpers/recordings.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';
import { marginSnapshots } from './margin-prices.ts';

const tempDir = tempDirs('quanta-margin-');

const MARGIN_CONFIG = `
venue: { writeUrl: embedded, readUrl: embedded }
risk: { maxOrderNotional: '100000000', maxPositionNotional: '100000000', capital: '1000' }
paper: { balance: '1000' }
backtest: { startingCapital: '1000', latencyMs: 0 }
strategies:
  - module: test/fixtures/strategies/doubler.ts
    markets: [ETH-USD]
    params: { start: '0.5' }
`;

describe('margin in a backtest', () => {
  it('refuses the doubling at the margin limit, then liquidates at the rule price', async () => {
    const dir = tempDir();
    const data = await recordSnapshots({ path: join(dir, 'margin.jsonl') }, marginSnapshots());
    const trace = await runBacktest({
      config: parseConfig(MARGIN_CONFIG, 'margin.yaml', ROOT),
      data,
      projectRoot: ROOT,
    });
    const bought = trace.fills.filter((f) => f.orderId !== 0);
    // 0.5, 0.5, 1, 2 at the ask: 4 ETH; the order for 4 more needs 600.1 + fee, ~394 is free.
    expect(bought.map((f) => formatX18(f.amountX18))).toEqual(['0.5', '0.5', '1', '2']);
    expect(trace.refusals.INSUFFICIENT_MARGIN ?? 0).toBeGreaterThanOrEqual(4);
    const fees = bought.reduce((sum, f) => sum + f.feeX18, 0n);
    expect(formatX18(fees)).toBe('6.001');
    const rule = liquidationPriceX18(
      {
        balanceX18: x18('1000') - fees,
        positions: [
          {
            marketId: 1,
            type: 'PERPETUAL',
            amountX18: x18('4'),
            entryPriceX18: x18('3000.5'),
            markX18: x18('3000.25'),
            initialFractionX18: x18('0.05'),
            maintenanceFractionX18: x18('0.02'),
          },
        ],
      },
      0,
    );
    // (12002 − 993.999) / 3.92: 2850.25 is above it, 2800.25 below.
    expect(formatX18(rule ?? 0n)).toBe('2808.163520408163265306');
    expect(trace.liquidations).toEqual([
      {
        t: RECORDING_T0 + 9000,
        marketId: 1,
        side: 'SELL',
        amountX18: x18('4'),
        priceX18: x18('2800'),
        markX18: x18('2800.25'),
        feeX18: x18('112'),
        equityX18: x18('192.999'),
        maintenanceMarginX18: x18('224.02'),
      },
    ]);
    const closing = trace.fills.filter((f) => f.orderId === 0);
    expect(closing).toEqual([
      {
        strategy: 'doubler',
        marketId: 1,
        side: 'SELL',
        amountX18: x18('4'),
        priceX18: x18('2800'),
        feeX18: x18('112'),
        orderId: 0,
        t: RECORDING_T0 + 9000,
      },
    ]);
    // Flat after it, with 1000 − 6.001 − 4 × 200.5 − 112 = 79.999 left; no fill after it.
    expect(trace.measured?.account.total.equity().equityX18).toBe(x18('79.999'));
    expect(trace.fills.at(-1)?.orderId).toBe(0);
    // The next doubling order passes the bot's check (79.999 of equity) and the venue refuses it.
    const last = trace.orders.at(-1);
    expect(last?.state).toBe('REJECTED');
    expect(last?.error).toContain('account liquidated');
  });
});

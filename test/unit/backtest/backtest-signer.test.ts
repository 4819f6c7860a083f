import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BACKTEST_SIGNING_KEY,
  BACKTEST_SUBACCOUNT,
  backtestSigner,
} from '../../../src/backtest/backtest-signer.ts';
import { computeMetrics } from '../../../src/backtest/metrics.ts';
import { buildReport, serializeReport } from '../../../src/backtest/report-json.ts';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import { loadConfig } from '../../../src/config/index.ts';
import type { OrderSigner } from '../../../src/execution/executor.ts';
import { signOrder } from '../../../src/venue/signing/index.ts';
import { DEFAULT_SIGNING_DOMAIN } from '../../../src/venue/types.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';

/** The live path's signer (ECDSA over the order), recording every body it was asked to sign. */
function liveSigner(bodies: string[]): OrderSigner {
  return {
    async sign(body) {
      bodies.push(JSON.stringify(body));
      const signed = await signOrder({
        signingPrivateKey: BACKTEST_SIGNING_KEY,
        subaccountId: BACKTEST_SUBACCOUNT,
        body,
        domain: DEFAULT_SIGNING_DOMAIN,
      });
      // What the live signer signs is exactly the body it was given.
      expect(JSON.stringify(signed.body)).toBe(JSON.stringify(body));
      return { signature: signed.signature, signer: signed.signer };
    },
  };
}

describe('the backtest signer (no ECDSA)', () => {
  it('signs with the backtest key address, a 65-byte stand-in unique per body', async () => {
    const live = await signOrder({
      signingPrivateKey: BACKTEST_SIGNING_KEY,
      subaccountId: BACKTEST_SUBACCOUNT,
      body: {
        marketId: 1,
        isBuy: true,
        orderType: 'MARKET',
        amount: '0.1',
        price: '0',
        expiryTs: 1,
        isReduce: false,
      },
      domain: DEFAULT_SIGNING_DOMAIN,
    });
    const signer = backtestSigner();
    const a = await signer.sign(live.body);
    const b = await signer.sign({ ...live.body, expiryTs: 2 });
    expect(a.signer).toBe(live.signer);
    expect(a.signature).toMatch(/^0x[0-9a-f]{130}$/);
    expect(b.signature).not.toBe(a.signature);
    expect((await signer.sign(live.body)).signature).toBe(a.signature);
  });

  it('a backtest sends exactly the order bytes the live signer signs, and reports the same', async () => {
    const config = await loadConfig(join(ROOT, 'test/fixtures/configs/mean-reversion.yaml'));
    const data = join(ROOT, 'test/fixtures/recording');
    const signed: string[] = [];
    const live = await runBacktest({ config, data, projectRoot: ROOT, signer: liveSigner(signed) });
    const fast = await runBacktest({ config, data, projectRoot: ROOT });
    expect(fast.orders.length).toBeGreaterThan(0);
    // Every order body, byte for byte: the ones the live signer signed, in the same order.
    expect(fast.orders.map((o) => o.body)).toEqual(signed);
    expect(live.orders.map((o) => o.body)).toEqual(signed);
    expect(fast.orders.map((o) => o.signer)).toEqual(live.orders.map((o) => o.signer));
    expect(serializeReport(buildReport(fast, computeMetrics(fast)))).toBe(
      serializeReport(buildReport(live, computeMetrics(live))),
    );
  }, 60_000);
});

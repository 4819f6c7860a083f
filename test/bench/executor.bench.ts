/**
 * The order path's overhead against its own unavoidable cost, measured in one run:
 *   (a) baseline: signing N orders with viem (EIP-712 + secp256k1), nothing else;
 *   (b) the executor end to end in backtest mode: sizing, checks, signing, journal (in memory),
 *       dispatcher (p-queue, p-retry) and the simulation filling at a quote;
 *   (c) the same with the journal on disk (WAL, synchronous FULL: one fsync per write), as live.
 * Prints orders/s and the ratios b/a and c/a. Nothing asserts a time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keccak256, toHex } from 'viem';
import { simOrderSubmitter } from '../../src/backtest/sim-venue.ts';
import { Dispatcher } from '../../src/execution/dispatcher.ts';
import { Executor } from '../../src/execution/executor.ts';
import { OrderJournal } from '../../src/execution/journal.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { createSnapshot } from '../../src/market/snapshot.ts';
import { parseDecimalToX18 } from '../../src/money/index.ts';
import { DEFAULT_SIM_MARKETS, SimEngine } from '../../src/sim/index.ts';
import { signOrder } from '../../src/venue/signing/index.ts';
import { DEFAULT_SIGNING_DOMAIN, type OrderRequestBody } from '../../src/venue/types.ts';

const N = Number(process.env.BENCH_ORDERS ?? 2000);
const ROUNDS = 3;
const KEY = keccak256(toHex('quanta bench key'));
const SUBACCOUNT = '0_0x0000000000000000000000000000000000000001_1';
const T0 = 1_790_000_000_000;

async function rawSigning(): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < N; i++) {
    const body: OrderRequestBody = {
      marketId: 1,
      isBuy: i % 2 === 0,
      orderType: 'MARKET',
      amount: '0.01',
      price: '0',
      expiryTs: T0 + 60_000 + i,
      isReduce: false,
    };
    await signOrder({
      signingPrivateKey: KEY,
      subaccountId: SUBACCOUNT,
      body,
      domain: DEFAULT_SIGNING_DOMAIN,
    });
  }
  return performance.now() - started;
}

async function executorPath(journalPath: string): Promise<number> {
  const now = (): number => T0;
  const engine = new SimEngine({ clock: now, markets: DEFAULT_SIM_MARKETS });
  const journal = OrderJournal.open(journalPath);
  const executor = new Executor({
    journal,
    dispatcher: new Dispatcher({
      submitter: simOrderSubmitter(engine, 'bench'),
      requests: Infinity,
      perMs: 1,
      concurrency: 4,
      maxAttempts: 1,
      now,
      sleep: () => Promise.resolve(),
      log: silentLogger,
    }),
    signer: {
      async sign(body) {
        const signed = await signOrder({
          signingPrivateKey: KEY,
          subaccountId: SUBACCOUNT,
          body,
          domain: DEFAULT_SIGNING_DOMAIN,
        });
        return { signature: signed.signature, signer: signed.signer };
      },
    },
    limits: {
      maxOrderNotionalX18: parseDecimalToX18('1000000'),
      maxPositionNotionalX18: parseDecimalToX18('1000000000'),
    },
    killSwitchOn: () => false,
    now,
    log: silentLogger,
    orderTtlMs: 60_000,
  });
  const snapshot = createSnapshot({
    seq: 1,
    takenAt: T0,
    markets: engine.listMarkets(),
    quotes: engine.quotes(),
  });
  const started = performance.now();
  for (let i = 0; i < N; i++) {
    await executor.submit(
      'bench',
      { marketId: 1, side: i % 2 === 0 ? 'BUY' : 'SELL', type: 'MARKET', amount: '0.01' },
      snapshot,
    );
  }
  await executor.settle();
  const elapsed = performance.now() - started;
  const filled = journal.inStates(['FILLED']).length;
  journal.close();
  if (filled !== N) throw new Error(`expected ${N} FILLED orders, got ${filled}`);
  return elapsed;
}

const dir = mkdtempSync(join(tmpdir(), 'quanta-bench-'));
const best = { sign: Infinity, memory: Infinity, disk: Infinity };
try {
  for (let round = 0; round < ROUNDS; round++) {
    best.sign = Math.min(best.sign, await rawSigning());
    best.memory = Math.min(best.memory, await executorPath(':memory:'));
    best.disk = Math.min(best.disk, await executorPath(join(dir, `journal-${round}.sqlite`)));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const rate = (ms: number): string => `${Math.round((N / ms) * 1000)} orders/s`;
console.log(`${N} orders, best of ${ROUNDS} rounds`);
console.log(`(a) raw EIP-712 signing (baseline)          ${rate(best.sign)}   1.00x`);
console.log(
  `(b) executor, journal in memory             ${rate(best.memory)}   ${(best.sign / best.memory).toFixed(2)}x of (a)`,
);
console.log(
  `(c) executor, journal on disk (fsync each)  ${rate(best.disk)}   ${(best.sign / best.disk).toFixed(2)}x of (a)`,
);

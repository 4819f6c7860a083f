import { resolve } from 'node:path';
import { parseConfig, type Config } from '../../src/config/index.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { createSnapshot, type Snapshot } from '../../src/market/snapshot.ts';
import { loadStrategy, parseStrategyParams } from '../../src/strategy/load-strategy.ts';
import { StrategyHost } from '../../src/strategy/strategy-host.ts';
import type { Market, Quote } from '../../src/domain/index.ts';

export const ROOT = resolve(import.meta.dirname, '../..');

/** A strategy from strategies/ hosted with in-memory store and settable positions. */
export async function hostStrategy(
  file: string,
  params: unknown,
  symbols: string[],
  clock = { now: 0 },
) {
  const strategy = await loadStrategy(file, [ROOT]);
  const positions = new Map<number, bigint>();
  const kv = new Map<string, string>();
  const host = new StrategyHost({
    strategy,
    name: strategy.name,
    params: parseStrategyParams(strategy, strategy.name, params),
    symbols,
    now: () => clock.now,
    log: silentLogger,
    store: { get: (k) => kv.get(k), set: (k, v) => void kv.set(k, v) },
    positionOf: (id) => positions.get(id) ?? 0n,
    openOrders: () => [],
  });
  await host.start();
  return { host, positions, kv, clock };
}

/** A quote with one level each side. */
export function quoteAt(marketId: number, bid: string, ask: string): Quote {
  return {
    marketId,
    timestamp: 0,
    bids: [{ price: bid, quantity: '100' }],
    asks: [{ price: ask, quantity: '100' }],
  };
}

export function snapshotOf(seq: number, markets: Market[], quotes: Quote[] = []): Snapshot {
  return createSnapshot({ seq, takenAt: seq * 1000, markets, quotes });
}

/**
 * The config of a backtest of test/fixtures/strategies/buy-hold.ts on ETH-USD (embedded venue,
 * limits far above what it buys), named `file` in its errors.
 */
export function buyHoldConfig(holdSnapshots: number, file: string): Config {
  return parseConfig(
    `
venue: { writeUrl: embedded, readUrl: embedded }
risk: { maxOrderNotional: '100000', maxPositionNotional: '1000000' }
strategies:
  - module: test/fixtures/strategies/buy-hold.ts
    markets: [ETH-USD]
    params: { amount: '0.01', holdSnapshots: ${holdSnapshots} }
`,
    file,
    ROOT,
  );
}

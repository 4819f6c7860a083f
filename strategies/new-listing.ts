import { z } from 'zod';
import { defineStrategy, formatX18, type OrderIntent, type StrategyStore } from 'quanta';

/**
 * Buys the market minimum when a configured market turns active (listed for the first time
 * while active, or going from inactive to active), then waits `cooldownMs` before it may buy
 * that market again. Markets already active at the first snapshot are not "new". What it has
 * seen is kept in the strategy store, so a restart does not buy again.
 */
export default defineStrategy({
  name: 'new-listing',
  params: z
    .object({
      cooldownMs: z.number().int().nonnegative().default(3_600_000),
    })
    .strict(),
  // Annotated so TypeScript infers the state type from init's return value.
  init({ store }: { store: StrategyStore }) {
    const stored = store.get('active');
    return {
      active: new Set<string>(stored === undefined ? [] : (JSON.parse(stored) as string[])),
      primed: stored !== undefined,
    };
  },
  onSnapshot(snapshot, ctx) {
    if (snapshot.stale) return [];
    const state = ctx.state;
    const wanted = new Set(ctx.symbols);
    const intents: OrderIntent[] = [];
    const nowActive = new Set<string>();
    for (const market of snapshot.markets.values()) {
      if (!wanted.has(market.symbol) || !market.isActive) continue;
      nowActive.add(market.symbol);
      if (!state.primed || state.active.has(market.symbol)) continue;
      const lastBuy = Number(ctx.store.get(`lastBuy:${market.symbol}`) ?? '-Infinity');
      if (ctx.now() - lastBuy < ctx.params.cooldownMs) continue;
      ctx.store.set(`lastBuy:${market.symbol}`, String(ctx.now()));
      ctx.log.info(
        { marketId: market.id, symbol: market.symbol },
        'new listing: buying the minimum',
      );
      intents.push({
        marketId: market.id,
        side: 'BUY',
        type: 'MARKET',
        amount: formatX18(market.minAmountX18),
        tag: 'new-listing',
      });
    }
    state.active = nowActive;
    state.primed = true;
    ctx.store.set('active', JSON.stringify([...nowActive].sort()));
    return intents;
  },
});

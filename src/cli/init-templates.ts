/** The files `quanta init` writes. Kept here as text so the package needs no template folder. */

/** The config, naming the strategy module at `modulePath` (relative to the config). */
export function initConfig(modulePath: string): string {
  return `# Made by \`quanta init\`. Runs on the embedded paper venue: a simulated venue started inside
# the bot, so no account and no key are needed (a throwaway key is generated).
# For a real venue, see config/live.example.yaml in the quanta package.

venue:
  writeUrl: embedded
  readUrl: embedded

state:
  dir: .quanta # journal, credentials; relative to this file

poll:
  intervalMs: 1000

risk:
  maxOrderNotional: '1000' # quote units (USD) per order
  maxPositionNotional: '5000' # per market

strategies:
  - module: ${modulePath}
    markets: [ETH-USD]
    params:
      amount: '0.01' # ETH per order, a quoted decimal
      holdSnapshots: 5 # how long to hold before selling back
`;
}

/** A package.json for a folder that has none: strategies are ES modules. */
export const INIT_PACKAGE_JSON = `${JSON.stringify({ name: 'my-quanta-bot', private: true, type: 'module' }, null, 2)}\n`;

export const INIT_STRATEGY = `import { defineStrategy, isFlat, isLong, mid, z, type OrderIntent } from 'quanta';

/**
 * A first strategy to edit: buys \`amount\` when flat, then sells it back (reduce-only) after
 * holding it for \`holdSnapshots\` snapshots. Amounts are decimal strings, never floats.
 */
export default defineStrategy({
  name: 'my-strategy',
  // .strict(): a misspelled param in the config is an error, not a silent default.
  params: z
    .object({
      amount: z.string().default('0.01'),
      holdSnapshots: z.number().int().positive().default(5),
    })
    .strict(),
  init: () => ({ boughtAt: new Map<number, number>() }),
  onSnapshot(snapshot, ctx) {
    if (snapshot.stale) return []; // old data: do nothing rather than trade on it
    const intents: OrderIntent[] = [];
    for (const marketId of ctx.marketIds) {
      const price = mid(snapshot.quotes?.get(marketId));
      if (price === undefined) continue; // no quote yet
      const position = ctx.position(marketId);
      const boughtAt = ctx.state.boughtAt.get(marketId);
      if (isFlat(position) && ctx.openOrders().length === 0) {
        ctx.log.info({ price }, 'buying');
        intents.push({ marketId, side: 'BUY', type: 'MARKET', amount: ctx.params.amount });
        ctx.state.boughtAt.set(marketId, snapshot.seq);
      } else if (
        isLong(position) &&
        boughtAt !== undefined &&
        snapshot.seq - boughtAt >= ctx.params.holdSnapshots
      ) {
        ctx.log.info({ price }, 'selling back');
        intents.push({ marketId, side: 'SELL', type: 'MARKET', amount: position, reduceOnly: true });
        ctx.state.boughtAt.delete(marketId);
      }
    }
    return intents;
  },
});
`;

import { DEFAULT_SIM_MARKETS } from '../sim/index.ts';

/**
 * What a schedule trades, and on which books: the seed decides the faults and every draw, the
 * mix decides the markets, the strategy's kind of orders and how deep the venue's books are.
 * `default` is the mix of every recorded ledger (docs/simulation-runs.md): changing it changes
 * every trace. Another mix is a second, separate population of schedules.
 */
export interface SimMix {
  /** A few words for `quanta sim --help` (the `--mix` flag lists every mix with them). */
  readonly summary: string;
  /** The symbols the strategy trades (each a market of the paper venue's default listing). */
  readonly markets: readonly string[];
  /** Whether the strategy prices LIMIT orders through the book (see sim-trader.ts). */
  readonly cross: boolean;
  /** Whether the strategy protects some entries with exits (see sim-trader.ts). */
  readonly exits: boolean;
  /** Whether the venue turns markets off for a while and jumps prices (fault-plan.ts). */
  readonly venueFaults: boolean;
  /** The venue's notional per synthetic book level; undefined: the paper venue's default. */
  readonly levelNotional: string | undefined;
  /**
   * The simulated bot's `risk.dailyLossLimit`, in quote units: low enough that some schedules
   * reach it (the bot then sends only reducing orders), so the limit is met across crashes
   * (daily-loss.ts).
   */
  readonly dailyLossLimit: bigint;
}

/** The `full` mix's daily loss limit (its thin books cost more than the default mix's). */
const FULL_LOSS_LIMIT = 300n;

/** Every mix, by name. */
export const SIM_MIXES = {
  /**
   * ETH-USD on deep books: the strategy's LIMIT orders (one in three) rest at the best price of
   * their own side, MARKET orders take. With the venue's faults (ETH-USD off for a while, its
   * price jumping, the bot's credentials revoked): the ledgers of docs/simulation-runs.md from
   * before they were added ran it without them (that page says which).
   */
  default: {
    summary: 'ETH-USD, deep books, LIMIT orders rest, markets off, price jumps, revocations',
    markets: ['ETH-USD'],
    cross: false,
    exits: false,
    venueFaults: true,
    levelNotional: undefined,
    dailyLossLimit: 100n,
  },
  /**
   * What the default mix leaves out: ETH-USD (maker fee = taker fee) and SOL-USD (maker 2 bp,
   * taker 5 bp) on thin books (400 of notional a level). Two orders in three are LIMIT, and three
   * in four of those are priced one to three levels through the book: they fill at several
   * prices, rest the rest at their own price and fill later as maker. One entry in three carries
   * protective exits close to the price, so that they fire. The venue's faults as in `default`,
   * on both markets.
   */
  full: {
    summary:
      'ETH-USD and SOL-USD, thin books, LIMIT orders through the book, protective exits, the same venue faults',
    markets: ['ETH-USD', 'SOL-USD'],
    cross: true,
    exits: true,
    venueFaults: true,
    levelNotional: '400',
    dailyLossLimit: FULL_LOSS_LIMIT,
  },
} as const satisfies Readonly<Record<string, SimMix>>;

/** `--mix`'s help: every mix with its summary. */
export const SIM_MIX_HELP = `what the bot trades: ${Object.entries(SIM_MIXES)
  .map(([name, mix]) => `${name} (${mix.summary})`)
  .join('; ')}`;

/** A mix's name. */
export type SimMixName = keyof typeof SIM_MIXES;

/** Whether `name` names a mix. */
export function isSimMixName(name: string): name is SimMixName {
  return Object.hasOwn(SIM_MIXES, name);
}

/**
 * The market in a violation's message: `''` when the bot trades one (the message is then what it
 * always was: a violation is part of the trace), else e.g. `' in market 5'`.
 */
export function marketInMessage(marketIds: readonly number[], marketId: number): string {
  return marketIds.length === 1 ? '' : ` in market ${marketId}`;
}

/** The ids of `mix`'s markets in the paper venue's default listing (the simulator's venue). */
export function marketIdsOf(mix: SimMix): number[] {
  return mix.markets.map((symbol) => {
    const market = DEFAULT_SIM_MARKETS.find((m) => m.symbol === symbol);
    if (market === undefined) throw new Error(`sim mix: the paper venue lists no ${symbol}`);
    return market.id;
  });
}

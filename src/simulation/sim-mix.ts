import { DEFAULT_SIM_MARKETS } from '../sim/index.ts';

/**
 * What a schedule trades, and on which books: the seed decides the faults and every draw, the
 * mix decides the markets, the strategy's kind of orders and how deep the venue's books are.
 * `default` is the mix of every recorded ledger (docs/simulation-runs.md): changing it changes
 * every trace. Another mix is a second, separate population of schedules.
 */
export interface SimMix {
  /** One line for `quanta sim --help` and the docs. */
  readonly about: string;
  /** The symbols the strategy trades (each a market of the paper venue's default listing). */
  readonly markets: readonly string[];
  /** Whether the strategy prices LIMIT orders through the book (see sim-trader.ts). */
  readonly cross: boolean;
  /** The venue's notional per synthetic book level; undefined: the paper venue's default. */
  readonly levelNotional: string | undefined;
}

/** Every mix, by name. */
export const SIM_MIXES = {
  default: {
    about:
      'ETH-USD only, deep books; LIMIT orders rest at the best price on their own side, MARKET orders take',
    markets: ['ETH-USD'],
    cross: false,
    levelNotional: undefined,
  },
  crossing: {
    about:
      'ETH-USD (maker fee = taker fee) and SOL-USD (maker 2 bp, taker 5 bp) on thin books: most LIMIT orders are priced one to three levels through the book, fill at several prices, rest the rest at their own price and fill later as maker',
    markets: ['ETH-USD', 'SOL-USD'],
    cross: true,
    levelNotional: '400',
  },
} as const satisfies Readonly<Record<string, SimMix>>;

/** A mix's name. */
export type SimMixName = keyof typeof SIM_MIXES;

/** Whether `name` names a mix. */
export function isSimMixName(name: string): name is SimMixName {
  return Object.hasOwn(SIM_MIXES, name);
}

/** The ids of `mix`'s markets in the paper venue's default listing (the simulator's venue). */
export function marketIdsOf(mix: SimMix): number[] {
  return mix.markets.map((symbol) => {
    const market = DEFAULT_SIM_MARKETS.find((m) => m.symbol === symbol);
    if (market === undefined) throw new Error(`sim mix: the paper venue lists no ${symbol}`);
    return market.id;
  });
}

import type { ExitSpec } from '../domain/index.ts';
import type { MarginAccountView } from '../domain/account/index.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { formatX18 } from '../money/index.ts';
import type { Bar } from './bars/bar.ts';
import type { BarFeed } from './bars/bar-feed.ts';
import type { StrategyContext } from './define-strategy.ts';
import type { IndicatorBank } from './indicators/indicator-bank.ts';
import type { StrategyHostOptions } from './host-options.ts';

const PLOT_VALUE = /^-?\d+(\.\d+)?$/;

/** A plotted value as a decimal string, or undefined when it is not a finite number. */
function plotValue(value: unknown): string | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    const text = String(value);
    return PLOT_VALUE.test(text) ? text : value.toFixed(20).replace(/\.?0+$/, '');
  }
  return typeof value === 'string' && PLOT_VALUE.test(value) ? value : undefined;
}

/**
 * What one strategy instance sees of the world, for its host (strategy-host.ts): its markets as
 * the latest snapshot lists them, and the `ctx` handed to every hook, whose functions are made
 * once (a fresh context object is still built for every call).
 */
export class HostContext {
  readonly #name: string;
  readonly #options: StrategyHostOptions;
  readonly #bars: BarFeed;
  readonly #indicators: IndicatorBank;
  /** Ids of the strategy's markets in the latest listing. */
  marketIds: number[] = [];
  #marketsSeen: Snapshot['markets'] | undefined;
  #symbolsSeen = new Set<string>();
  /** The latest snapshot handed to the strategy: what its position facts are valued at. */
  snapshot: Snapshot | undefined;
  /** The last `ctx.position` text of each market and the amount it was formatted from. */
  readonly #positions = new Map<number, { readonly x18: bigint; readonly text: string }>();

  constructor(options: StrategyHostOptions, bars: BarFeed, indicators: IndicatorBank) {
    this.#name = options.name;
    this.#options = options;
    this.#bars = bars;
    this.#indicators = indicators;
  }

  /** The context for one hook call. */
  build(params: unknown, state: unknown): StrategyContext<unknown, unknown> {
    const options = this.#options;
    return {
      name: this.#name,
      params,
      symbols: options.symbols,
      marketIds: this.marketIds,
      position: this.#position,
      entryPrice: this.#entryPrice,
      unrealizedPnl: this.#unrealizedPnl,
      equity: this.#equity,
      freeMargin: this.#freeMargin,
      liquidationPrice: this.#liquidationPrice,
      setExits: this.#setExits,
      exits: this.#exits,
      openOrders: options.openOrders,
      now: options.now,
      log: options.log,
      store: options.store,
      state,
      plot: this.#plot,
      bars: this.#barsOf,
      indicators: this.#indicatorsOf,
    };
  }

  /** A market's symbol in the latest listing (its id when not listed). */
  readonly symbolOf = (marketId: number): string =>
    this.#marketsSeen?.get(marketId)?.symbol ?? String(marketId);

  /** Finds the strategy's markets in a snapshot's listing (again only when the listing changed). */
  resolveMarkets(snapshot: Snapshot): void {
    if (this.#marketsSeen === snapshot.markets) return;
    this.#marketsSeen = snapshot.markets;
    const wanted = new Set(this.#options.symbols);
    this.marketIds = [];
    const found = new Set<string>();
    for (const market of snapshot.markets.values()) {
      if (!wanted.has(market.symbol)) continue;
      this.marketIds.push(market.id);
      found.add(market.symbol);
    }
    const { log } = this.#options;
    const name = this.#name;
    // Start-up checked every symbol is listed; one that vanishes later is worth a line (once).
    for (const symbol of this.#symbolsSeen) {
      if (found.has(symbol)) continue;
      log.warn(
        { strategy: name, symbol },
        `market ${symbol} is no longer listed by the venue; strategy ${name} sees it no more`,
      );
    }
    for (const symbol of found) {
      if (this.#symbolsSeen.size > 0 && !this.#symbolsSeen.has(symbol))
        log.info({ strategy: name, symbol }, `market ${symbol} is listed again`);
    }
    this.#symbolsSeen = found;
  }

  // `ctx.position` as text, formatted again only when the amount changed (strategies ask for it
  // on every snapshot; it changes with fills).
  #positionText(marketId: number): string {
    const x18 = this.#options.positionOf(marketId);
    const last = this.#positions.get(marketId);
    if (last !== undefined && last.x18 === x18) return last.text;
    const text = formatX18(x18);
    this.#positions.set(marketId, { x18, text });
    return text;
  }

  readonly #position = (marketId: number): string => this.#positionText(marketId);
  readonly #entryPrice = (marketId: number): string | undefined => {
    const price = this.#options.facts?.entryPriceX18(marketId) ?? 0n;
    return price === 0n ? undefined : formatX18(price);
  };
  readonly #unrealizedPnl = (marketId: number): string | undefined => {
    const snapshot = this.snapshot;
    if (snapshot === undefined) return undefined;
    const pnl = this.#options.facts?.unrealizedPnlX18(marketId, snapshot);
    return pnl === undefined ? undefined : formatX18(pnl);
  };
  readonly #equity = (): string | undefined => {
    const snapshot = this.snapshot;
    const equity = snapshot === undefined ? undefined : this.#options.facts?.equityX18(snapshot);
    return equity === undefined ? undefined : formatX18(equity);
  };
  readonly #account = (): MarginAccountView | undefined => {
    const snapshot = this.snapshot;
    return snapshot === undefined ? undefined : this.#options.facts?.accountX18?.(snapshot);
  };
  readonly #freeMargin = (): string | undefined => {
    const free = this.#account()?.freeMarginX18;
    return free === undefined ? undefined : formatX18(free);
  };
  readonly #liquidationPrice = (marketId: number): string | undefined => {
    const held = this.#account()?.positions.find((p) => p.marketId === marketId);
    const price = held?.liquidationPriceX18;
    return price === undefined ? undefined : formatX18(price);
  };
  readonly #setExits = (marketId: number, exits: ExitSpec | null): void =>
    this.#options.exits?.set(marketId, exits);
  readonly #exits = (marketId: number): ExitSpec | undefined => this.#options.exits?.get(marketId);
  readonly #plot = (name: string, value: number | string): void => {
    const options = this.#options;
    const text = plotValue(value);
    if (typeof name !== 'string' || name === '' || name.length > 64 || text === undefined) {
      options.log.warn(
        { plot: String(name).slice(0, 64) },
        'ctx.plot ignored: expected a name of 1 to 64 characters and a finite number or decimal string',
      );
      return;
    }
    // (The line's fields are built only when it is written: a strategy plots every snapshot.)
    if (options.log.isLevelEnabled('debug')) options.log.debug({ plot: name, value: text }, 'plot');
    options.onPlot?.(name, text, options.now());
  };

  readonly #barsOf = (market: number | string, timeframe: string): readonly Bar[] => {
    const marketId = typeof market === 'number' ? market : this.#idOf(market);
    const bars = this.#bars.bars(marketId ?? -1, timeframe);
    if (bars === undefined) {
      const declared = this.#bars.timeframes.map((plan) => plan.timeframe).join(', ');
      throw new RangeError(
        `ctx.bars: timeframe ${timeframe} is not declared in the bars of strategy ${this.#name} (declared: ${declared === '' ? 'none' : declared})`,
      );
    }
    return bars;
  };

  readonly #indicatorsOf = (market: number | string): Record<string, never> => {
    const marketId = typeof market === 'number' ? market : this.#idOf(market);
    if (marketId === undefined)
      throw new RangeError(`ctx.indicators: ${market} is not a market of strategy ${this.#name}`);
    return this.#indicators.views(marketId) as Record<string, never>;
  };

  /** The id of one of the strategy's markets by symbol, or undefined. */
  #idOf(symbol: string): number | undefined {
    for (const id of this.marketIds) if (this.#marketsSeen?.get(id)?.symbol === symbol) return id;
    return undefined;
  }
}

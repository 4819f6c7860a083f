import type { ClosedBar } from '../bars/bar.ts';
import type { IndicatorEngine, IndicatorSet, IndicatorSpec } from './spec.ts';

/** One market's instance of one registered indicator, and what strategies read of it. */
interface Slot {
  readonly spec: IndicatorSpec;
  readonly engine: IndicatorEngine<unknown>;
  readonly view: { value: unknown; previous: unknown; bars: number };
}

/**
 * The registered indicators of one strategy instance, one set per market, made when the market's
 * first bar is committed. Each closed bar updates only the indicators of its market and
 * timeframe, once: work per bar does not grow with the run (the window indicators of
 * trading-signals cost their period per bar).
 */
export class IndicatorBank {
  readonly #specs: readonly (readonly [string, IndicatorSpec])[];
  /** The registered set, as given. */
  readonly specs: IndicatorSet;
  readonly #markets = new Map<number, { slots: Slot[]; views: Record<string, Slot['view']> }>();

  constructor(specs: IndicatorSet) {
    this.specs = specs;
    this.#specs = Object.entries(specs);
  }

  get empty(): boolean {
    return this.#specs.length === 0;
  }

  /** Feeds a committed bar to the indicators of its market and timeframe. */
  update(closed: ClosedBar): void {
    const timeframe = closed.bar.timeframe;
    for (const slot of this.#of(closed.bar.marketId).slots) {
      if (slot.spec.timeframe !== timeframe) continue;
      const value = slot.engine.add(closed);
      const view = slot.view;
      view.bars += 1;
      if (value === undefined) continue;
      view.previous = view.value;
      view.value = value;
    }
  }

  /** The indicators of a market by name (live views, updated in place). */
  views(marketId: number): Readonly<Record<string, Slot['view']>> {
    return this.#of(marketId).views;
  }

  /** True when every indicator of each market has a value. */
  ready(marketIds: readonly number[]): boolean {
    for (const marketId of marketIds)
      for (const slot of this.#of(marketId).slots) if (slot.view.value === undefined) return false;
    return true;
  }

  /** The first indicator of these markets without a value: `ema(21) of ETH-USD (12 bars)`. */
  waitingFor(marketIds: readonly number[], symbolOf: (id: number) => string): string | undefined {
    for (const marketId of marketIds)
      for (const slot of this.#of(marketId).slots)
        if (slot.view.value === undefined)
          return `${slot.spec.label} of ${symbolOf(marketId)} (${slot.view.bars} ${slot.spec.timeframe} bars so far)`;
    return undefined;
  }

  #of(marketId: number) {
    let market = this.#markets.get(marketId);
    if (market === undefined) {
      const slots: Slot[] = this.#specs.map(([, spec]) => ({
        spec,
        engine: spec.create(),
        view: { value: undefined, previous: undefined, bars: 0 },
      }));
      const views: Record<string, Slot['view']> = {};
      this.#specs.forEach(([name], index) => (views[name] = (slots[index] as Slot).view));
      market = { slots, views: Object.freeze(views) };
      this.#markets.set(marketId, market);
    }
    return market;
  }
}

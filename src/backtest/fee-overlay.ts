import type { Market, Quote } from '../domain/index.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { parseDecimalToX18 } from '../money/index.ts';
import { type FillModel, lazySlipper, overridesFees, withModelFees } from './fill-model.ts';

/**
 * The fill model laid over what was recorded: its fees in place of the markets' own (in the
 * listing the engine and the strategies see) and its slippage on the quotes the engine fills
 * against (the strategies see the recorded quotes). Without fee or slippage settings everything
 * passes through as recorded.
 */
export class FeeOverlay {
  readonly #model: FillModel;
  readonly #feesChanged: boolean;
  readonly #slips: boolean;
  readonly #slip: (quote: Quote) => Quote;
  /** The last listing given the model's fees: one Map per recorded listing, not per snapshot. */
  #listing:
    { readonly from: ReadonlyMap<number, Market>; readonly to: Map<number, Market> } | undefined;

  constructor(model: FillModel) {
    this.#model = model;
    this.#feesChanged = overridesFees(model);
    this.#slip = lazySlipper(model);
    this.#slips = parseDecimalToX18(model.slippageBps, 'slippageBps') !== 0n;
  }

  /** The market with the model's fees (the same object when the model sets none). */
  market(market: Market): Market {
    return withModelFees(market, this.#model);
  }

  /** The snapshot as the replay hands it on: its listing with the model's fees. */
  snapshot(recorded: Snapshot): Snapshot {
    if (!this.#feesChanged) return recorded;
    if (this.#listing?.from !== recorded.markets) {
      const to = new Map<number, Market>();
      for (const [id, market] of recorded.markets) to.set(id, this.market(market));
      this.#listing = { from: recorded.markets, to };
    }
    return Object.freeze({ ...recorded, markets: this.#listing.to });
  }

  /** Quotes as the engine fills against them: slipped, or the very ones given. */
  quotes<Q extends ReadonlyMap<number, Quote> | readonly Quote[]>(quotes: Q): Q | Quote[] {
    return this.#slips ? [...quotes.values()].map(this.#slip) : quotes;
  }
}

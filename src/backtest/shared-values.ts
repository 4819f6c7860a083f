import { RepeatedValues } from '../execution/journal-row.ts';
import { RecentValues } from '../execution/recent-values.ts';
import type { PositionState } from '../execution/positions.ts';

/** A position's values as the kept samples hold them (one copy of each value). */
interface Held {
  readonly position: PositionState;
  readonly amountX18: bigint;
  readonly avgEntryPriceX18: bigint;
  readonly realizedPnlX18: bigint;
}

/**
 * One copy of each value the kept samples repeat: marks, tops, and the amount, entry price and
 * realized PnL of a position (a long run keeps a sample per fill, and a strategy that goes long
 * and flat again holds a few amounts and entry prices many times). Equal values, so no figure
 * changes.
 */
export class SharedValues {
  readonly #pool = new RepeatedValues();
  readonly #held = new Map<number, Held>();

  readonly #tops = new RecentValues();
  readonly #marks = new RecentValues();

  /**
   * The one copy of a mark among the recent ones (`RecentValues`): a moving market's mark is
   * new at most snapshots, and through `one` each new one was a Map entry (the Map emptied and
   * grown again every 4096 of them).
   */
  mark(value: bigint): bigint {
    return this.#marks.one(value);
  }

  /** The one copy of a top price among the recent ones (`RecentValues`). */
  top(value: bigint): bigint {
    return this.#tops.one(value);
  }

  /** `position`'s amount, entry price and realized PnL, looked up again only when it changed. */
  held(marketId: number, position: PositionState): Held {
    const known = this.#held.get(marketId);
    if (known?.position === position) return known;
    const held = {
      position,
      amountX18: this.#pool.one(position.amountX18),
      avgEntryPriceX18: this.#pool.one(position.avgEntryPriceX18),
      // (Unchanged by a fill that opens or adds: the same value again.)
      realizedPnlX18: this.#pool.one(position.realizedPnlX18),
    };
    this.#held.set(marketId, held);
    return held;
  }
}

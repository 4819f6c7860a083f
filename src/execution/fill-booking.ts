import { isUnresolvedState, type Fill } from '../domain/index.ts';
import type { Logger } from '../log/logger.ts';
import { displayX18, formatX18, MONEY_DECIMALS } from '../money/index.ts';
import type { VenueOrder } from '../venue/types.ts';
import type { ExposureBook } from './exposure-book.ts';
import { fillPriceX18 } from './fill-price.ts';
import type { OrderJournal } from './journal.ts';
import type { OrderRecord } from './order-record.ts';
import type { Liquidity, Portfolio } from './portfolio.ts';

/** Options of {@link FillBooking}. */
export interface FillBookingOptions {
  readonly journal: OrderJournal;
  readonly portfolio: Portfolio;
  readonly exposure: ExposureBook;
  readonly now: () => number;
  readonly log: Logger;
  /** Told about an order's journal row after each answer booked; must not throw. */
  readonly updated?: ((record: OrderRecord) => void) | undefined;
  /** Told about every fill, with the strategy that owns the order. */
  readonly onFill?: ((strategy: string, fill: Fill) => void | Promise<void>) | undefined;
}

/**
 * Where a venue answer came from: the answer to placing the order, or a later lookup. What a
 * placing answer filled took liquidity; a lookup's fills of an order placed without an answer
 * seen may be either (see {@link FillBooking.apply}).
 */
export type AnswerSource = 'placing' | 'lookup';

/** What an answer filled, at which price and fee. */
interface NewFill {
  readonly newlyFilled: bigint;
  /** The order's average fill price after this answer: what its journal row keeps. */
  readonly averageX18: bigint;
  /** True when the venue gave no average and `averageX18` is the quote seen when sending. */
  readonly averageEstimated: boolean;
  /** The price of what this answer newly filled: what the positions and `onFill` are told. */
  readonly priceX18: bigint;
  readonly estimated: boolean;
  readonly liquidity: Liquidity;
  /** True when the venue's answer cannot tell the liquidity: taker assumed (never understated). */
  readonly liquidityAssumed: boolean;
  readonly feeX18: bigint;
}

/**
 * Books what the venue says of an order: its journal row (state, fill, fees), its new fill in the
 * positions at the fee of its liquidity (maker or taker), and the strategy's `onFill`; or an
 * outcome without a venue order (refused, expired, unknown). Also books a recovered order's fills
 * at the fees recorded with them.
 */
export class FillBooking {
  readonly #options: FillBookingOptions;

  constructor(options: FillBookingOptions) {
    this.#options = options;
  }

  /**
   * A recovered order's fills, booked at the average fill price and the fee charged when they
   * were booked live, both kept in its journal row.
   */
  bookRecorded(record: OrderRecord): void {
    this.#options.portfolio.bookRecord(record, this.recordedFeesX18(record));
  }

  /**
   * The fees recorded with `record`. Rows from journals that predate per-order fees are priced
   * at the taker rate (the higher one: never understated), with a line saying so; never
   * silently as free.
   */
  recordedFeesX18(record: OrderRecord): bigint {
    if (record.feesX18 !== null) return record.feesX18;
    if (record.filledX18 === 0n || record.avgFillPriceX18 === null) return 0n;
    const estimate = this.#options.portfolio.feeOf(
      record.marketId,
      record.type,
      'taker',
      record.filledX18,
      record.avgFillPriceX18,
    );
    this.#options.log.warn(
      {
        orderId: record.id,
        fee: estimate === undefined ? null : displayX18(estimate, MONEY_DECIMALS, true),
      },
      estimate === undefined
        ? `order ${record.id}: fee not recorded and market ${record.marketId} not listed; booked without fee`
        : `order ${record.id}: fee not recorded (older journal); booked at the taker rate`,
    );
    return estimate ?? 0n;
  }

  /**
   * Books an outcome without an order from the venue (refused, expired, of unknown outcome…):
   * an unresolved one is counted at full size until a lookup resolves it.
   */
  finish(
    record: OrderRecord,
    outcome: { state: 'EXPIRED' | 'ACCEPTED' | 'REJECTED' | 'UNKNOWN'; error: string },
  ): void {
    const { journal, now, exposure, log } = this.#options;
    const updated = journal.recordOutcome(record.id, outcome, now());
    if (isUnresolvedState(updated.state)) exposure.unresolved(updated);
    this.#options.updated?.(updated);
    const level = outcome.state === 'EXPIRED' ? 'info' : 'warn';
    log[level](
      { orderId: record.id, state: outcome.state, error: outcome.error },
      `order ${record.id} ${outcome.state}: ${outcome.error}`,
    );
  }

  /**
   * Books the venue's answer `order` for the journaled `record`, from the answer to placing it or
   * from a lookup (`from`). The venue says neither fees nor which fills made liquidity: a MARKET
   * order's fills and what a placing answer filled took it (taker); the fills of a LIMIT order
   * known to rest made it (maker). A lookup's fills of a LIMIT order never seen resting (its
   * placing answer lost, or a crash) may be both: they are booked at the taker rate, never
   * understated, and the log line says the liquidity was assumed.
   */
  async apply(record: OrderRecord, order: VenueOrder, from: AnswerSource): Promise<void> {
    const fill = this.#newFill(record, order, from);
    const { journal, now, exposure } = this.#options;
    const updated = journal.recordOutcome(
      record.id,
      {
        state: order.status,
        venueOrderId: order.id,
        filledX18: order.totalFilledX18,
        avgFillPriceX18: order.totalFilledX18 > 0n ? fill.averageX18 : null,
        fillPriceEstimated: order.totalFilledX18 > 0n && fill.averageEstimated,
        feesX18: this.recordedFeesX18(record) + fill.feeX18,
      },
      now(),
    );
    if (this.#options.log.isLevelEnabled('info')) this.#logApplied(record, order, fill);
    // The venue told us what became of it: no longer counted at full size.
    exposure.resolved(record.id);
    this.#options.updated?.(updated);
    if (fill.newlyFilled <= 0n) return;
    // A later fill at the price it was made at, from the averages before and after it (newFill).
    this.#options.portfolio.book({
      strategy: updated.strategy,
      marketId: updated.marketId,
      side: updated.side,
      amountX18: fill.newlyFilled,
      priceX18: fill.priceX18,
      feeX18: fill.feeX18,
    });
    await this.#options.onFill?.(record.strategy, {
      orderId: record.id,
      marketId: record.marketId,
      side: record.side,
      amount: formatX18(fill.newlyFilled),
      price: formatX18(fill.priceX18),
      priceEstimated: fill.estimated,
      tag: record.tag,
    });
  }

  #newFill(record: OrderRecord, order: VenueOrder, from: AnswerSource): NewFill {
    const newlyFilled = order.totalFilledX18 - record.filledX18;
    const reported =
      order.avgFillPriceX18 !== undefined && order.avgFillPriceX18 > 0n
        ? order.avgFillPriceX18
        : undefined;
    const averageX18 = reported ?? record.referencePriceX18 ?? record.priceX18;
    const { priceX18, derived } = fillPriceX18(
      record,
      order.totalFilledX18,
      averageX18,
      reported !== undefined,
    );
    // A later fill whose own price the averages cannot give is valued at the order's average:
    // an estimate, said so (to onFill and in the log).
    const estimated = reported === undefined || (!derived && newlyFilled > 0n);
    // A LIMIT order known to rest on the venue before this fill made liquidity (maker).
    const liquidity: Liquidity = record.venueOrderId !== null ? 'maker' : 'taker';
    const liquidityAssumed =
      from === 'lookup' && record.type === 'LIMIT' && liquidity === 'taker' && newlyFilled > 0n;
    const feeX18 =
      newlyFilled > 0n
        ? this.#options.portfolio.feeOf(
            record.marketId,
            record.type,
            liquidity,
            newlyFilled,
            priceX18,
          )
        : 0n;
    if (feeX18 === undefined) {
      // Never book a fill at a guessed fee of 0: the market is always remembered before sending.
      throw new Error(`order ${record.id}: market ${record.marketId} unknown, fee cannot be set`);
    }
    return {
      newlyFilled,
      averageX18,
      averageEstimated: reported === undefined,
      priceX18,
      estimated,
      liquidity,
      liquidityAssumed,
      feeX18,
    };
  }

  #logApplied(record: OrderRecord, order: VenueOrder, fill: NewFill): void {
    const filled = formatX18(order.totalFilledX18);
    // As a person reads them: the average price to the market's tick, the fee to the cent (the
    // journal keeps both exact).
    const priceExpo = this.#options.portfolio.market(record.marketId)?.priceExpo;
    this.#options.log.info(
      {
        orderId: record.id,
        venueOrderId: order.id,
        state: order.status,
        filled,
        avgPrice:
          priceExpo === undefined
            ? formatX18(fill.averageX18)
            : displayX18(fill.averageX18, priceExpo),
        priceEstimated: fill.estimated,
        fee: displayX18(fill.feeX18, MONEY_DECIMALS, true),
        liquidity: fill.liquidity,
        ...(fill.liquidityAssumed ? { liquidityAssumed: true } : {}),
      },
      `order ${record.id} ${order.status}: filled ${filled} ${record.symbol}`,
    );
  }
}

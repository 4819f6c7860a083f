import { RISK_SCOPE } from '../execution/executor.ts';
import type { OrderJournal } from '../execution/journal.ts';
import type { OrderRecord } from '../execution/order-record.ts';
import { readDayBaseline, type StoredBaseline } from '../execution/pre-trade/risk.ts';
import { absX18, X18_SCALE as X18 } from '../money/index.ts';
import type { ViolationLog } from './invariants.ts';

/**
 * Rounding the check forgives: the journal keeps each order's fills as one amount at a floored
 * average price, while the bot booked each fill at its own price (x18 units, a billionth of a
 * quote unit).
 */
const ROUNDING_X18 = 10n ** 9n;

/** Today's loss as a journal tells it, when it holds no position. */
export interface FlatDayLoss {
  /** Realized PnL net of fees since the day's stored baseline, as a loss (x18; negative: a gain). */
  readonly lossX18: bigint;
  /** The stored day's start (ms on the bot's clock). */
  readonly day: number;
}

/** One row's part of the day's figures: its market's net amount and the cash it moved (x18). */
interface RowPart {
  readonly marketId: number;
  readonly amountX18: bigint;
  readonly cashX18: bigint;
}

function partOf(row: OrderRecord): RowPart | undefined {
  if (row.filledX18 === 0n || row.avgFillPriceX18 === null) return undefined;
  const sign = row.side === 'BUY' ? 1n : -1n;
  return {
    marketId: row.marketId,
    amountX18: sign * row.filledX18,
    cashX18: -((sign * row.filledX18 * row.avgFillPriceX18) / X18 + (row.feesX18 ?? 0n)),
  };
}

/**
 * A journal's fills summed, kept up to date from the rows its writes return (only
 * `recordOutcome` changes an order's fills), so that a check at each journaled order does not
 * read every row again.
 */
class FillSums {
  readonly #parts = new Map<number, RowPart>();
  readonly #net = new Map<number, bigint>();
  #cashX18 = 0n;

  constructor(rows: readonly OrderRecord[]) {
    for (const row of rows) this.saw(row);
  }

  /** The row as a write left it. */
  saw(row: OrderRecord): void {
    const before = this.#parts.get(row.id);
    const after = partOf(row);
    if (before !== undefined) this.#add(before, -1n);
    if (after === undefined) this.#parts.delete(row.id);
    else {
      this.#parts.set(row.id, after);
      this.#add(after, 1n);
    }
  }

  #add(part: RowPart, sign: bigint): void {
    this.#net.set(part.marketId, (this.#net.get(part.marketId) ?? 0n) + sign * part.amountX18);
    this.#cashX18 += sign * part.cashX18;
  }

  /** What the fills paid and earned, net of fees (x18), when they leave no position; else undefined. */
  flatCashX18(): bigint | undefined {
    for (const amount of this.#net.values()) if (amount !== 0n) return undefined;
    return this.#cashX18;
  }

  /** What the fills paid and earned, net of fees (x18). */
  get cashX18(): bigint {
    return this.#cashX18;
  }

  /** The position each market's fills leave (x18, signed). */
  get positions(): ReadonlyMap<number, bigint> {
    return this.#net;
  }
}

/** Each journal's sums, made at the first write seen (from every row) and kept from then on. */
const sums = new WeakMap<OrderJournal, FillSums>();

function sumsOf(journal: OrderJournal): FillSums {
  let found = sums.get(journal);
  if (found === undefined) {
    found = new FillSums(journal.all());
    sums.set(journal, found);
  }
  return found;
}

/**
 * The simulated bot's daily loss limit, and the baseline each UTC day's loss counts from: the
 * highest any process of a schedule stored for it. A day's baseline, once stored, is never
 * lowered (the risk engine takes it once a day and reads it back at a restart), so a lower one
 * stored later forgave the loss made since.
 */
export class DayBaselines {
  readonly #byDay = new Map<number, bigint>();
  /** The bot's `risk.dailyLossLimit`, x18. */
  readonly limitX18: bigint;

  /** @param limit - the bot's `risk.dailyLossLimit`, in quote units. */
  constructor(limit: bigint) {
    this.limitX18 = limit * X18;
  }

  /**
   * The baseline `journal` holds now, raised to the highest seen for its day; `storedLower`: the
   * journal's own, when it is lower than that.
   */
  read(journal: OrderJournal): (StoredBaseline & { readonly storedLower?: bigint }) | undefined {
    const stored = readDayBaseline((key) => journal.kvGet(RISK_SCOPE, key));
    if (stored === undefined) return undefined;
    const known = this.#byDay.get(stored.day);
    if (known !== undefined && known > stored.realizedX18)
      return { day: stored.day, realizedX18: known, storedLower: stored.realizedX18 };
    this.#byDay.set(stored.day, stored.realizedX18);
    return stored;
  }
}

/**
 * Today's loss from what `journal` holds, as a bot started on it reads it, when its fills leave
 * no position in any market; undefined while they leave one (the unrealized part then needs the
 * bot's marks), or before the bot stored a day's baseline. Flat, realized PnL net of fees is
 * what the fills paid and earned, in whatever order they were booked. The baseline is the
 * highest `days` has seen for the day.
 */
export function flatDayLoss(
  journal: OrderJournal,
  days: DayBaselines,
  fills = new FillSums(journal.all()),
): FlatDayLoss | undefined {
  const cashX18 = fills.flatCashX18();
  if (cashX18 === undefined) return undefined;
  const baseline = days.read(journal);
  if (baseline === undefined) return undefined;
  return { lossX18: baseline.realizedX18 - cashX18, day: baseline.day };
}

/**
 * Whether the day's loss from what `journal` holds, its open positions valued at `markOf` (the
 * venue's marks, by the one mark-price rule), may have reached the limit as the bot values them
 * at its own marks: within 1% of the positions' notional (the bot's marks are a poll old) and
 * what rounding explains. False without a baseline or a mark for a market with a position.
 */
export function mayHaveReachedLimit(
  journal: OrderJournal,
  days: DayBaselines,
  markOf: (marketId: number) => bigint | undefined,
): boolean {
  const fills = new FillSums(journal.all());
  const baseline = days.read(journal);
  if (baseline === undefined) return false;
  let valueX18 = 0n;
  let notionalX18 = 0n;
  for (const [marketId, amountX18] of fills.positions) {
    if (amountX18 === 0n) continue;
    const markX18 = markOf(marketId);
    if (markX18 === undefined) return false;
    valueX18 += (amountX18 * markX18) / X18;
    notionalX18 += (absX18(amountX18) * markX18) / X18;
  }
  const lossX18 = baseline.realizedX18 - fills.cashX18 - valueX18;
  return lossX18 >= days.limitX18 - notionalX18 / 100n - ROUNDING_X18;
}

/** Whether `loss` has reached `limitX18` beyond what rounding explains. */
export function pastLimit(loss: FlatDayLoss | undefined, limitX18: bigint): boolean {
  return loss !== undefined && loss.lossX18 >= limitX18 + ROUNDING_X18;
}

/**
 * I3's daily loss half, as the bot journals orders: once its day's loss has reached the limit,
 * only reducing orders may go out, and from flat none reduces. So no order is journaled while
 * the journal, read afresh as a restarted bot reads it, holds no position and today's loss
 * (realized net of fees since the day's stored baseline) has reached `risk.dailyLossLimit`
 * ({@link DayBaselines.limitX18}).
 * What a restart could forget (the baseline, a fill journaled before the crash) shows here; a
 * day's baseline stored lower than before ({@link DayBaselines}) is reported as it is written.
 * Told of every journal write of the running bot (`method` and what it returned).
 */
export function checkDailyLoss(
  method: string,
  result: unknown,
  journal: OrderJournal,
  days: DayBaselines,
  violations: ViolationLog,
): void {
  const fills = sumsOf(journal);
  if (method === 'recordOutcome') fills.saw(result as OrderRecord);
  if (method === 'kvSet') {
    const baseline = days.read(journal);
    if (baseline?.storedLower !== undefined)
      violations.violate(
        'dailyLoss',
        `the bot stored ${baseline.storedLower} as the baseline of day ${dayText(baseline.day)}, which was ${baseline.realizedX18} (x18): the loss made since forgiven`,
      );
  }
  const order = journaledBy(method, result)[0];
  if (order === undefined) return;
  const loss = flatDayLoss(journal, days, fills);
  if (!pastLimit(loss, days.limitX18)) return;
  violations.violate(
    'dailyLoss',
    `order ${order.id} (${order.side} ${order.amountX18}) was journaled while the journal holds no position and the day's loss is ${loss!.lossX18} (x18, since the baseline of day ${dayText(loss!.day)}), past the daily loss limit ${days.limitX18 / X18}`,
  );
}

function dayText(day: number): string {
  return new Date(day).toISOString().slice(0, 10);
}

/** The rows a journal write added: those of `insertPendingMany` or `insertPending`, else none. */
export function journaledBy(method: string, result: unknown): readonly OrderRecord[] {
  if (method === 'insertPendingMany') return result as OrderRecord[];
  return method === 'insertPending' ? [result as OrderRecord] : [];
}

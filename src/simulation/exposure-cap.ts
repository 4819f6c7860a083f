import { UNFINISHED_STATES } from '../domain/index.ts';
import type { OrderJournal } from '../execution/journal.ts';
import type { OrderRecord } from '../execution/order-record.ts';
import { absX18, notionalExceeds, X18_SCALE as X18 } from '../money/index.ts';
import type { SimEngine, SimOrder, SimPosition } from '../sim/index.ts';
import { checkDailyLoss, journaledBy, type DayBaselines } from './daily-loss.ts';
import type { ViolationLog } from './invariants.ts';
import { marketInMessage } from './sim-mix.ts';
import { POSITION_CAP } from './sim-setup.ts';

/** What {@link exposureOnItsSide} reads when the bot journals an order. */
export interface ExposureInput {
  /** The order's journal row, just written. */
  readonly order: OrderRecord;
  /** The venue's position of the account in the order's market. */
  readonly position: SimPosition;
  /** The venue's open orders of the account (any market). */
  readonly venueOpen: readonly SimOrder[];
  /** The journal's rows that are not final (any market); those after the order are left out. */
  readonly unresolved: readonly OrderRecord[];
  /** Whether the venue has accepted the order with this signature. */
  readonly accepted: (signature: string) => boolean;
  /** The venue's time (ms): an order it never accepted cannot land once this is past its expiry. */
  readonly venueNow: number;
}

/** The order's side of its market, as the venue's record and the journal make it. */
export interface SideExposure {
  /** Signed: the position if every open order on the order's side filled in full, without it. */
  readonly beforeX18: bigint;
  /** The same with the order filled in full. */
  readonly afterX18: bigint;
}

/**
 * The venue's position plus the full unfilled size of every order on the order's side that may
 * still fill: the venue's open orders (their remaining size, as the venue says) and the journal's
 * unresolved rows, journaled before it, that the venue never accepted and that have not expired
 * (their whole size: they may still land); then with the order itself.
 */
export function exposureOnItsSide(input: ExposureInput): SideExposure {
  const { order } = input;
  const sign = order.side === 'BUY' ? 1n : -1n;
  let sameSide = 0n;
  for (const open of input.venueOpen)
    if (open.marketId === order.marketId && open.side === order.side)
      sameSide += open.amountX18 - open.totalFilledX18;
  for (const row of input.unresolved) {
    // Only the rows journaled before it: the bot checked this order before it journaled later ones.
    if (row.marketId !== order.marketId || row.side !== order.side || row.id >= order.id) continue;
    if (input.accepted(row.signature) || row.expiryTs <= input.venueNow) continue;
    sameSide += row.amountX18;
  }
  const beforeX18 = input.position.amountX18 + sign * sameSide;
  return { beforeX18, afterX18: beforeX18 + sign * order.amountX18 };
}

/**
 * I3 as the bot journals an order: an order that adds to its side's exposure ({@link
 * exposureOnItsSide}) keeps it within the cap (`POSITION_CAP`), valued at the price the bot
 * checked the order at (a LIMIT order's price, a MARKET order's reference price), exactly as the
 * bot's pre-trade check does with what it knows. No slack: what the bot does not know yet (an
 * answer lost, a fill not looked up) it counts in full, so the venue's truth is never more. An
 * order that brings its side nearer to flat is not held to the cap (the bot sends those whatever
 * the position, to reduce it). A MARKET order journaled without a reference price was checked
 * against nothing: that breaks I3 too.
 *
 * @param where - the market, for the message (`marketInMessage`).
 */
export function checkExposureCap(
  input: ExposureInput,
  where: string,
  violations: ViolationLog,
): void {
  const { order } = input;
  const priceX18 = order.type === 'LIMIT' ? order.priceX18 : order.referencePriceX18;
  if (priceX18 === null || priceX18 <= 0n) {
    violations.violate(
      'positionCap',
      `order ${order.id} (${order.type} ${order.side} ${order.amountX18}) was journaled with no price to check it against the cap`,
    );
    return;
  }
  const { beforeX18, afterX18 } = exposureOnItsSide(input);
  if (absX18(afterX18) < absX18(beforeX18)) return;
  // The bot's own rule (`notionalExceeds`), exact: not a unit of notional over.
  if (notionalExceeds(absX18(afterX18), priceX18, POSITION_CAP * X18)) {
    const notionalX18 = (absX18(afterX18) * priceX18) / X18;
    violations.violate(
      'positionCap',
      `order ${order.id} (${order.side} ${order.amountX18}) was journaled with the venue's position and every ${order.side} order that may still fill at ${afterX18} (x18)${where}: ${notionalX18 / X18} notional at ${priceX18}, cap ${POSITION_CAP}`,
    );
  }
}

/** What {@link checkJournalWrite} reads. */
export interface JournaledContext {
  readonly journal: OrderJournal;
  readonly engine: SimEngine;
  readonly accountId: string;
  readonly accepted: (signature: string) => boolean;
  readonly venueNow: number;
  /** The markets the bot trades, for the message (`marketInMessage`). */
  readonly marketIds: readonly number[];
  /** Each day's loss baseline over the schedule's processes. */
  readonly days: DayBaselines;
  readonly violations: ViolationLog;
}

/**
 * I3 at each journal write of the running bot: for each order it journals (it has checked it
 * against the cap just before, seeing the rows journaled earlier, not later ones),
 * {@link checkExposureCap} on the venue's record and the journal now; and the daily loss limit
 * ({@link checkDailyLoss}).
 */
export function checkJournalWrite(
  method: string,
  result: unknown,
  context: JournaledContext,
): void {
  checkDailyLoss(method, result, context.journal, context.days, context.violations);
  const records = journaledBy(method, result);
  if (records.length === 0) return;
  const { engine, accountId } = context;
  const unresolved = context.journal.inStates(UNFINISHED_STATES);
  const venueOpen = engine.listOpenOrders(accountId);
  for (const order of records)
    checkExposureCap(
      {
        order,
        position: engine.position(accountId, order.marketId),
        venueOpen,
        unresolved,
        accepted: context.accepted,
        venueNow: context.venueNow,
      },
      marketInMessage(context.marketIds, order.marketId),
      context.violations,
    );
}

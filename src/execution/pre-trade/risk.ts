import type { Snapshot } from '../../market/snapshot.ts';
import type { OrderIntent } from '../../domain/index.ts';
import type { RiskLimits } from './checks.ts';
import { evaluateIntent } from './evaluate-intent.ts';
import type { UnknownAccount } from './margin-check.ts';
import { marginFactsOf } from './margin-facts.ts';
import type { Portfolio } from '../portfolio.ts';
import type { Refusal } from '../refusal.ts';
import type { SizedOrder } from './sizing.ts';
import type { TradingMode } from '../trading-mode.ts';

const DAY_MS = 86_400_000;
/** The risk store's key of the day's baseline: `<day start ms> <realized PnL x18>`. */
const BASELINE_KEY = 'dayBaseline';

/** Why a bot without a starting balance refuses every order that adds exposure (docs/margin.md). */
export const UNKNOWN_ACCOUNT: UnknownAccount = {
  unknown:
    "the account's balance is not known (the venue reports none): set risk.capital in the config to what the account holds in quote units; until then no order that adds exposure is sent, only reducing ones",
};

/**
 * A market's position with the orders in flight. Made here and returned, not written in the
 * intent's literal: tsx (esbuild's keepNames) gives a function written as a property or a named
 * constant its name with `Object.defineProperty` each time one is made, here once per order.
 */
function positionsWithPending(
  portfolio: Portfolio,
  pendingX18: (marketId: number) => bigint,
): (marketId: number) => bigint {
  return (marketId) => portfolio.account.amountX18(marketId) + pendingX18(marketId);
}

/** Where the day's PnL baseline survives a restart (the journal's key-value store). */
export interface RiskStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/** Options of {@link RiskEngine}. */
export interface RiskEngineOptions {
  readonly limits: RiskLimits;
  /** Checked before every intent; true stops all sending. */
  readonly killSwitchOn: () => boolean;
  /** The trading mode, asked before every intent; default always `trading`. */
  readonly tradingMode?: (() => TradingMode) | undefined;
  readonly now: () => number;
  readonly store: RiskStore;
  /**
   * What the account held before the first order of this journal (`risk.capital`; a backtest's
   * `backtest.startingCapital`; the embedded paper venue's `paper.balance`): the base of
   * {@link RiskEngine.equityX18}. Undefined: the account is not known (the venue reports no
   * balance), so every order that adds exposure is refused `MARGIN_UNKNOWN`.
   */
  readonly capitalX18?: bigint | undefined;
}

/**
 * Sizing and the pre-send checks (docs/design.md §4 rule 1 and 2), with the limits that need
 * memory: the daily loss limit counts from a baseline (realized PnL at the start of the UTC day)
 * that is persisted, so a restart does not forgive the day's loss.
 */
export class RiskEngine {
  readonly #options: RiskEngineOptions;
  #day: number | undefined;
  #realizedAtDayStart = 0n;

  constructor(options: RiskEngineOptions) {
    this.#options = options;
  }

  /**
   * Sizes an intent and runs the checks against the account as it stands plus `pendingX18`
   * (signed amounts of orders whose outcome is not yet known, per market).
   */
  evaluate(
    intent: OrderIntent,
    snapshot: Snapshot,
    portfolio: Portfolio,
    pendingX18: (marketId: number) => bigint,
  ): SizedOrder | Refusal {
    this.#rollDay(portfolio);
    return evaluateIntent(intent, {
      snapshot,
      positionX18: positionsWithPending(portfolio, pendingX18),
      limits: this.#options.limits,
      dailyPnlX18: this.dailyPnlX18(snapshot, portfolio),
      killSwitchOn: this.#options.killSwitchOn(),
      mode: this.#options.tradingMode?.() ?? 'trading',
      // Computed only for the intents sized by it (a mark per open market).
      equityX18: intent.risk === undefined ? undefined : this.equityX18(snapshot, portfolio),
      // The margin check needs a balance to start from: without one (live on a real venue, no
      // risk.capital) the bot cannot know what an order may take, so it fails closed.
      margin:
        this.#options.capitalX18 === undefined
          ? UNKNOWN_ACCOUNT
          : marginFactsOf(
              this.#options.capitalX18,
              portfolio.account,
              snapshot,
              pendingX18,
              this.#options.limits.maxLeverageX18,
            ),
    });
  }

  /**
   * The account's equity as the bot knows it: the configured capital, plus the PnL realized
   * (net of fees) by every fill in the journal, plus the unrealized PnL of the open positions at
   * the mark price of `snapshot` (a market without a mark counts 0). Deposits, withdrawals and
   * trades made outside this bot are not seen. Undefined without a configured capital.
   */
  equityX18(snapshot: Snapshot, portfolio: Portfolio): bigint | undefined {
    const capital = this.#options.capitalX18;
    if (capital === undefined) return undefined;
    return capital + portfolio.account.realizedNetX18() + portfolio.unrealizedX18(snapshot);
  }

  /** Today's PnL: realized net of fees since the day's baseline, plus unrealized at the mark. */
  dailyPnlX18(snapshot: Snapshot, portfolio: Portfolio): bigint {
    this.#rollDay(portfolio);
    return (
      portfolio.account.realizedNetX18() -
      this.#realizedAtDayStart +
      portfolio.unrealizedX18(snapshot)
    );
  }

  /**
   * The baseline is taken once per UTC day and stored; a restart the same day reads it back.
   *
   * The day never goes back: a wall clock stepped back across midnight (or a restart on a clock
   * behind the last run's) keeps the later day and its baseline, up to the day after today's.
   * Taking a new baseline there forgave the loss made since that midnight, each time the clock
   * crossed it. A day further ahead, running or stored, was rolled on a clock that was wrong:
   * today starts from the later of its baseline and the realized PnL now, so it counts the loss
   * since that baseline, and no profit since it hides a loss (and the day is not held for days).
   *
   * Day and baseline are one value, one write: as two writes, a crash between them left a new
   * baseline under the old day, and the next start forgave the loss since the first roll.
   */
  #rollDay(portfolio: Portfolio): void {
    const day = Math.floor(this.#options.now() / DAY_MS) * DAY_MS;
    if (this.#day !== undefined && day <= this.#day && this.#day <= day + DAY_MS) return;
    const held =
      this.#day === undefined
        ? this.#storedBaseline()
        : { day: this.#day, realizedX18: this.#realizedAtDayStart };
    if (held !== undefined && held.day >= day && held.day <= day + DAY_MS) {
      this.#day = held.day;
      this.#realizedAtDayStart = held.realizedX18;
      return;
    }
    const realizedX18 = portfolio.account.realizedNetX18();
    this.#day = day;
    this.#realizedAtDayStart =
      held !== undefined && held.day > day && held.realizedX18 > realizedX18
        ? held.realizedX18
        : realizedX18;
    this.#options.store.set(BASELINE_KEY, `${day} ${this.#realizedAtDayStart}`);
  }

  /** The stored day and baseline ({@link readDayBaseline}). */
  #storedBaseline(): StoredBaseline | undefined {
    return readDayBaseline((key) => this.#options.store.get(key));
  }
}

/**
 * The day and baseline the risk store holds (`get`: the store's read), as the risk engine reads
 * them when it starts. Earlier versions wrote them as two keys; a journal that has both forms (a
 * version rolled back and forward again) gives the later day, and on the same day the higher
 * baseline (the one that counts more loss).
 */
export function readDayBaseline(
  get: (key: string) => string | undefined,
): StoredBaseline | undefined {
  const [day, realized] = get(BASELINE_KEY)?.split(' ') ?? [];
  const one = storedBaseline(day, realized);
  const two = storedBaseline(get('day'), get('realizedAtDayStartX18'));
  if (one === undefined || two === undefined) return one ?? two;
  if (one.day !== two.day) return one.day > two.day ? one : two;
  return one.realizedX18 >= two.realizedX18 ? one : two;
}

/** A UTC day's start (ms) and the realized PnL (x18) its daily loss counts from. */
export interface StoredBaseline {
  readonly day: number;
  readonly realizedX18: bigint;
}

/** The stored texts of a day and a baseline, or undefined when either is missing or malformed. */
function storedBaseline(
  day: string | undefined,
  realized: string | undefined,
): StoredBaseline | undefined {
  const dayMs = Number(day);
  if (day === undefined || !Number.isSafeInteger(dayMs)) return undefined;
  if (realized === undefined || !/^-?\d+$/.test(realized)) return undefined;
  return { day: dayMs, realizedX18: BigInt(realized) };
}

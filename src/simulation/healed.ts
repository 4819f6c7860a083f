import type { CredentialManager } from '../account/credential-manager.ts';
import type { InProcessPaperVenue } from '../paper/index.ts';
import { checkConverged, type ConvergedInput } from './converged.ts';
import type { OrderJournal } from '../execution/journal.ts';
import { markPriceX18 } from '../market/mark-price.ts';
import { mayHaveReachedLimit, type DayBaselines } from './daily-loss.ts';
import type { ViolationLog } from './invariants.ts';
import type { AcceptedOrder } from './venue-watch.ts';

/** The bot's part the checks here read. */
type HealedBot =
  { readonly credentials: Pick<CredentialManager, 'current' | 'isRefused' | 'state'> } | undefined;

/** What {@link checkHealed} looks at. */
export interface HealedInput {
  /** The bot running at the end, if any (none: I4's check says so). */
  readonly bot: HealedBot;
  readonly venue: Pick<InProcessPaperVenue, 'checkCredentials'>;
  /** The orders the venue accepted, each with its market and when (virtual ms). */
  readonly accepted: ReadonlyMap<string, AcceptedOrder>;
  /** The markets the bot trades: the venue must accept orders in each after the faults. */
  readonly marketIds: readonly number[];
  /** The journal of the bot running at the end (its day's loss may excuse it from trading). */
  readonly journal: OrderJournal | undefined;
  /** The daily loss limit and the days' baselines over the schedule. */
  readonly days: DayBaselines;
  /** The venue's mark of a market now (its quote's mid): what an open position is worth. */
  readonly markOf: (marketId: number) => bigint | undefined;
  /**
   * The signing keys (lowercase) the running process knows the venue refused, as the watch saw
   * it learn them: a 401 it got, or its credential file at its start (venue-watch.ts).
   */
  readonly refusalsKnown: ReadonlySet<string>;
  /** Virtual ms at which the faults stopped. */
  readonly faultsUntil: number;
  /** Virtual ms now (the end of the schedule). */
  readonly now: number;
  readonly violations: ViolationLog;
}

/**
 * How long after the faults stop the bot may still hold credentials the venue found expired
 * without knowing it: renewals the faults kept from the venue go out at the next poll (a
 * second), the answer within the request timeout (2 s). A key the bot knows was refused may
 * wait longer, by design (see {@link checkRenewedWhileHealed}).
 */
export const RENEWED_AFTER_FAULTS_MS = 10_000;

/**
 * The shortest healing phase whose end {@link checkHealed} asks anything of: the bot must by
 * then have had an order accepted in each market (the strategy asks for one at about half its
 * snapshots, one a second: sim-trader.ts; the venue accepted at least 22 in each healing of 2
 * minutes of default seeds 1-1000) and have replaced a refused key unless it still waits to. In
 * a shorter one (`quanta sim --minutes 1` heals for 12 s) a bot that trades could have none.
 */
export const FULL_HEALING_MS = 120_000;

/**
 * The bot's newest credentials, what the venue says of them now, and (when it refuses them)
 * whether the bot knows it did: what both renewal checks below read.
 */
function newestAtVenue(bot: NonNullable<HealedBot>, venue: HealedInput['venue']) {
  const { credentials } = bot.credentials.current();
  const check = venue.checkCredentials(credentials.serviceKey, credentials.serviceSecret);
  // Asked only when the venue refuses them: the per-step check runs at every step of the healing.
  const knownRefused = !check.ok && bot.credentials.isRefused(credentials.signerAddress);
  return { credentials, check, knownRefused };
}

/**
 * I5's "credentials are renewed before they expire unless the venue refuses", after every step
 * of the healing phase (from {@link RENEWED_AFTER_FAULTS_MS} after the faults stopped): the
 * venue does not find the bot's newest credentials expired. The schedules' credentials live 4
 * minutes and are renewed a minute before their end (sim-setup.ts); a bot that renews late (at
 * its credentials' expiry, not before) or never is caught as soon as one expires in the healing
 * phase. A revoked key is not counted here, nor one the bot knows the venue refused: after
 * refusals in a row the bot waits before it registers another (10 s, doubling:
 * account/refusal-spacing.ts); {@link checkHealed} asks at the end that it did.
 */
export function checkRenewedWhileHealed(
  bot: HealedBot,
  venue: HealedInput['venue'],
  healedMs: number,
  violations: ViolationLog,
): void {
  if (bot === undefined || healedMs < RENEWED_AFTER_FAULTS_MS) return;
  const { credentials, check, knownRefused } = newestAtVenue(bot, venue);
  if (!check.ok && check.reason === 'expired' && !knownRefused)
    violations.violate(
      'durable',
      `${healedMs} ms after the faults stopped, the bot's newest credentials (signing key ${credentials.signerAddress}) have expired at the venue: not renewed before their expiry`,
    );
}

/**
 * What must hold at the end of a schedule besides I4 (converged.ts), after a healing phase of
 * at least {@link FULL_HEALING_MS} (no network, venue, disk or clock fault since `faultsUntil`;
 * only a crash that found no process running may still strike a process booted since, and a
 * request held on the way before may still land, up to 27 s late: sim-network.ts):
 *
 * - I5's "credentials are renewed before they expire unless the venue refuses": the venue takes
 *   the bot's newest credentials now, unless the bot knows the venue refused them and still waits
 *   out the spacing of refusals in a row (account/refusal-spacing.ts). Before these checks, a
 *   bot that never renewed was seen only when it left an order open (I4: without credentials its
 *   lookups stop); otherwise it just stopped trading, as it refuses to sign with credentials
 *   about to expire.
 * - "the bot trades until the schedule ends": the venue accepted orders of the bot in each of
 *   its markets since the faults stopped, unless its day's loss may have reached the daily loss
 *   limit (daily-loss.ts): it then sends only reducing orders, maybe none, and so may not have
 *   learned that the venue revoked its credentials (that is not counted against I5 either).
 */
export function checkHealed(input: HealedInput): void {
  const { bot, violations } = input;
  const healedMs = input.now - input.faultsUntil;
  if (bot === undefined || healedMs < FULL_HEALING_MS) return;
  const { credentials, check, knownRefused } = newestAtVenue(bot, input.venue);
  const waiting = knownRefused && (bot.credentials.state().newKeyInMs ?? 0) > 0;
  // Past the daily loss limit the bot sends only reducing orders: maybe none, rightly; and with
  // nothing to send or look up, it sends nothing with its credentials that would tell it the
  // venue revoked them (it learns at its next order, refused, and registers a new key). Only
  // while no answer told it so: one that did and was not kept is the bot's fault.
  const stopped =
    input.journal !== undefined && mayHaveReachedLimit(input.journal, input.days, input.markOf);
  const told = input.refusalsKnown.has(credentials.signerAddress.toLowerCase());
  const unseen = !check.ok && check.reason === 'revoked' && !knownRefused && !told && stopped;
  if (!check.ok && !waiting && !unseen)
    violations.violate(
      'durable',
      `${healedMs} ms after the faults stopped, the venue refuses the bot's newest credentials (signing key ${credentials.signerAddress}) as ${check.reason}: ${told && !knownRefused ? 'the venue told the bot so, and the bot does not hold them refused' : 'not renewed in time'}`,
    );
  const traded = new Set<number>();
  for (const order of input.accepted.values())
    if (order.at >= input.faultsUntil) traded.add(order.marketId);
  const idle = input.marketIds.filter((marketId) => !traded.has(marketId));
  if (idle.length > 0 && !stopped)
    violations.violate(
      'starts',
      `the venue accepted no order of the bot${input.marketIds.length === 1 ? '' : ` in market ${idle.join(', ')}`} in the ${healedMs} ms after the faults stopped`,
    );
}

/** The checks at the end of a schedule: I4 ({@link checkConverged}), then {@link checkHealed}. */
export function checkAtEnd(input: ConvergedInput & Omit<HealedInput, 'markOf'>): void {
  checkConverged(input);
  const { engine } = input.venue;
  checkHealed({ ...input, markOf: (marketId) => markPriceX18(engine.quotes(marketId)[0]) });
}

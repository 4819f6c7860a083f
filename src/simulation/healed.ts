import type { CredentialManager } from '../account/credential-manager.ts';
import type { InProcessPaperVenue } from '../paper/index.ts';
import type { ViolationLog } from './invariants.ts';
import type { AcceptedOrder } from './venue-watch.ts';

/** What {@link checkHealed} looks at. */
export interface HealedInput {
  /** The bot running at the end, if any (none: I4's check says so). */
  readonly bot: { readonly credentials: Pick<CredentialManager, 'current'> } | undefined;
  readonly venue: Pick<InProcessPaperVenue, 'checkCredentials'>;
  /** The orders the venue accepted, each with when (virtual ms). */
  readonly accepted: ReadonlyMap<string, AcceptedOrder>;
  /** Virtual ms at which the faults stopped. */
  readonly faultsUntil: number;
  /** Virtual ms now (the end of the schedule). */
  readonly now: number;
  readonly violations: ViolationLog;
}

/**
 * What must hold at the end of a schedule besides I4 (converged.ts), after the healing phase
 * (no fault of any kind since `faultsUntil`):
 *
 * - I5's "credentials are renewed before they expire unless the venue refuses": the venue takes
 *   the bot's newest credentials now. Whatever happened before (revocations, answers lost, a
 *   restart on stored ones, a clock that was off), a bot that renews has registered a key the
 *   venue still takes: the schedules' credentials live 4 minutes and are renewed a minute
 *   before their end (sim-setup.ts), the healing lasts 2. Before this check, a bot that never
 *   renewed was seen only when it left an order open (I4: without credentials its lookups stop);
 *   otherwise it just stopped trading, as it refuses to sign with credentials about to expire.
 * - "the bot trades until the schedule ends": the venue accepted at least one of its orders
 *   after the faults stopped (the strategy asks for an order at about half its snapshots, one a
 *   second: sim-trader.ts).
 */
export function checkHealed(input: HealedInput): void {
  const { bot, violations } = input;
  if (bot === undefined) return;
  const healedMs = input.now - input.faultsUntil;
  const { credentials } = bot.credentials.current();
  const check = input.venue.checkCredentials(credentials.serviceKey, credentials.serviceSecret);
  if (!check.ok)
    violations.violate(
      'durable',
      `${healedMs} ms after the faults stopped, the venue refuses the bot's newest credentials (signing key ${credentials.signerAddress}) as ${check.reason}: not renewed in time`,
    );
  let traded = 0;
  for (const order of input.accepted.values()) if (order.at >= input.faultsUntil) traded += 1;
  if (traded === 0)
    violations.violate(
      'starts',
      `the venue accepted no order of the bot in the ${healedMs} ms after the faults stopped`,
    );
}

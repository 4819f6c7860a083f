import type { InProcessPaperVenue } from '../paper/index.ts';
import type { FaultPlan } from './fault-plan.ts';

/**
 * Starts the plan's venue faults on `venue`: each market off from its window's start to its end,
 * each price jump at its time, each revocation of account `accountId`'s credentials at its time.
 * `at` starts a timer of the simulator (virtual ms since the schedule began); `event` tells the
 * trace.
 */
export function startVenueFaults(
  plan: Pick<FaultPlan, 'marketsOff' | 'jumps' | 'revocations'>,
  venue: InProcessPaperVenue,
  accountId: string,
  at: (ms: number, fire: () => void) => void,
  event: (text: string) => void,
): void {
  const { engine } = venue;
  for (const off of plan.marketsOff) {
    at(off.from, () => {
      engine.setMarketActive(off.marketId, false);
      event(`venue: market ${off.marketId} inactive`);
    });
    at(off.to, () => {
      engine.setMarketActive(off.marketId, true);
      event(`venue: market ${off.marketId} active again`);
    });
  }
  for (const jump of plan.jumps)
    at(jump.at, () => {
      engine.jumpMid(jump.marketId, BigInt(jump.ppb));
      event(`venue: market ${jump.marketId} price jump ${jump.ppb} ppb`);
    });
  for (const revocation of plan.revocations)
    at(revocation.at, () => {
      const count = venue.revokeCredentials(accountId);
      event(`venue: revoked the bot's credentials (${count})`);
    });
}

import type { SimEngine } from '../sim/index.ts';
import type { FaultPlan } from './fault-plan.ts';

/**
 * Starts the plan's venue faults on the venue's `engine`: each market off from its window's
 * start to its end, each price jump at its time. `at` starts a timer of the simulator (virtual
 * ms since the schedule began); `event` tells the trace.
 */
export function startVenueFaults(
  plan: Pick<FaultPlan, 'marketsOff' | 'jumps'>,
  engine: SimEngine,
  at: (ms: number, fire: () => void) => void,
  event: (text: string) => void,
): void {
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
}

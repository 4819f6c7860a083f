import { createInProcessPaperVenue, type InProcessPaperVenue } from '../paper/index.ts';
import { signingDomainOf } from '../runtime/signing-domain.ts';
import type { Setup } from './schedule-setup.ts';
import { SIM_BALANCE } from './sim-setup.ts';

/**
 * The schedule's venue: the in-process paper venue on `venueNow` (true virtual time), its price
 * walks seeded by the schedule, its books as deep as the mix's (sim-mix.ts).
 */
export function simVenue(setup: Setup, venueNow: () => number): InProcessPaperVenue {
  const { options, config } = setup;
  const { levelNotional } = setup.mix;
  return createInProcessPaperVenue({
    seed: options.seed,
    clock: venueNow,
    domain: signingDomainOf(config),
    headerPrefix: config.venue.headerPrefix,
    balance: SIM_BALANCE,
    ...(levelNotional === undefined ? {} : { levelNotional }),
  });
}

import type { VenueClockCheck } from '../../src/clock/venue-clock.ts';
import { Executor } from '../../src/execution/executor.ts';
import type { OrderJournal } from '../../src/execution/journal.ts';
import type { Logger } from '../../src/log/logger.ts';
import { findOrder, type VenueConnection } from '../../src/venue/endpoints/index.ts';
import { serialDispatcher } from './serial-dispatcher.ts';

/** Order credentials for a lookup by signature on a stub venue (none of it checked there). */
const CREDENTIALS = {
  brokerId: 1,
  serviceKey: 'key',
  serviceSecret: 'secret',
  signerAddress: `0x${'1'.repeat(40)}`,
  headerPrefix: 'Service-',
};

/**
 * An executor that only looks orders up: nothing is signed or sent through it. Its lookup by
 * signature goes to `connection` through the bot's own client (venue/endpoints findOrder); the
 * lookup by venue id finds nothing.
 */
export function lookupOnlyExecutor(options: {
  readonly journal: OrderJournal;
  readonly connection: VenueConnection;
  readonly now: () => number;
  readonly log: Logger;
  readonly venueClock?: VenueClockCheck;
}): Executor {
  const { journal, connection, now, log, venueClock } = options;
  return new Executor({
    journal,
    dispatcher: serialDispatcher({
      submitter: { createOrder: () => Promise.reject(new Error('nothing is sent here')) },
      now,
      log,
    }),
    signer: { sign: () => Promise.reject(new Error('nothing is signed here')) },
    limits: { maxOrderNotionalX18: 10n ** 24n, maxPositionNotionalX18: 10n ** 24n },
    killSwitchOn: () => false,
    now,
    log,
    orderTtlMs: 60_000,
    lookupOrder: () => Promise.resolve(undefined),
    findOrder: (signature) => findOrder(connection, CREDENTIALS, signature),
    ...(venueClock === undefined ? {} : { venueClock }),
  });
}

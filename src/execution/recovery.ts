import { isInFlightState } from '../domain/index.ts';
import type { Logger } from '../log/logger.ts';
import type { OrderRecord } from './order-record.ts';

/** What recovery may do with a journaled order; the executor supplies each step. */
export interface RecoverySteps {
  /** Books the fills a record already has into the portfolio, at the fees recorded with them. */
  readonly bookRecordedFills: (record: OrderRecord) => void;
  /** Resends the record's identical signed bytes (safe: the venue's replay guard answers 409). */
  readonly resend: (record: OrderRecord) => void;
  /** Marks a record final without sending it. */
  readonly finish: (
    record: OrderRecord,
    outcome: { state: 'EXPIRED' | 'UNKNOWN'; error: string },
  ) => void;
}

/**
 * Start-up recovery (docs/design.md §4 rule 5): rebuilds positions from every journaled fill,
 * then deals with orders a crash left in flight: unexpired ones are resent byte-identical;
 * expired ones are marked UNKNOWN when an attempt may have landed, EXPIRED when none was made.
 * (Where new orders' expiries start is `expiryFloorOf`'s.)
 */
export function recoverJournal(
  records: readonly OrderRecord[],
  now: number,
  steps: RecoverySteps,
  log: Logger,
): void {
  for (const record of records) {
    if (record.filledX18 > 0n && record.avgFillPriceX18 !== null) steps.bookRecordedFills(record);
  }
  for (const record of records) {
    if (!isInFlightState(record.state)) continue;
    if (now < record.expiryTs) {
      log.warn(
        { orderId: record.id, attempts: record.attempts },
        'resending an order left in flight by the last run (identical bytes)',
      );
      steps.resend(record);
    } else if (record.attempts === 0) {
      steps.finish(record, { state: 'EXPIRED', error: 'expired before it was sent' });
    } else {
      steps.finish(record, {
        state: 'UNKNOWN',
        error:
          'left in flight by the last run and expired before it could be resent; check the venue',
      });
    }
  }
}

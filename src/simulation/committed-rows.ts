import { isFinalState } from '../domain/index.ts';
import { RISK_SCOPE } from '../execution/executor.ts';
import type { OrderJournal } from '../execution/journal.ts';
import type { OrderRecord } from '../execution/order-record.ts';
import type { ViolationLog } from './invariants.ts';

/** What a journal held, committed, when its process was killed. */
export interface CommittedJournal {
  readonly rows: ReadonlyMap<number, OrderRecord>;
  /** The risk engine's day and baseline (the daily loss limit counts from them). */
  readonly risk: string;
  /** The protective exits' states. */
  readonly exits: string;
}

/** What `journal` holds now, to be checked when it is opened again ({@link checkCommittedRows}). */
export function committedJournal(journal: OrderJournal): CommittedJournal {
  return {
    rows: new Map(journal.all().map((row) => [row.id, row])),
    risk: JSON.stringify(journal.kvList(RISK_SCOPE)),
    exits: JSON.stringify(journal.exitsAll()),
  };
}

/** An order row's values that may not change once it is final, as text for a message. */
function finalValues(row: OrderRecord): string {
  const { state, filledX18, avgFillPriceX18, feesX18, venueOrderId, updatedAt } = row;
  return `${state} filled ${filledX18} at ${avgFillPriceX18} fees ${feesX18} venue id ${venueOrderId} updated ${updatedAt}`;
}

/**
 * I5 when a bot opens the journal after a crash: everything committed before the crash is still
 * there. Every order row: a final one unchanged, any other with no less filled and its venue id
 * kept (opening may settle a row that was in flight, never undo what the venue said). The risk
 * baseline and the protective exits exactly as they were (nothing changes them at open).
 */
export function checkCommittedRows(
  committed: CommittedJournal | undefined,
  journal: OrderJournal,
  violations: ViolationLog,
): void {
  if (committed === undefined) return;
  const rows = new Map(journal.all().map((r) => [r.id, r]));
  for (const [id, before] of committed.rows) {
    const row = rows.get(id);
    if (row === undefined)
      violations.violate('durable', `journal row ${id} (${before.state}) lost across the restart`);
    else if (isFinalState(before.state)) {
      if (finalValues(row) !== finalValues(before))
        violations.violate(
          'durable',
          `journal row ${id} was ${finalValues(before)} (final) and is ${finalValues(row)} after the restart`,
        );
    } else if (
      row.filledX18 < before.filledX18 ||
      (before.venueOrderId !== null && row.venueOrderId !== before.venueOrderId)
    )
      violations.violate(
        'durable',
        `journal row ${id} had filled ${before.filledX18} with venue id ${before.venueOrderId} and has ${row.filledX18} with ${row.venueOrderId} after the restart`,
      );
  }
  const risk = JSON.stringify(journal.kvList(RISK_SCOPE));
  if (risk !== committed.risk)
    violations.violate(
      'durable',
      `the daily loss baseline was ${committed.risk} and is ${risk} after the restart`,
    );
  const exits = JSON.stringify(journal.exitsAll());
  if (exits !== committed.exits)
    violations.violate(
      'durable',
      `the protective exits were ${committed.exits} and are ${exits} after the restart`,
    );
}

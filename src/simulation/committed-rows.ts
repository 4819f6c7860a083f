import { isFinalState } from '../domain/index.ts';
import type { OrderJournal } from '../execution/journal.ts';
import type { ViolationLog } from './invariants.ts';

/**
 * I5 when a bot opens the journal after a crash: every row committed before the crash
 * (`committed`: each row's state then) is still there, and a row that was final is unchanged.
 */
export function checkCommittedRows(
  committed: ReadonlyMap<number, string>,
  journal: OrderJournal,
  violations: ViolationLog,
): void {
  const rows = new Map(journal.all().map((r) => [r.id, r]));
  for (const [id, state] of committed) {
    const row = rows.get(id);
    if (row === undefined)
      violations.violate('durable', `journal row ${id} (${state}) lost across the restart`);
    else if (isFinalState(state as never) && row.state !== state)
      violations.violate(
        'durable',
        `journal row ${id} was ${state} (final) and is ${row.state} after the restart`,
      );
  }
}

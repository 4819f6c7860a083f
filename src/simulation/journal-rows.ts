import { UNFINISHED_STATES } from '../domain/index.ts';
import type { OrderJournal } from '../execution/journal.ts';

/**
 * Which journal row holds a signature, as `journal.all().find(…)` answers it, without reading
 * every row for every order the venue accepts (that read was a tenth of a schedule's time): a
 * row's id and signature never change and ids only grow, so only rows newer than the last read
 * are read. Before that, the unfinished rows, which the journal answers from memory: an order
 * the venue accepts is nearly always still unfinished in the journal. A new journal (a restart)
 * starts the index again.
 */
export class JournalRows {
  #journal: OrderJournal | undefined;
  readonly #ids = new Map<string, number>();
  /** The highest row id read so far. */
  #read = 0;

  /** The id of the row of `journal` whose signature is `signature`, if there is one. */
  rowIdOf(journal: OrderJournal, signature: string): number | undefined {
    if (journal !== this.#journal) {
      this.#journal = journal;
      this.#ids.clear();
      this.#read = 0;
    }
    const known = this.#ids.get(signature);
    if (known !== undefined) return known;
    for (const row of journal.inStates(UNFINISHED_STATES))
      if (row.signature === signature) return row.id;
    const newest = journal.latest(1)[0]?.id ?? 0;
    if (newest > this.#read) {
      // The rows above the last read are at most `newest - read` of the newest (fewer when ids
      // have gaps): every one of them is among these.
      for (const row of journal.latest(newest - this.#read))
        if (row.id > this.#read) this.#ids.set(row.signature, row.id);
      this.#read = newest;
    }
    return this.#ids.get(signature);
  }
}

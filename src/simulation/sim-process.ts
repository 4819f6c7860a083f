import type { VenueClock } from '../clock/venue-clock.ts';
import type { OrderJournal } from '../execution/journal.ts';
import type { SimBot } from './sim-bot.ts';

/** One bot process of a schedule (schedule-run.ts), as it starts, trades and dies. */
export interface SimProcess {
  readonly pid: number;
  journal?: OrderJournal;
  bot?: SimBot;
  clock?: VenueClock;
  /** How the journal it started on was damaged: it must refuse to start. */
  readonly damaged?: string;
  /** The last clock state of its bot the trace told. */
  clockState?: string;
}

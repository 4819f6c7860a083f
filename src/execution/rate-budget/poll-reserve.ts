/** What {@link pollReserve} needs. */
export interface PollReserveInput {
  /** Requests per window (`execution.rateLimit.requests`). */
  readonly requests: number;
  /** The window in ms (`execution.rateLimit.perMs`). */
  readonly perMs: number;
  /** `poll.intervalMs`. */
  readonly pollIntervalMs: number;
  /** Requests one poll makes (markets, and quotes when `poll.quotes` is on). */
  readonly permitsPerPoll: number;
  /** `execution.countPolls`: false, polls take no permit and need no reserve. */
  readonly countPolls: boolean;
}

/**
 * Slots of the rate budget that orders and lookups never take, so polls always find theirs
 * (issue 25: a strategy flooding orders kept every slot busy and the poller skipped 142 of 153
 * polls; data went stale for every strategy). A poll holds its slots from its start until
 * `perMs` after its answer, so the polls of about `perMs / intervalMs + 1` intervals hold slots
 * at once. Orders keep at least half the budget: with more polls than that, some are skipped
 * while orders wait (as before), and `quanta_polls_skipped` says so.
 *
 * @example
 * pollReserve({ requests: 10, perMs: 1000, pollIntervalMs: 1000, permitsPerPoll: 2, countPolls: true }) // 4
 */
export function pollReserve(input: PollReserveInput): number {
  if (!input.countPolls || !Number.isFinite(input.requests)) return 0;
  const need = input.permitsPerPoll * (Math.floor(input.perMs / input.pollIntervalMs) + 1);
  return Math.min(need, Math.floor(input.requests / 2));
}

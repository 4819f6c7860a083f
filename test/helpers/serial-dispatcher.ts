import { Dispatcher } from '../../src/execution/dispatcher.ts';
import type { Logger } from '../../src/log/logger.ts';

/**
 * A dispatcher for tests: one order at a time, one attempt each, no rate limit, and backoff
 * sleeps that return at once.
 */
export function serialDispatcher(options: {
  readonly submitter: ConstructorParameters<typeof Dispatcher>[0]['submitter'];
  readonly now: () => number;
  readonly log: Logger;
  readonly onAttempt?: (orderId: number, attempt: number) => void;
}): Dispatcher {
  return new Dispatcher({
    requests: Infinity,
    perMs: 1,
    concurrency: 1,
    maxAttempts: 1,
    sleep: () => Promise.resolve(),
    ...options,
  });
}

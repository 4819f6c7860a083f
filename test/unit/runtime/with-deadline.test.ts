import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { withDeadline } from '../../../src/runtime/with-deadline.ts';

/** A task that waits until its signal aborts and rejects with the reason. */
const untilAborted = (signal: AbortSignal): Promise<never> =>
  new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });

describe('withDeadline', () => {
  it('leaves nothing on the long-lived signal, however many calls run under it', async () => {
    const run = new AbortController();
    for (let i = 0; i < 1000; i++) await withDeadline(run.signal, 60_000, () => Promise.resolve(i));
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('aborts the task when the parent aborts, with the parent’s reason', async () => {
    const run = new AbortController();
    const task = withDeadline(run.signal, 60_000, untilAborted);
    run.abort(new Error('shutdown'));
    await expect(task).rejects.toThrow('shutdown');
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('aborts the task when its time is up', async () => {
    const run = new AbortController();
    await expect(withDeadline(run.signal, 5, untilAborted)).rejects.toThrow('timed out after 5 ms');
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('starts aborted under an aborted parent', async () => {
    const run = new AbortController();
    run.abort(new Error('already'));
    await expect(withDeadline(run.signal, 60_000, untilAborted)).rejects.toThrow('already');
  });
});

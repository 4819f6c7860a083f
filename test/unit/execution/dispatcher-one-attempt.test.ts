/**
 * A dispatcher allowed one attempt per order (`maxAttempts: 1`, as backtests run it) takes its
 * own path instead of p-retry's: what p-retry does with no retry, step for step. These pin what
 * that path answers and logs: a placed order, a refusal (one warning, the refusal's verdict), a
 * value thrown that is not an Error (normalized as p-retry words it), a 429 (the budget and
 * queue paused), and a shutdown before the send.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  Dispatcher,
  type DispatchResult,
  type OrderSubmitter,
} from '../../../src/execution/dispatcher.ts';
import { createLogger } from '../../../src/log/logger.ts';
import { venueErrorFromStatus } from '../../../src/venue/errors.ts';
import { filledVenueOrder } from '../../helpers/venue-order.ts';

const REQUEST = { body: '{"marketId":1}', signature: '0xsig', signer: '0xsigner' };

function oneAttempt(submitter: OrderSubmitter) {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const sleeps: number[] = [];
  let now = 1_000;
  const dispatcher = new Dispatcher({
    submitter,
    requests: Infinity,
    perMs: 1,
    concurrency: Infinity,
    maxAttempts: 1,
    now: () => now,
    sleep: (ms) => {
      sleeps.push(ms);
      now += ms;
      return Promise.resolve();
    },
    log: createLogger({ level: 'info', destination }),
  });
  const warnings = () =>
    lines.filter((line) => line['msg'] === 'order send attempt failed' && line['level'] === 40);
  return { dispatcher, warnings, sleeps };
}

const send = (dispatcher: Dispatcher): Promise<DispatchResult> =>
  dispatcher.dispatch(7, REQUEST, 60_000);

const venueError = (status: number, venueMessage: string, retryAfterMs?: number) =>
  venueErrorFromStatus({ status, endpoint: 'POST /api/v1/order', venueMessage, retryAfterMs });

describe('a dispatcher with one attempt per order', () => {
  it('answers a placed order with its one attempt, and logs nothing', async () => {
    const placed = filledVenueOrder({ id: 3 });
    const { dispatcher, warnings } = oneAttempt({ createOrder: () => Promise.resolve(placed) });
    expect(await send(dispatcher)).toEqual({ kind: 'placed', order: placed, attempts: 1 });
    expect(warnings()).toHaveLength(0);
  });

  it('gives a refusal its verdict after one warning naming the order and attempt', async () => {
    const refusal = venueError(400, 'insufficient margin');
    const { dispatcher, warnings } = oneAttempt({ createOrder: () => Promise.reject(refusal) });
    const result = await send(dispatcher);
    expect(result).toMatchObject({ kind: 'rejected', attempts: 1 });
    expect(result.kind === 'placed' ? undefined : result.error).toBe(refusal);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ orderId: 7, attempt: 1 });
  });

  it('normalizes a thrown value that is not an Error as p-retry does', async () => {
    const { dispatcher, warnings } = oneAttempt({
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the case under test
      createOrder: () => Promise.reject('boom'),
    });
    const result = await send(dispatcher);
    expect(result.kind).not.toBe('placed');
    const error = result.kind === 'placed' ? undefined : result.error;
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(
      'Non-error was thrown: "boom". You should only throw errors.',
    );
    expect(warnings()).toHaveLength(1);
  });

  it('pauses every sender for a 429 before answering', async () => {
    const limited = venueError(429, 'slow down', 2_000);
    const { dispatcher, sleeps } = oneAttempt({ createOrder: () => Promise.reject(limited) });
    const result = await send(dispatcher);
    expect(result.kind).not.toBe('placed');
    expect(sleeps).toEqual([2_000]);
  });

  it('sends nothing once shut down, and says interrupted', async () => {
    let sends = 0;
    const { dispatcher, warnings } = oneAttempt({
      createOrder: () => {
        sends += 1;
        return new Promise(() => undefined);
      },
    });
    const pending = send(dispatcher);
    expect(await dispatcher.drain(0)).toBe(false);
    expect(await pending).toMatchObject({ kind: 'interrupted', attempts: 1 });
    expect(sends).toBe(1);
    expect(await send(dispatcher)).toMatchObject({ kind: 'interrupted', attempts: 0 });
    expect(sends).toBe(1);
    expect(warnings()).toHaveLength(1);
  });
});

/**
 * The simulated network carries a request to the venue on a timer of its own: a request already
 * sent reaches the venue even when its sender gives up on it (a timeout) or dies, and the venue
 * acts on it; one held on the way (`lateBefore`) lands 1-10 s late. Before, the sender's abort
 * or death cancelled its request on the way, so no request the bot had given up on ever landed.
 * A process that is already dead sends nothing.
 */
import { expect, it } from 'vitest';
import type { InProcessAnswer } from '../../../src/paper/in-process.ts';
import { VirtualScheduler } from '../../../src/simulation/scheduler.ts';
import {
  DEFAULT_NETWORK_FAULTS,
  LATE_MAX_MS,
  LATE_MIN_MS,
  simFetch,
  type NetworkFaults,
} from '../../../src/simulation/sim-network.ts';
import { SimRandom } from '../../../src/simulation/sim-random.ts';
import type { RateLimitStorm } from '../../../src/simulation/fault-plan.ts';
import { parseRetryAfter } from '../../../src/venue/http/index.ts';
import { MAX_EXPIRES_IN_MS } from '../../../src/simulation/sim-trader.ts';
import { MAX_CLOCK_SKEW_MS } from '../../../src/clock/venue-clock.ts';

const PID = 1;
/** The venue's wall clock at virtual 0: 2026-01-01T00:00:00.250Z (a quarter into a second). */
const VENUE_EPOCH_MS = Date.UTC(2026, 0, 1) + 250;
const NONE: NetworkFaults = {
  ...Object.fromEntries(Object.keys(DEFAULT_NETWORK_FAULTS).map((name) => [name, 0])),
  maxDelayMs: 100,
} as NetworkFaults;

const OK: InProcessAnswer = {
  status: 200,
  headers: { 'content-type': 'application/json' },
  text: JSON.stringify({ body: { id: 1 }, message: 'Order placed', status: 200 }),
};

interface Network {
  readonly faults?: Partial<NetworkFaults>;
  /** Faults on until this virtual ms. */
  readonly faultsUntil?: number;
  /** Partitioned from this virtual ms on. */
  readonly partitionFrom?: number;
  /** Answers lost (one way) from this virtual ms on. */
  readonly answersLostFrom?: number;
  /** A 429 storm. */
  readonly storm?: RateLimitStorm;
}

function network({
  faults = {},
  faultsUntil = Infinity,
  partitionFrom = Infinity,
  answersLostFrom = Infinity,
  storm,
}: Network = {}) {
  const scheduler = new VirtualScheduler();
  const arrivals: number[] = [];
  const faultsSeen: string[] = [];
  const sent: string[] = [];
  const waits: number[] = [];
  const fetch = simFetch({
    venue: {
      answer: () => {
        arrivals.push(scheduler.monotonic());
        return Promise.resolve(OK);
      },
    },
    time: scheduler.processTime(PID),
    wire: (ms, arrive) => scheduler.startTimer(0, ms, arrive),
    alive: () => scheduler.alive(PID),
    hostNow: () => scheduler.monotonic(),
    hold: (work) => scheduler.hold(work),
    random: new SimRandom(7, 1),
    faulty: () => scheduler.monotonic() < faultsUntil,
    partitioned: () => scheduler.monotonic() >= partitionFrom,
    answersLost: () => scheduler.monotonic() >= Math.min(partitionFrom, answersLostFrom),
    storm: () =>
      storm !== undefined && scheduler.monotonic() >= storm.from && scheduler.monotonic() < storm.to
        ? storm
        : undefined,
    venueNow: () => VENUE_EPOCH_MS + scheduler.monotonic(),
    toldToWait: (waitMs) => waits.push(waitMs),
    faults: { ...NONE, ...faults },
    sending: (request) => sent.push(request.path),
    delivered: () => undefined,
    fault: (what) => faultsSeen.push(what),
  });
  return { scheduler, fetch, arrivals, faultsSeen, sent, waits };
}

/** What became of a promise: 'pending' when it never settled. */
function outcome(promise: Promise<Response>): () => string {
  let state = 'pending';
  promise.then(
    (response) => (state = `answered ${response.status}`),
    (error: unknown) => (state = `failed ${(error as Error).name}`),
  );
  return () => state;
}

it('a request whose sender timed out while it was on its way still reaches the venue', async () => {
  const { scheduler, fetch, arrivals, faultsSeen } = network({ faults: { maxDelayMs: 400 } });
  const time = scheduler.processTime(PID);
  // Sent ten times, each given up at once: its timeout's timer is older than the request's, so
  // it fires first even when the request takes no time on the way (0-400 ms).
  const results = Array.from({ length: 10 }, () =>
    outcome(
      fetch('http://venue.sim/api/v1/order', { method: 'POST', signal: time.timeoutSignal(0) }),
    ),
  );
  await scheduler.runUntil(1_000, () => undefined);
  expect(results.map((result) => result())).toEqual(Array(10).fill('failed TimeoutError'));
  expect(arrivals).toHaveLength(10);
  expect(faultsSeen.filter((what) => what === 'landed-after-sender-left')).toHaveLength(10);
});

it('a request held on the way lands 1-10 s late, answered if its sender still waits', async () => {
  const { scheduler, fetch, arrivals, faultsSeen } = network({
    faults: { lateBefore: 1_000, maxDelayMs: 0 },
  });
  const result = outcome(fetch('http://venue.sim/api/v1/order', { method: 'POST' }));
  await scheduler.runUntil(LATE_MAX_MS, () => undefined);
  expect(faultsSeen).toEqual(['late-before']);
  expect(arrivals).toHaveLength(1);
  expect(arrivals[0]).toBeGreaterThanOrEqual(LATE_MIN_MS);
  expect(arrivals[0]).toBeLessThanOrEqual(LATE_MAX_MS);
  expect(result()).toBe('answered 200');
});

it('a request on its way when its sender dies reaches the venue; the dead sender never hears back', async () => {
  const { scheduler, fetch, arrivals, faultsSeen } = network({
    faults: { maxDelayMs: 0, lateBefore: 1_000 },
  });
  const result = outcome(fetch('http://venue.sim/api/v1/order', { method: 'POST' }));
  scheduler.startTimer(0, 500, () => scheduler.dropOwner(PID));
  await scheduler.runUntil(LATE_MAX_MS + 1_000, () => undefined);
  expect(arrivals).toHaveLength(1);
  expect(faultsSeen).toEqual(['late-before', 'landed-after-sender-left']);
  expect(result()).toBe('pending');
});

it('a process already dead sends nothing: nothing leaves, is told or traced, or settles', async () => {
  const { scheduler, fetch, arrivals, faultsSeen, sent } = network({
    faults: { dropBefore: 1_000 },
  });
  scheduler.dropOwner(PID);
  const result = outcome(fetch('http://venue.sim/api/v1/quotes'));
  await scheduler.runUntil(1_000, () => undefined);
  expect([arrivals, faultsSeen, sent]).toEqual([[], [], []]);
  expect(result()).toBe('pending');
});

it('a request whose signal aborted already fails at once, and nothing leaves', async () => {
  const { scheduler, fetch, arrivals, sent } = network();
  const result = outcome(fetch('http://venue.sim/api/v1/quotes', { signal: AbortSignal.abort() }));
  await scheduler.runUntil(1_000, () => undefined);
  expect([arrivals, sent]).toEqual([[], []]);
  expect(result()).toBe('failed AbortError');
});

it('a partition that begins while a request is on its way stops it at the venue door', async () => {
  const { scheduler, fetch, arrivals, faultsSeen } = network({
    faults: { lateBefore: 1_000, maxDelayMs: 0 },
    partitionFrom: 500,
  });
  const result = outcome(fetch('http://venue.sim/api/v1/order', { method: 'POST' }));
  await scheduler.runUntil(LATE_MAX_MS, () => undefined);
  expect(arrivals).toEqual([]);
  expect(faultsSeen).toEqual(['late-before', 'partition']);
  expect(result()).toBe('failed TypeError');
});

it('no fault is decided once faults stop, even for a request sent before', async () => {
  const { scheduler, fetch, arrivals, faultsSeen } = network({
    faults: { lateBefore: 1_000, dropAfter: 1_000, maxDelayMs: 0 },
    faultsUntil: 500,
  });
  const result = outcome(fetch('http://venue.sim/api/v1/order', { method: 'POST' }));
  await scheduler.runUntil(LATE_MAX_MS, () => undefined);
  expect(arrivals).toHaveLength(1);
  expect(faultsSeen).toEqual(['late-before']);
  expect(result()).toBe('answered 200');
});

it('a held request can land at any moment of an order life, and past it', () => {
  expect(LATE_MAX_MS).toBeGreaterThan(MAX_EXPIRES_IN_MS + MAX_CLOCK_SKEW_MS);
});

it('a one-way partition lets requests reach the venue, which acts on them, and loses every answer', async () => {
  const { scheduler, fetch, arrivals, faultsSeen } = network({ answersLostFrom: 0 });
  const result = outcome(fetch('http://venue.sim/api/v1/order', { method: 'POST' }));
  await scheduler.runUntil(1_000, () => undefined);
  expect(arrivals).toHaveLength(1);
  expect(faultsSeen).toEqual(['partition-after']);
  expect(result()).toBe('failed TypeError');
});

it("a one-way partition loses a proxy's refusal on the way back too", async () => {
  const { scheduler, fetch, arrivals, faultsSeen } = network({
    faults: { rateLimited: 1_000, rateLimitedBare: 0 },
    answersLostFrom: 0,
  });
  const result = outcome(fetch('http://venue.sim/api/v1/order', { method: 'POST' }));
  await scheduler.runUntil(1_000, () => undefined);
  expect(arrivals).toEqual([]);
  expect(faultsSeen).toEqual(['429', 'partition-after']);
  expect(result()).toBe('failed TypeError');
});

it('a 429 storm refuses every request before the venue, telling until when its Retry-After asks to wait', async () => {
  const kinds = ['seconds', 'date', 'one', 'bare'] as const;
  for (const retryAfter of kinds) {
    const { scheduler, fetch, arrivals, faultsSeen, waits } = network({
      storm: { from: 0, to: 4_300, retryAfter },
    });
    const answers: { response: Response; at: number }[] = [];
    void fetch('http://venue.sim/api/v1/market').then((response) =>
      answers.push({ response, at: scheduler.monotonic() }),
    );
    await scheduler.runUntil(1_000, () => undefined);
    expect(arrivals).toEqual([]);
    expect(faultsSeen).toEqual(['429-storm']);
    const { response, at } = answers[0]!;
    expect(response.status).toBe(429);
    const header = response.headers.get('retry-after');
    expect({ retryAfter, header: header !== null }).toEqual({
      retryAfter,
      header: retryAfter !== 'bare',
    });
    if (retryAfter === 'bare') {
      expect(waits).toEqual([]);
      continue;
    }
    // The storm's end on the venue's clock (2026-01-01T00:00:04.550Z) rounded up to a second.
    const told = { seconds: at + 5_000, date: 4_750, one: at + 1_000 }[retryAfter];
    expect(waits).toEqual([told]);
    // A client that reads the date against the answer's own Date waits at least that long.
    const date = response.headers.get('date');
    expect(date === null).toBe(retryAfter !== 'date');
    const asked = parseRetryAfter(header, date === null ? 0 : Date.parse(date))!;
    expect(at + asked).toBeGreaterThanOrEqual(told);
  }
});

it('no storm refuses a request once it is over', async () => {
  const { scheduler, fetch, arrivals } = network({
    storm: { from: 0, to: 100, retryAfter: 'one' },
  });
  await scheduler.runUntil(200, () => undefined);
  const result = outcome(fetch('http://venue.sim/api/v1/market'));
  await scheduler.runUntil(1_000, () => undefined);
  expect(arrivals).toHaveLength(1);
  expect(result()).toBe('answered 200');
});

import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log/logger.ts';
import { Poller, type PollerOptions } from '../../../src/market/poller.ts';
import { VenueError, venueErrorFromStatus } from '../../../src/venue/errors.ts';
import type { Market, Quote } from '../../../src/domain/index.ts';
import { testMarket } from '../../helpers/markets.ts';
import { quoteAt } from '../../helpers/strategy-harness.ts';

/** A scripted venue: each poll takes the next answer; time only moves when the poller sleeps. */
function scripted(answers: (Market[] | Error)[], quotes?: () => Quote[] | undefined) {
  const clock = { now: 1_000_000 };
  const sleeps: number[] = [];
  let calls = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const options: PollerOptions = {
    fetchMarkets: async () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await Promise.resolve();
      inFlight--;
      const answer = answers[Math.min(calls++, answers.length - 1)];
      if (answer instanceof Error) throw answer;
      return (answer ?? []).map((m) => ({ ...m }));
    },
    ...(quotes === undefined ? {} : { fetchQuotes: () => Promise.resolve(quotes()) }),
    intervalMs: 1000,
    staleAfterMs: 3000,
    maxBackoffMs: 8000,
    now: () => clock.now,
    sleep: (ms) => {
      sleeps.push(ms);
      clock.now += ms;
      return Promise.resolve();
    },
    log: silentLogger,
  };
  return {
    poller: new Poller(options),
    clock,
    sleeps,
    calls: () => calls,
    maxInFlight: () => maxInFlight,
  };
}

/** A poller of the given reads and quote scope, on a clock that stands still. */
function scopedPoller(
  reads: Pick<PollerOptions, 'fetchMarkets' | 'fetchQuotes' | 'quoteScope'>,
): Poller {
  return new Poller({
    ...reads,
    intervalMs: 1000,
    staleAfterMs: 3000,
    maxBackoffMs: 8000,
    now: () => 0,
    sleep: () => Promise.resolve(),
    log: silentLogger,
  });
}

const down = venueErrorFromStatus({ status: 502, endpoint: 'GET /api/v1/market' });

describe('Poller', () => {
  it('emits numbered, frozen snapshots and reuses unchanged market objects', async () => {
    const eth = testMarket();
    const { poller } = scripted([[eth], [eth], [{ ...eth, isActive: false }]]);
    const signal = new AbortController().signal;
    const a = await poller.pollOnce(signal);
    const b = await poller.pollOnce(signal);
    const c = await poller.pollOnce(signal);
    expect([a?.seq, b?.seq, c?.seq]).toEqual([1, 2, 3]);
    expect(Object.isFrozen(a)).toBe(true);
    expect(b?.markets).toBe(a?.markets);
    expect(b?.markets.get(1)).toBe(a?.markets.get(1));
    expect(c?.markets.get(1)?.isActive).toBe(false);
    expect(c?.markets).not.toBe(a?.markets);
  });

  it('backs off exponentially on failures, flags stale data after staleAfterMs, and recovers', async () => {
    const eth = testMarket();
    const { poller, sleeps } = scripted([[eth], down, down, down, down, [eth]]);
    const seen: { seq: number; stale: boolean }[] = [];
    const controller = new AbortController();
    await poller.run(async (snapshot) => {
      seen.push({ seq: snapshot.seq, stale: snapshot.stale });
      if (seen.length === 4) controller.abort();
      return Promise.resolve();
    }, controller.signal);
    // good, then failures inside the stale window emit nothing, then stale copies, then fresh
    expect(sleeps.slice(0, 5)).toEqual([1000, 2000, 4000, 8000, 8000]);
    expect(seen).toEqual([
      { seq: 1, stale: false },
      { seq: 2, stale: true },
      { seq: 3, stale: true },
      { seq: 4, stale: false },
    ]);
  });

  it('never runs two polls at once', async () => {
    const { poller, maxInFlight } = scripted([[testMarket()]]);
    const controller = new AbortController();
    let n = 0;
    await poller.run(() => {
      if (++n === 5) controller.abort();
      return Promise.resolve();
    }, controller.signal);
    expect(maxInFlight()).toBe(1);
  });

  it('stops asking for quotes after the venue says it has none', async () => {
    let asked = 0;
    const { poller } = scripted([[testMarket()]], () => {
      asked++;
      return undefined;
    });
    const signal = new AbortController().signal;
    const first = await poller.pollOnce(signal);
    await poller.pollOnce(signal);
    expect(first?.quotes).toBeUndefined();
    expect(asked).toBe(1);
  });

  it('carries quotes by market id', async () => {
    const { poller } = scripted([[testMarket()]], () => [quoteAt(1, '1', '2')]);
    const snapshot = await poller.pollOnce(new AbortController().signal);
    expect(snapshot?.quotes?.get(1)?.asks[0]?.price).toBe('2');
    expect(down).toBeInstanceOf(VenueError);
  });

  it('keeps asking for quotes after a scoped request found none (404 for one market id)', async () => {
    const asked: (number | undefined)[] = [];
    const poller = scopedPoller({
      fetchMarkets: () => Promise.resolve([testMarket()]),
      // A venue that answers 404 (undefined) for a market id it no longer lists.
      fetchQuotes: (_signal, marketId) => {
        asked.push(marketId);
        return Promise.resolve(marketId === 9 ? undefined : [quoteAt(1, '1', '2')]);
      },
      quoteScope: (markets) => (markets.size === 0 ? undefined : asked.length === 1 ? 9 : 1),
    });
    const signal = new AbortController().signal;
    await poller.pollOnce(signal);
    const stale = await poller.pollOnce(signal);
    const next = await poller.pollOnce(signal);
    expect(asked).toEqual([undefined, 9, 1]);
    expect(stale?.quotes?.size ?? 0).toBe(0);
    expect(next?.quotes?.get(1)?.asks[0]?.price).toBe('2');
  });

  it('asks quotes of the market its scope names, judged on the previous poll listing', async () => {
    const eth = testMarket();
    const btc = testMarket({ id: 2, symbol: 'BTC-USD' });
    const seen: ReadonlyMap<number, Market>[] = [];
    const asked: (number | undefined)[] = [];
    const poller = scopedPoller({
      fetchMarkets: () => Promise.resolve([eth, btc]),
      fetchQuotes: (_signal, marketId) => {
        asked.push(marketId);
        const all = [quoteAt(1, '1', '2'), quoteAt(2, '3', '4')];
        return Promise.resolve(
          all.filter((q) => marketId === undefined || q.marketId === marketId),
        );
      },
      quoteScope: (markets) => {
        seen.push(markets);
        return markets.has(2) ? 2 : undefined;
      },
    });
    const signal = new AbortController().signal;
    const first = await poller.pollOnce(signal);
    const second = await poller.pollOnce(signal);
    expect(asked).toEqual([undefined, 2]);
    expect(seen[0]?.size).toBe(0);
    expect(seen[1]).toBe(first?.markets);
    expect([...(first?.quotes?.keys() ?? [])]).toEqual([1, 2]);
    expect([...(second?.quotes?.keys() ?? [])]).toEqual([2]);
  });
});

describe('Poller with a rate budget', () => {
  it('takes one permit per request, releases each after its answer, and skips a poll without one', async () => {
    const eth = testMarket();
    const events: string[] = [];
    let grant = true;
    let now = 1_000_000;
    const poller = new Poller({
      fetchMarkets: () => {
        events.push('markets');
        return Promise.resolve([{ ...eth }]);
      },
      fetchQuotes: () => {
        events.push('quotes');
        return Promise.resolve([]);
      },
      takePermits: (count) => {
        events.push(`take ${count}`);
        if (!grant) return Promise.resolve(undefined);
        return Promise.resolve(
          Array.from({ length: count }, (_, i) => ({
            release: () => events.push(`release ${i}`),
          })),
        );
      },
      intervalMs: 1000,
      staleAfterMs: 3000,
      maxBackoffMs: 8000,
      now: () => now,
      sleep: () => Promise.resolve(),
      log: silentLogger,
    });
    const signal = new AbortController().signal;
    expect((await poller.pollOnce(signal))?.seq).toBe(1);
    expect(events).toEqual(['take 2', 'markets', 'quotes', 'release 0', 'release 1']);

    events.length = 0;
    grant = false;
    now += 1000;
    // Skipped: no request, not a failure (no backoff), no snapshot inside staleAfterMs...
    expect(await poller.pollOnce(signal)).toBeUndefined();
    expect(events).toEqual(['take 2']);
    expect(poller.failures).toBe(0);
    expect(poller.nextDelayMs()).toBe(1000);
    // ...and a stale one after it, like failed polls.
    now += 3000;
    const stale = await poller.pollOnce(signal);
    expect(stale?.stale).toBe(true);
    expect(stale?.seq).toBe(2);
  });

  it('schedules polls and judges staleness on the monotonic clock, whatever the wall clock does', async () => {
    const eth = testMarket();
    const clocks = { wall: 1_000_000, mono: 0 };
    const sleeps: number[] = [];
    let polls = 0;
    const controller = new AbortController();
    const poller = new Poller({
      fetchMarkets: () => {
        polls += 1;
        // The wall clock is stepped back ten minutes while the third poll (a failure) is in
        // flight, and forward again during the fourth; 20 ms pass each poll.
        if (polls === 3) clocks.wall -= 600_000;
        if (polls === 4) clocks.wall += 600_000;
        clocks.wall += 20;
        clocks.mono += 20;
        return polls === 3 ? Promise.reject(down) : Promise.resolve([eth]);
      },
      intervalMs: 1000,
      staleAfterMs: 500,
      maxBackoffMs: 8000,
      now: () => clocks.wall,
      monotonic: () => clocks.mono,
      sleep: (ms) => {
        sleeps.push(ms);
        clocks.wall += ms;
        clocks.mono += ms;
        if (sleeps.length === 4) controller.abort();
        return Promise.resolve();
      },
      log: silentLogger,
    });
    const seen: { stale: boolean; takenAt: number }[] = [];
    await poller.run(async (snapshot) => {
      seen.push({ stale: snapshot.stale, takenAt: snapshot.takenAt });
      return Promise.resolve();
    }, controller.signal);
    // The interval, or the backoff after the failure, less the poll's 20 ms: never the step
    // (on the wall clock the wait after the third poll was 601,980 ms, after the fourth 0).
    expect(sleeps).toEqual([980, 980, 1980, 980]);
    // Snapshots carry the wall clock; the failed third poll came 1 s after a good one (stale
    // after 500 ms) on the monotonic clock, though the wall clock put it 10 minutes before.
    expect(seen).toEqual([
      { stale: false, takenAt: 1_000_020 },
      { stale: false, takenAt: 1_001_020 },
      { stale: true, takenAt: 402_020 },
      { stale: false, takenAt: 1_004_020 },
    ]);
  });
});

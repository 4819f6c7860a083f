import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { TradingSession } from '../../../src/stack/trading-session.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import {
  LiveParams,
  PARAMS_SCOPE,
  readParamsAudit,
  restoreLiveParams,
} from '../../../src/runtime/live-params.ts';
import { defineStrategy, type Strategy } from '../../../src/strategy/define-strategy.ts';
import { parseStrategyParams } from '../../../src/strategy/load-strategy.ts';
import type { PreparedStrategy } from '../../../src/strategy/prepare-strategies.ts';
import { StrategyHost } from '../../../src/strategy/strategy-host.ts';
import { testMarket } from '../../helpers/markets.ts';
import { quoteAt, snapshotOf } from '../../helpers/strategy-harness.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const tempDir = tempDirs('quanta-live-params-');

interface State {
  readonly seen: number[];
}

/** Records, per snapshot, the window it decided with and its state object. */
function windowStrategy(calls: { window: number; state: State }[], changes: unknown[]) {
  return defineStrategy({
    name: 'window',
    params: z.object({ window: z.number().int().positive().default(10), amount: z.string() }),
    init: (): State => ({ seen: [] }),
    onSnapshot(snapshot, ctx) {
      ctx.state.seen.push(snapshot.seq);
      calls.push({ window: ctx.params.window, state: ctx.state });
      return [];
    },
    onParams(change, ctx) {
      if (change.params.window === 13) throw new Error('13 is unlucky');
      changes.push({ previous: change.previous, params: change.params, state: ctx.state });
    },
  });
}

function prepared(strategy: Strategy, raw: unknown): PreparedStrategy {
  return {
    index: 0,
    name: strategy.name,
    strategy,
    params: parseStrategyParams(strategy, strategy.name, raw),
    symbols: ['ETH-USD'],
    timeoutMs: undefined,
  };
}

async function bot(path: string, strategy: Strategy, raw: unknown, clock = { now: 1_000 }) {
  const journal = OrderJournal.open(path, { bootId: null });
  const store = {
    list: () => journal.kvList(PARAMS_SCOPE),
    set: (key: string, value: string) => journal.kvSet(PARAMS_SCOPE, key, value),
  };
  const restored = restoreLiveParams(
    [prepared(strategy, raw)],
    () => raw,
    readParamsAudit(store),
    silentLogger,
  );
  const entry = restored.strategies[0]!;
  const host = new StrategyHost({
    strategy: entry.strategy,
    name: entry.name,
    params: entry.params,
    symbols: entry.symbols,
    now: () => clock.now,
    log: silentLogger,
    store: { get: () => undefined, set: () => undefined },
    positionOf: () => 0n,
    openOrders: () => [],
  });
  await host.start();
  const session = new TradingSession({
    hosts: [host],
    executor: { submitAll: () => Promise.resolve([]), refreshOpenOrders: () => Promise.resolve() },
    log: silentLogger,
  });
  const live = new LiveParams({
    strategies: restored.strategies,
    raw: restored.raw,
    store,
    target: session,
    now: () => clock.now,
    log: silentLogger,
  });
  return { journal, session, live, clock };
}

describe('live params', () => {
  it('applies a valid change between snapshots with the same state object, and audits it', async () => {
    const calls: { window: number; state: State }[] = [];
    const changes: unknown[] = [];
    const path = join(tempDir(), 'journal.sqlite');
    const { journal, session, live, clock } = await bot(path, windowStrategy(calls, changes), {
      amount: '0.01',
    });
    await session.onSnapshot(snapshotOf(1, [testMarket()]));
    clock.now = 2_000;
    // Text, as the page's form and the command line send it: the schema wants a number.
    const outcome = await live.change('window', { window: '30' }, 'cli from 127.0.0.1');
    expect(outcome).toMatchObject({ ok: true, params: { window: 30, amount: '0.01' } });
    await session.onSnapshot(snapshotOf(2, [testMarket()]));
    expect(calls.map((c) => c.window)).toEqual([10, 30]);
    // The state the strategy decided with after the change is the very object from before.
    expect(calls[1]!.state).toBe(calls[0]!.state);
    expect(calls[1]!.state.seen).toEqual([1, 2]);
    expect(changes).toEqual([
      {
        previous: { window: 10, amount: '0.01' },
        params: { window: 30, amount: '0.01' },
        state: calls[0]!.state,
      },
    ]);
    expect(live.audit()).toEqual([
      {
        seq: 1,
        strategy: 'window',
        at: '1970-01-01T00:00:02.000Z',
        by: 'cli from 127.0.0.1',
        previous: { amount: '0.01' },
        params: { amount: '0.01', window: 30 },
      },
    ]);
    expect(readParamsAudit({ list: () => journal.kvList(PARAMS_SCOPE) })).toEqual(live.audit());
    journal.close();
  });

  it("refuses an invalid change with the schema's message and changes nothing", async () => {
    const calls: { window: number; state: State }[] = [];
    const changes: unknown[] = [];
    const path = join(tempDir(), 'journal.sqlite');
    const { journal, session, live } = await bot(path, windowStrategy(calls, changes), {
      amount: '0.01',
    });
    const invalid = await live.change('window', { window: '-3' }, 'page');
    expect(invalid).toEqual({
      ok: false,
      why: 'invalid',
      error: 'invalid params for strategy window (1 problem):',
      details: ['params.window: Too small: expected number to be >0'],
    });
    const unknownKey = await live.change('window', { windw: 5 }, 'page');
    expect(unknownKey).toMatchObject({ ok: false, why: 'invalid' });
    expect((unknownKey as { details: readonly string[] }).details[0]).toContain(
      'params.windw: unknown param of strategy window',
    );
    // onParams may refuse too: the previous params are back.
    const refused = await live.change('window', { window: 13 }, 'page');
    expect(refused).toEqual({
      ok: false,
      why: 'refused',
      error: 'onParams refused the change: 13 is unlucky',
      details: [],
    });
    expect(await live.change('nope', { window: 5 }, 'page')).toMatchObject({ why: 'unknown' });
    await session.onSnapshot(snapshotOf(1, [testMarket()]));
    expect(calls.map((c) => c.window)).toEqual([10]);
    expect(changes).toEqual([]);
    expect(live.audit()).toEqual([]);
    expect(journal.kvList(PARAMS_SCOPE)).toEqual([]);
    journal.close();
  });

  it('a change the journal cannot keep is not applied: the previous params stay, and the next change builds on them', async () => {
    // The journal write failed (a full disk) after the change was put in effect: the strategy
    // ran on window 30 that no audit, restart or later change knew of, and the next change
    // (amount) silently put window back to 10.
    const calls: { window: number; state: State }[] = [];
    const changes: unknown[] = [];
    const path = join(tempDir(), 'journal.sqlite');
    const { journal, session, live } = await bot(path, windowStrategy(calls, changes), {
      amount: '0.01',
    });
    const set = journal.kvSet.bind(journal);
    let full = true;
    journal.kvSet = (scope, key, value) => {
      if (full) throw new Error('SQLITE_FULL: database or disk is full');
      set(scope, key, value);
    };
    const unsaved = await live.change('window', { window: 30 }, 'page');
    expect(unsaved).toEqual({
      ok: false,
      why: 'unsaved',
      error:
        'the change could not be written to the journal (SQLITE_FULL: database or disk is full); the previous params are back in effect',
      details: [],
    });
    await session.onSnapshot(snapshotOf(1, [testMarket()]));
    expect(calls.map((c) => c.window)).toEqual([10]);
    expect(live.audit()).toEqual([]);
    full = false;
    const next = await live.change('window', { amount: '0.02' }, 'page');
    expect(next).toMatchObject({ ok: true, params: { window: 10, amount: '0.02' } });
    await session.onSnapshot(snapshotOf(2, [testMarket()]));
    expect(calls.map((c) => c.window)).toEqual([10, 10]);
    expect(readParamsAudit({ list: () => journal.kvList(PARAMS_SCOPE) })).toEqual(live.audit());
    journal.close();
  });

  it('keeps the latest change across a restart, over the config', async () => {
    const path = join(tempDir(), 'journal.sqlite');
    const first = await bot(path, windowStrategy([], []), { amount: '0.01' });
    expect((await first.live.change('window', { window: 20 }, 'a')).ok).toBe(true);
    expect((await first.live.change('window', { amount: '0.02' }, 'b')).ok).toBe(true);
    first.journal.close();

    const calls: { window: number; state: State }[] = [];
    const second = await bot(path, windowStrategy(calls, []), { amount: '0.01' });
    await second.session.onSnapshot(snapshotOf(1, [testMarket()]));
    expect(calls.map((c) => c.window)).toEqual([20]);
    expect(second.live.current()).toEqual({ window: { window: 20, amount: '0.02' } });
    expect(second.live.audit().map((c) => [c.seq, c.by, c.previous, c.params])).toEqual([
      [1, 'a', { amount: '0.01' }, { amount: '0.01', window: 20 }],
      [2, 'b', { amount: '0.01', window: 20 }, { amount: '0.02', window: 20 }],
    ]);
    // The next change is numbered after those of the run before.
    expect(await second.live.change('window', { window: 21 }, 'c')).toMatchObject({
      change: { seq: 3 },
    });
    second.journal.close();
  });

  it('applies a change only once the snapshot under way has answered', async () => {
    let release: (() => void) | undefined;
    const seen: number[] = [];
    const strategy = defineStrategy({
      name: 'slow',
      params: z.object({ window: z.number() }),
      async onSnapshot(_snapshot, ctx) {
        await new Promise<void>((resolve) => (release = resolve));
        seen.push(ctx.params.window);
        return [];
      },
    });
    const path = join(tempDir(), 'journal.sqlite');
    const { journal, session, live } = await bot(path, strategy, { window: 1 });
    const turn = session.onSnapshot(snapshotOf(1, [testMarket()]));
    let applied = false;
    const change = live.change('slow', { window: 2 }, 'api').then(() => (applied = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(applied).toBe(false);
    release!();
    await turn;
    await change;
    expect(applied).toBe(true);
    expect(seen).toEqual([1]);
    journal.close();
  });
});

describe('the live page chart', () => {
  it('gives the closed bars of a strategy with bars, none for one without', async () => {
    const withBars = defineStrategy({ name: 'bars', bars: { '1s': 5 }, onBar: () => [] });
    const without = defineStrategy({ name: 'plain', onSnapshot: () => [] });
    const hosts = [withBars, without].map(
      (strategy) =>
        new StrategyHost({
          strategy,
          name: strategy.name,
          params: {},
          symbols: ['ETH-USD'],
          now: () => 0,
          log: silentLogger,
          store: { get: () => undefined, set: () => undefined },
          positionOf: () => 0n,
          openOrders: () => [],
        }),
    );
    const session = new TradingSession({
      hosts,
      executor: {
        submitAll: () => Promise.resolve([]),
        refreshOpenOrders: () => Promise.resolve(),
      },
      log: silentLogger,
    });
    const market = testMarket();
    // One snapshot a second: each one closes the 1s bar before it.
    for (let seq = 1; seq <= 4; seq++)
      await session.onSnapshot(snapshotOf(seq, [market], [quoteAt(market.id, '99', '101')]));
    const bars = session.strategyBars();
    expect(Object.keys(bars)).toEqual(['bars']);
    expect(bars['bars']?.map((bar) => [bar.timeframe, bar.close])).toEqual([
      ['1s', '100'],
      ['1s', '100'],
      ['1s', '100'],
    ]);
  });
});

/**
 * Soak: does a long run take more memory the longer it runs? Drives BENCH_POLLS (default
 * 1,000,000) polls through the bot's own loop (runtime/: venue poller → trading loop → session →
 * strategy hosts → executor → status line, built from the same parts `startBot` composes) on a
 * virtual clock, with a stub read transport in place of HTTP and two strategies: one that TRADES
 * (a MARKET order every BENCH_SOAK_TRADE_EVERY polls, default 100, buying when flat and selling
 * back when long: 10,000 orders, fills and position changes over the default run), one that
 * answers nothing through a promise (so every poll also arms and clears a deadline timer). Each
 * order is signed by the live signer (`orderSigningKey`, real ECDSA), journaled in an
 * `OrderJournal` on disk (WAL, an fsync before each order leaves, as live) and answered FILLED at
 * the book's mid by a venue stub that keeps nothing (so the heap measured is the bot's, not a
 * venue's). Prints the heap after GC as the run goes and reports its growth from the end of the
 * warm-up to the end as the figure (goal at most 16 MB; a miss is printed, not a failure).
 *
 * For scale, (a) runs BENCH_BASELINE_POLLS (default 50,000) polls of the same loop with the
 * wiring the bot had before: every read under `AbortSignal.any([runSignal,
 * AbortSignal.timeout(5000)])`. Each read's combined signal then stays reachable until its
 * five-second timer fires; on a virtual clock, polls run far faster than that, so the heap at
 * the end of the run holds every signal of the last five real seconds (the "200,000 retained
 * signals" of issue 11). Printed too: what is left once those timers fired.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Writable } from 'node:stream';
import { parseConfig } from '../../src/config/index.ts';
import type { Market, Quote } from '../../src/domain/index.ts';
import { OrderJournal } from '../../src/execution/journal.ts';
import { createLogger } from '../../src/log/logger.ts';
import { StatusLine } from '../../src/runtime/status-line.ts';
import { TradingLoop } from '../../src/runtime/trading-loop.ts';
import { buildTradingStack } from '../../src/stack/trading-stack.ts';
import { createVenuePoller, type ReadTransport } from '../../src/runtime/venue-poller.ts';
import { DEFAULT_SIM_MARKETS, SimEngine } from '../../src/sim/index.ts';
import { defineStrategy } from '../../src/strategy/define-strategy.ts';
import type { PreparedStrategy } from '../../src/strategy/prepare-strategies.ts';
import { markPriceX18 } from '../../src/market/mark-price.ts';
import { parseDecimalToX18 } from '../../src/money/index.ts';
import { parseOrderRequestBody } from '../../src/venue/schemas/index.ts';
import { orderSigningKey } from '../../src/venue/signing/index.ts';
import { DEFAULT_SIGNING_DOMAIN, type VenueOrder } from '../../src/venue/types.ts';
import { reportFigure } from './figures.ts';

const POLLS = Number(process.env.BENCH_POLLS ?? 1_000_000);
const BASELINE_POLLS = Number(process.env.BENCH_BASELINE_POLLS ?? 50_000);
const TRADE_EVERY = Number(process.env.BENCH_SOAK_TRADE_EVERY ?? 100);
const SIGNING_KEY = `0x${'5a'.repeat(32)}`;
const SUBACCOUNT = '0_0x0000000000000000000000000000000000000001_1';
const WARMUP = Math.min(20_000, Math.floor(POLLS / 10));
const SAMPLES = 10;
const GOAL_BYTES = 16 * 1024 * 1024;
const T0 = 1_790_000_000_000;
const MB = 1024 * 1024;

/** `gc` from --expose-gc (the bench runner passes it), else switched on here. */
const gc = ((): (() => void) => {
  const exposed = globalThis.gc;
  if (exposed !== undefined) return () => void exposed();
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * Answers every read with fresh copies of one market list and one set of quotes, as a parsed
 * HTTP answer would be, and treats the caller's signal as `venueRequest` does: listens while
 * the read is under way, stops listening when it is answered.
 */
function stubTransport(markets: readonly Market[], quotes: readonly Quote[]): ReadTransport {
  const underSignal = async <T>(signal: AbortSignal, answer: () => T): Promise<T> => {
    const onAbort = (): void => undefined;
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await Promise.resolve();
      if (signal.aborted) throw new Error('aborted');
      return answer();
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  };
  return {
    listMarkets: (signal) => underSignal(signal, () => markets.map((market) => ({ ...market }))),
    getQuotes: (signal) =>
      underSignal(signal, () =>
        quotes.map((quote) => ({
          ...quote,
          bids: quote.bids.map((level) => ({ ...level })),
          asks: quote.asks.map((level) => ({ ...level })),
        })),
      ),
  };
}

/** The old wiring: every read under a fresh `AbortSignal.any` of the run signal and a timeout. */
function anyPerPoll(transport: ReadTransport, timeoutMs: number): ReadTransport {
  return {
    listMarkets: (signal) =>
      transport.listMarkets(AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])),
    getQuotes: (signal) =>
      transport.getQuotes(AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])),
  };
}

/** Every TRADE_EVERY-th snapshot: buys 0.01 when flat, sells it back when long. */
const trader = defineStrategy({
  name: 'trader',
  init: () => ({ seen: 0 }),
  onSnapshot(snapshot, ctx) {
    ctx.state.seen += 1;
    const marketId = ctx.marketIds[0];
    if (ctx.state.seen % TRADE_EVERY !== 0 || marketId === undefined) return [];
    const flat = ctx.position(marketId) === '0';
    return [{ marketId, side: flat ? 'BUY' : 'SELL', type: 'MARKET', amount: '0.01' }];
  },
});

const STRATEGIES: PreparedStrategy[] = [
  trader,
  defineStrategy({ name: 'idle-async', onSnapshot: () => Promise.resolve([]) }),
].map((strategy, index) => ({
  index,
  name: strategy.name,
  strategy,
  params: {},
  symbols: ['ETH-USD'],
  timeoutMs: 500,
}));

interface SoakResult {
  readonly polls: number;
  readonly snapshots: number;
  readonly seconds: number;
  /** [polls so far, heap after GC] from the end of the warm-up to the end of the run. */
  readonly heap: [number, number][];
  /** Heap after GC once `settleMs` more passed (timers started by the run fired). */
  readonly settled: number | undefined;
  /** Orders FILLED in the journal at the end. */
  readonly orders: number;
}

async function soak(
  polls: number,
  wrap: (transport: ReadTransport) => ReadTransport,
  settleMs = 0,
): Promise<SoakResult> {
  const config = parseConfig(
    'venue: { writeUrl: "http://127.0.0.1:9", readUrl: "http://127.0.0.1:9" }\n',
    'soak.yaml',
    process.cwd(),
  );
  let now = T0;
  const clock = (): number => now;
  const engine = new SimEngine({ clock, markets: DEFAULT_SIM_MARKETS });
  const transport = wrap(stubTransport(engine.listMarkets(), engine.quotes()));
  // Status lines are formatted and written (to nowhere), as a bot's are.
  const log = createLogger({
    level: 'info',
    destination: new Writable({ write: (_chunk, _encoding, done) => done() }),
  });
  const journalDir = mkdtempSync(join(tmpdir(), 'quanta-soak-'));
  const journal = OrderJournal.open(join(journalDir, 'journal.sqlite'));
  const virtualSleep = (ms: number): Promise<void> => {
    now += ms;
    return Promise.resolve();
  };
  const key = orderSigningKey(SIGNING_KEY);
  const book = new Map(engine.quotes().map((quote) => [quote.marketId, quote]));
  const symbols = new Map(engine.listMarkets().map((market) => [market.id, market.symbol]));
  let orders = 0;
  const { dispatcher, executor, session } = await buildTradingStack({
    config,
    strategies: STRATEGIES,
    journal,
    // A venue that keeps nothing: every order FILLED at once at its market's mid.
    venue: {
      listMarkets: () => Promise.resolve([]),
      getQuotes: () => Promise.resolve(undefined),
      getOrder: () => Promise.resolve(undefined),
      register: () => Promise.reject(new Error('soak venue: the bench registers no key')),
      createOrder(request) {
        const body = parseOrderRequestBody(JSON.parse(request.body));
        const at = new Date(now).toISOString();
        orders += 1;
        const answer: VenueOrder = {
          id: orders,
          brokerId: 1,
          subaccountId: SUBACCOUNT,
          marketSymbol: symbols.get(body.marketId) ?? '?',
          marketType: 'PERPETUAL',
          side: body.isBuy ? 'BUY' : 'SELL',
          type: body.orderType,
          status: 'FILLED',
          amountX18: parseDecimalToX18(body.amount),
          priceX18: parseDecimalToX18(body.price),
          totalFilledX18: parseDecimalToX18(body.amount),
          avgFillPriceX18: markPriceX18(book.get(body.marketId)) ?? 0n,
          expiryTs: body.expiryTs,
          createdAt: at,
          updatedAt: at,
        };
        return Promise.resolve(answer);
      },
    },
    // The live signer: real ECDSA over the order's EIP-712 digest.
    signer: {
      sign: (body) =>
        Promise.resolve({
          signature: key.signOrderBody(SUBACCOUNT, body, DEFAULT_SIGNING_DOMAIN),
          signer: key.address,
        }),
    },
    rate: { requests: 10, perMs: 1000, concurrency: 2, maxAttempts: 1 },
    killSwitchOn: () => false,
    capitalX18: 100_000n * 10n ** 18n, // the venue's starting balance: the bot knows its account
    now: clock,
    sleep: virtualSleep,
    log,
  });
  const controller = new AbortController();
  const heap: [number, number][] = [];
  const sampleEvery = Math.max(1, Math.floor((polls - WARMUP) / SAMPLES));
  let done = 0;
  const poller = createVenuePoller({
    transport,
    poll: config.poll,
    now: clock,
    // The poller's wait between polls: where the virtual clock moves and the run is measured.
    sleep: async (ms, signal) => {
      done += 1;
      if (done === polls) controller.abort();
      else if (done >= WARMUP && (done - WARMUP) % sampleEvery === 0)
        heap.push([done, heapAfterGc()]);
      await virtualSleep(ms);
      if (signal.aborted) throw new Error('aborted');
    },
    log,
  });
  const status = new StatusLine({ now: clock, log, executor, poller, dispatcher, session });
  const loop = new TradingLoop({
    poller,
    session,
    afterTrading: (snapshot, snapshots) => status.maybeLog(snapshot, snapshots),
  });
  const started = performance.now();
  await loop.run(controller.signal);
  const seconds = (performance.now() - started) / 1000;
  heap.push([done, heapAfterGc()]);
  await session.stop();
  await dispatcher.drain(1000);
  const filled = journal.inStates(['FILLED']).length;
  journal.close();
  rmSync(journalDir, { recursive: true, force: true });
  const expected = Math.floor(polls / TRADE_EVERY);
  if (TRADE_EVERY > 0 && (filled < expected - 1 || filled !== orders))
    throw new Error(
      `expected about ${expected} FILLED orders in the journal, found ${filled} (${orders} sent)`,
    );
  let settled: number | undefined;
  if (settleMs > 0) {
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    settled = heapAfterGc();
  }
  if (loop.snapshots !== polls)
    throw new Error(`expected ${polls} snapshots, the loop saw ${loop.snapshots}`);
  return { polls, snapshots: loop.snapshots, seconds, heap, settled, orders: filled };
}

function growth(result: SoakResult): { bytes: number; polls: number } {
  const [first, last] = [result.heap[0], result.heap[result.heap.length - 1]];
  if (first === undefined || last === undefined) throw new Error('no heap samples');
  return { bytes: last[1] - first[1], polls: last[0] - first[0] };
}

const fmt = (n: number): string => n.toLocaleString('en-US');
const mb = (bytes: number): string => `${(bytes / MB).toFixed(2)} MB`;

const ours = await soak(POLLS, (transport) => transport);
console.log(
  `${fmt(POLLS)} polls on a virtual clock, stub transport, a strategy trading every ` +
    `${fmt(TRADE_EVERY)} polls (${fmt(ours.orders)} orders FILLED, journaled on disk) and an idle ` +
    `async one: ${fmt(Math.round(POLLS / ours.seconds))} polls/s, ${ours.seconds.toFixed(0)} s`,
);
console.log('  polls        heap after GC');
for (const [polls, bytes] of ours.heap) console.log(`  ${fmt(polls).padStart(9)}    ${mb(bytes)}`);
const oursGrowth = growth(ours);
console.log(
  `(b) ours: heap growth after GC ${mb(oursGrowth.bytes)} over ${fmt(oursGrowth.polls)} polls ` +
    `(${(oursGrowth.bytes / oursGrowth.polls).toFixed(2)} B/poll)`,
);
reportFigure({
  name: `live loop heap growth over ${fmt(POLLS)} polls, trading strategy, disk journal`,
  measures:
    `heap after GC at the end of ${fmt(POLLS)} polls of the bot's loop (poller, trading loop, session, ` +
    `strategy hosts, executor, status line; virtual clock, stub read transport) with a strategy ` +
    `placing a MARKET order every ${fmt(TRADE_EVERY)} polls (${fmt(ours.orders)} orders: live ECDSA ` +
    `signer, OrderJournal on disk with an fsync per order, FILLED by a venue stub that keeps ` +
    `nothing, fills and positions booked) beside an idle async strategy; ${ours.seconds.toFixed(0)} s`,
  baseline: `heap after GC at the end of the first ${fmt(WARMUP)} polls (the warm-up) of the same run`,
  goal: { atMost: GOAL_BYTES / MB },
  unit: 'MB',
  rounds: [oursGrowth.bytes / MB],
});

if (BASELINE_POLLS > 0) {
  const TIMEOUT_MS = 5000; // venue.timeoutMs's default
  const old = await soak(BASELINE_POLLS, (t) => anyPerPoll(t, TIMEOUT_MS), TIMEOUT_MS + 500);
  const oldGrowth = growth(old);
  const start = old.heap[0]?.[1] ?? 0;
  const perPoll = (g: { bytes: number; polls: number }): number => g.bytes / g.polls;
  console.log(
    `(a) old wiring, AbortSignal.any per read, ${fmt(BASELINE_POLLS)} polls at ` +
      `${fmt(Math.round(BASELINE_POLLS / old.seconds))} polls/s: heap growth after GC ` +
      `${mb(oldGrowth.bytes)} over ${fmt(oldGrowth.polls)} polls ` +
      `(${perPoll(oldGrowth).toFixed(0)} B/poll against ${perPoll(oursGrowth).toFixed(2)} for (b)); ` +
      `${mb((old.settled ?? start) - start)} once its ${TIMEOUT_MS} ms timers fired`,
  );
}

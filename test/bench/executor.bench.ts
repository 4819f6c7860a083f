/**
 * The live order path against honest baselines, measured in one run (issue 17, items 2, 3, 7).
 *
 * A paper venue runs in this process on port 0 (HTTP on loopback, signatures verified, orders
 * filled by the simulation). Every round runs (a), (b) and (c) in turns of 25 orders (so a burst
 * of load on the machine lands on all three alike), then (d):
 *   (a) bare loop: what a minimal client does per order: sign the body with the same signer the
 *       executor uses (`orderSigningKey(…).signOrderBody`, our EIP-712 encoder), `fetch` the
 *       order with the credential headers, parse the answer; so (b)/(a) and (c)/(a) are the
 *       executor's overhead, not a difference between signers;
 *   (b) the executor end to end over HTTP, as the bot wires it (buildTradingStack: sizing,
 *       checks, the live signer, journal in memory, dispatcher with the rate budget, createOrder,
 *       the answer booked), one intent per snapshot, each answered before the next;
 *   (c) the same with the journal on disk (WAL, an fsync before each order leaves, as live);
 *   (d) signing: raw secp256k1 (@noble/curves) of precomputed digests against the live signer
 *       (`orderSigningKey(…).signOrderBody`: digest and signature of a body), in alternating
 *       chunks.
 * Logs go through pino at info level to /dev/null, as a bot's go to its stdout.
 * Fsyncs are counted by strace (when installed) around a run of (c) in a child process.
 *
 * Figures (median of the rounds; see figures.ts):
 *   - live signing / raw secp256k1 (throughput ratio, goal >= 0.9);
 *   - executor (disk journal) / bare loop (orders/s ratio, goal >= 0.8);
 *   - order-path overhead over bare fetch p50, in-memory journal: the p50 of (b)'s time per order
 *     (submit to answer booked) minus its signing, less the p50 of (a)'s fetch (ms, goal <= 0.5);
 *   - fsyncs per order (disk journal) (goal <= 1).
 *
 *   BENCH_ORDERS (per case and round, default 300), BENCH_ROUNDS (default 5).
 */
import { secp256k1 } from '@noble/curves/secp256k1';
import { spawnSync } from 'node:child_process';
import {
  accessSync,
  closeSync,
  fsyncSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { keccak256, toHex } from 'viem';
import { parseConfig } from '../../src/config/index.ts';
import { OrderJournal } from '../../src/execution/journal.ts';
import { createLogger, type Logger } from '../../src/log/logger.ts';
import { createSnapshot } from '../../src/market/snapshot.ts';
import { startPaperVenue, type PaperVenue } from '../../src/paper/index.ts';
import { buildTradingStack } from '../../src/stack/trading-stack.ts';
import { createOrder, register, type OrderCredentials } from '../../src/venue/endpoints/index.ts';
import { httpVenueReads, httpVenueRegistrar } from '../../src/venue/http-venue-client.ts';
import { orderDigest, orderSigningKey, signRegistration } from '../../src/venue/signing/index.ts';
import { DEFAULT_SIGNING_DOMAIN, type OrderRequestBody } from '../../src/venue/types.ts';
import { reportFigure } from './figures.ts';

const N = Number(process.env.BENCH_ORDERS ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CHUNK = 25;
const SIGN_CHUNK = 50;
const SIGN_CHUNKS = 10;
/** CPU work before each spaced fsync sample: about one order's time apart, as the journal's commits are. */
const SPACED_WORK_MS = 5;
const WALLET_KEY = keccak256(toHex('quanta bench wallet'));
const SIGNING_KEY = keccak256(toHex('quanta bench signing key'));
const DOMAIN = DEFAULT_SIGNING_DOMAIN;
const FSYNC_MARK = '/nonexistent-quanta-bench-mark';

interface Session {
  readonly venue: PaperVenue;
  readonly subaccountId: string;
  readonly credentials: OrderCredentials;
  readonly log: Logger;
}

async function startSession(): Promise<Session> {
  const venue = await startPaperVenue({ port: 0, seed: 17 });
  const connection = { baseUrl: venue.url, timeoutMs: 5000 };
  const request = await signRegistration({
    walletPrivateKey: WALLET_KEY,
    signingPrivateKey: SIGNING_KEY,
    brokerId: 1,
    subaccountIndex: 1,
    expiryTs: Date.now() + 3_600_000,
    nonce: 0,
    chainId: 42161,
    domain: DOMAIN,
  });
  const { serviceKey, serviceSecret } = await register(connection, 1, request);
  // A bot's logger: pino at info, every line formatted and written synchronously as a bot writes
  // its stdout (createLogger), here to /dev/null.
  const log = createLogger({
    level: 'info',
    destination: pino.destination({ dest: '/dev/null', sync: true }),
  });
  return {
    venue,
    subaccountId: request.subaccountId,
    credentials: {
      brokerId: 1,
      serviceKey,
      serviceSecret,
      signerAddress: request.signingKey,
      headerPrefix: 'Service-',
    },
    log,
  };
}

/** A unique expiry per order (as the executor makes them), so every signature differs. */
let lastExpiry = 0;
function nextExpiry(): number {
  lastExpiry = Math.max(Date.now() + 60_000, lastExpiry + 1);
  return lastExpiry;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface LoopResult {
  readonly ms: number;
  /** Per order: ms from start to answer, less signing (the bare fetch, for (a)). */
  readonly unsignedMs: number[];
}

/** Connection resets of the bare loop, sent again once (printed at the end). */
let bareResets = 0;

function isConnectionReset(error: unknown): boolean {
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return cause?.code === 'ECONNRESET' || cause?.code === 'EPIPE';
}

/** (a) A bare client: the executor's own signer, fetch, parse. */
async function bareLoop(session: Session, orders = N): Promise<LoopResult> {
  const key = orderSigningKey(SIGNING_KEY);
  const headers = {
    'content-type': 'application/json',
    'Broker-Id': '1',
    'Service-Key': session.credentials.serviceKey,
    'Service-Secret': session.credentials.serviceSecret,
    'Service-Signer-Address': key.address,
  };
  const fetchMs: number[] = [];
  const started = performance.now();
  for (let i = 0; i < orders; i++) {
    const body: OrderRequestBody = {
      marketId: 1,
      isBuy: i % 2 === 0,
      orderType: 'MARKET',
      amount: '0.01',
      price: '0',
      expiryTs: nextExpiry(),
      isReduce: false,
    };
    // The same signer as the executor's (credentialOrderSigner signs with it).
    const signature = key.signOrderBody(session.subaccountId, body, DOMAIN);
    const sent = performance.now();
    const post = (): Promise<Response> =>
      fetch(`${session.venue.url}/api/v1/order`, {
        method: 'POST',
        headers: { ...headers, 'Service-Signature': signature },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(5000),
      });
    // A kept-alive connection the venue closed while this client was idle (its keep-alive
    // timeout, reached when the machine is slow) is reset on reuse: the request never arrived.
    // Sent again once, as the executor's dispatcher retries a failed attempt; counted.
    const response = await post().catch((error: unknown) => {
      if (!isConnectionReset(error)) throw error;
      bareResets += 1;
      return post();
    });
    const answer = (await response.json()) as { status: number; body: { status: string } };
    fetchMs.push(performance.now() - sent);
    if (answer.status !== 200 || answer.body.status !== 'FILLED')
      throw new Error(`bare loop: order ${i} not filled: ${JSON.stringify(answer)}`);
  }
  return { ms: performance.now() - started, unsignedMs: fetchMs };
}

/** Executor stacks made so far (see `executorStack`'s validity). */
let stacksMade = 0;

/** (b)/(c) The executor over HTTP, wired as the bot wires it; `run` sends `orders` orders. */
async function executorStack(
  session: Session,
  journalPath: string,
  mark?: (what: string) => void,
): Promise<{
  run: (orders: number) => Promise<LoopResult>;
  close: () => Promise<void>;
  commitMs: number[];
}> {
  const journal = OrderJournal.open(journalPath);
  // The journal's write before each send (its one fsync with a disk journal), timed: the
  // executor inserts through insertPendingMany (insertPending calls it too).
  const commitMs: number[] = [];
  const insertPendingMany = journal.insertPendingMany.bind(journal);
  journal.insertPendingMany = (orders, now) => {
    const t = performance.now();
    const records = insertPendingMany(orders, now);
    commitMs.push(performance.now() - t);
    return records;
  };
  // Every sender here signs with the one key, and a body (so its signature) has no nonce: two
  // senders' orders of the same side and amount with the same expiry are one signature, and the
  // venue's replay guard refuses the second (409). Each stack's factory keeps its own expiries
  // strictly increasing, but a burst faster than one order a millisecond runs them ahead of the
  // clock, into the next sender's range. Each stack gets validity an hour apart from the others
  // and from the bare loop's 60 s, so no two senders' expiries can meet.
  stacksMade += 1;
  const config = parseConfig(
    `venue: { writeUrl: "${session.venue.url}", readUrl: "${session.venue.url}" }\n` +
      'risk: { maxOrderNotional: "1000000", maxPositionNotional: "100000000" }\n' +
      `execution: { orderTtlMs: ${60_000 + stacksMade * 3_600_000} }\n`,
    'bench.yaml',
    process.cwd(),
  );
  const key = orderSigningKey(SIGNING_KEY);
  const connection = { baseUrl: session.venue.url, timeoutMs: 5000 };
  let signMs = 0;
  const { executor, dispatcher } = await buildTradingStack({
    config,
    strategies: [],
    journal,
    // What httpVenueClient's createOrder does once it found the signer's credentials.
    venue: {
      ...httpVenueReads(connection),
      ...httpVenueRegistrar(connection),
      getOrder: () => Promise.resolve(undefined),
      createOrder: (request, signal) => {
        mark?.('send');
        return createOrder(
          connection,
          session.credentials,
          { body: request.body, signature: request.signature },
          { signal },
        );
      },
    },
    // What credentialOrderSigner does with the current credential.
    signer: {
      sign(body) {
        const t = performance.now();
        const signature = key.signOrderBody(session.subaccountId, body, DOMAIN);
        signMs = performance.now() - t;
        return Promise.resolve({ signature, signer: key.address });
      },
    },
    // A rate budget that never makes an order wait: this measures the path, not the limit.
    rate: { requests: 100_000, perMs: 1000, concurrency: 2, maxAttempts: 3 },
    killSwitchOn: () => false,
    capitalX18: 100_000n * 10n ** 18n, // the venue's starting balance: the bot knows its account
    now: Date.now,
    sleep: (ms, signal) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new Error('aborted'));
        });
      }),
    log: session.log,
  });
  const engine = session.venue.engine;
  let seq = 0;
  let sent = 0;
  const run = async (orders: number): Promise<LoopResult> => {
    const unsignedMs: number[] = [];
    let total = 0;
    for (let i = 0; i < orders; i++) {
      // The snapshot is the poller's work, not the order path's.
      seq += 1;
      const snapshot = createSnapshot({
        seq,
        takenAt: Date.now(),
        markets: engine.listMarkets(),
        quotes: engine.quotes(),
      });
      const started = performance.now();
      const outcome = await executor.submit(
        'bench',
        { marketId: 1, side: seq % 2 === 0 ? 'BUY' : 'SELL', type: 'MARKET', amount: '0.01' },
        snapshot,
      );
      await executor.settle();
      const ms = performance.now() - started;
      total += ms;
      unsignedMs.push(ms - signMs);
      if (outcome.kind !== 'sent') throw new Error(`executor: order ${seq} refused`);
      sent += 1;
    }
    return { ms: total, unsignedMs };
  };
  const close = async (): Promise<void> => {
    const filled = journal.inStates(['FILLED']).length;
    await dispatcher.drain(1000);
    journal.close();
    if (filled !== sent) throw new Error(`executor: expected ${sent} FILLED orders, got ${filled}`);
  };
  return { run, close, commitMs };
}

/**
 * The machine's fsync as it is right now: p50 of `fsync` after a 4 KB write, in ms, taken two
 * ways. Back to back, one sync right after the other: the cheapest this disk gets. Spaced, each
 * sync after `SPACED_WORK_MS` of CPU work, as the disk journal's commits are (an order's signing,
 * HTTP and booking lie between two of them): on this VM a sync that follows a few milliseconds
 * of other work costs about twice a back-to-back one, and that, not the back-to-back figure, is
 * what the journal's commit should be held against.
 */
function fsyncP50(path: string, samples = 20): { backToBack: number; spaced: number } {
  const fd = openSync(path, 'w');
  const page = Buffer.alloc(4096, 1);
  const backToBack: number[] = [];
  const spaced: number[] = [];
  const sync = (into: number[]): void => {
    writeSync(fd, page, 0, page.length, 0);
    const t = performance.now();
    fsyncSync(fd);
    into.push(performance.now() - t);
  };
  try {
    for (let i = 0; i < samples; i++) sync(backToBack);
    for (let i = 0; i < samples; i++) {
      const until = performance.now() + SPACED_WORK_MS;
      while (performance.now() < until) {
        // Busy, not asleep: the client is working between two orders, not idle.
      }
      sync(spaced);
    }
  } finally {
    closeSync(fd);
  }
  return { backToBack: median(backToBack), spaced: median(spaced) };
}

/** (d) Live signer against raw secp256k1 of the same digests, chunk by chunk. */
function signingRound(subaccountId: string): number {
  const key = orderSigningKey(SIGNING_KEY);
  const scalar = BigInt(SIGNING_KEY);
  const bodies: OrderRequestBody[] = Array.from({ length: SIGN_CHUNK }, (_, i) => ({
    marketId: 1 + (i % 3),
    isBuy: i % 2 === 0,
    orderType: i % 4 === 0 ? 'MARKET' : 'LIMIT',
    amount: `0.0${String(100 + i)}`,
    price: i % 4 === 0 ? '0' : `3000.${String(i)}`,
    expiryTs: 1_790_000_000_000 + i,
    isReduce: false,
  }));
  let raw = 0;
  let ours = 0;
  for (let chunk = 0; chunk < SIGN_CHUNKS; chunk++) {
    const digests = bodies.map((body) => orderDigest(subaccountId, body, key.address, DOMAIN));
    let t = performance.now();
    for (const digest of digests)
      secp256k1.sign(digest, scalar, { lowS: true, extraEntropy: false });
    raw += performance.now() - t;
    t = performance.now();
    for (const body of bodies) key.signOrderBody(subaccountId, body, DOMAIN);
    ours += performance.now() - t;
  }
  return raw / ours;
}

/** Fsyncs per order of (c), counted by strace in a child process; undefined without strace. */
function fsyncsPerOrder(orders: number): number | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'quanta-bench-fsync-'));
  try {
    const trace = join(dir, 'trace');
    const run = spawnSync(
      'strace',
      [
        '-f',
        '-qq',
        '--seccomp-bpf',
        '-e',
        'trace=fsync,fdatasync,access,faccessat,faccessat2',
        '-o',
        trace,
        process.execPath,
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
        '--fsync-child',
        join(dir, 'journal.sqlite'),
        String(orders),
      ],
      { encoding: 'utf8', env: { ...process.env, QUANTA_BENCH_FIGURES: '' } },
    );
    if (run.error !== undefined) return undefined;
    if (run.status !== 0) throw new Error(`fsync child failed:\n${run.stderr}`);
    let inside = false;
    let fsyncs = 0;
    let sends = 0;
    for (const line of readFileSync(trace, 'utf8').split('\n')) {
      if (line.includes(`${FSYNC_MARK}/start`)) inside = true;
      else if (line.includes(`${FSYNC_MARK}/end`)) break;
      else if (inside && line.includes(`${FSYNC_MARK}/send`)) sends += 1;
      else if (inside && /^\d+\s+f(?:data)?sync\(/.test(line)) fsyncs += 1;
    }
    if (sends !== orders) throw new Error(`fsync child: ${sends} sends traced, ${orders} orders`);
    return fsyncs / orders;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function mark(what: string): void {
  try {
    accessSync(`${FSYNC_MARK}/${what}`);
  } catch {
    // The failed access is the mark in the trace.
  }
}

async function fsyncChild(journalPath: string, orders: number): Promise<void> {
  const session = await startSession();
  try {
    // Warm-up: the risk engine writes its day baseline once (a key-value write of its own).
    const warm = await executorStack(session, `${journalPath}.warm`);
    await warm.run(5);
    await warm.close();
    const stack = await executorStack(session, journalPath, mark);
    // One order before counting: a fresh journal's first order also writes the risk engine's day
    // baseline (once a day per journal, not per order). The figure is the steady state.
    await stack.run(1);
    mark('start');
    await stack.run(orders);
    mark('end');
    await stack.close();
  } finally {
    await session.venue.close();
  }
}

async function main(): Promise<void> {
  const session = await startSession();
  const dir = mkdtempSync(join(tmpdir(), 'quanta-bench-'));
  const rounds = { signing: [] as number[], disk: [] as number[], overhead: [] as number[] };
  const chunks = Math.max(1, Math.ceil(N / CHUNK));
  try {
    // Warm-up: JIT, connection pool, key preparation.
    await bareLoop(session, 50);
    const warm = await executorStack(session, ':memory:');
    await warm.run(50);
    await warm.close();
    console.log(
      `${chunks * CHUNK} orders per case and round, ${ROUNDS} rounds; a, b and c alternate every ${CHUNK} orders, then d\n` +
        '  (a) bare: our signer (signOrderBody), fetch, response.json() against the in-process paper venue\n' +
        '  (b) exec-mem: buildTradingStack executor, the same signer, in-memory journal, same venue\n' +
        '  (c) exec-disk: the same with the journal on disk (an fsync before each send)\n' +
        '  (d) signing: signOrderBody against raw secp256k1.sign of the same digests',
    );
    console.log(
      'round  bare/s  exec-mem/s  exec-disk/s  bare fetch p50  exec-mem p50 - sign  disk commit p50  fsync p50 b2b / spaced',
    );
    for (let round = 0; round < ROUNDS; round++) {
      const memory = await executorStack(session, ':memory:');
      const disk = await executorStack(session, join(dir, `journal-${round}.sqlite`));
      const totals = { bare: 0, memory: 0, disk: 0 };
      const fetchMs: number[] = [];
      const memoryMs: number[] = [];
      // Paired finely: a burst of load on the machine lands on all three cases alike.
      for (let chunk = 0; chunk < chunks; chunk++) {
        const bare = await bareLoop(session, CHUNK);
        const inMemory = await memory.run(CHUNK);
        const onDisk = await disk.run(CHUNK);
        totals.bare += bare.ms;
        totals.memory += inMemory.ms;
        totals.disk += onDisk.ms;
        fetchMs.push(...bare.unsignedMs);
        memoryMs.push(...inMemory.unsignedMs);
      }
      await memory.close();
      await disk.close();
      const signing = signingRound(session.subaccountId);
      // What one fsync costs on this disk now: the floor of (c) over (b), per order.
      const fsync = fsyncP50(join(dir, 'fsync-probe'));
      const fetchP50 = median(fetchMs);
      const memoryP50 = median(memoryMs);
      rounds.signing.push(signing);
      rounds.disk.push(totals.bare / totals.disk);
      rounds.overhead.push(memoryP50 - fetchP50);
      const rate = (ms: number): string => String(Math.round(((chunks * CHUNK) / ms) * 1000));
      console.log(
        `${String(round + 1).padStart(5)}  ${rate(totals.bare).padStart(6)}  ${rate(totals.memory).padStart(10)}  ${rate(totals.disk).padStart(11)}  ${fetchP50.toFixed(2).padStart(11)} ms  ${memoryP50.toFixed(2).padStart(14)} ms  ${median(disk.commitMs).toFixed(2).padStart(12)} ms  ${fsync.backToBack.toFixed(2)} / ${fsync.spaced.toFixed(2)} ms`,
      );
    }
  } finally {
    await session.venue.close();
    rmSync(dir, { recursive: true, force: true });
  }
  if (bareResets > 0)
    console.log(`bare loop: ${bareResets} reset connection(s), each order sent again once`);
  reportFigure({
    name: 'live signing / raw secp256k1',
    measures: `orderSigningKey(…).signOrderBody (struct, digest and signature of an order body), ${SIGN_CHUNK * SIGN_CHUNKS} bodies a round, orders/s`,
    baseline:
      "secp256k1.sign of @noble/curves on the same bodies' precomputed digests, in alternating chunks of 50",
    goal: { atLeast: 0.9 },
    unit: 'x',
    rounds: rounds.signing,
  });
  reportFigure({
    name: 'executor (disk journal) / bare loop',
    measures: `one MARKET intent per snapshot through the stack the bot builds (buildTradingStack: sizing, checks, our signer, journal on disk with an fsync before each send, dispatcher, createOrder over HTTP to an in-process paper venue, the answer booked), ${N} orders a round, orders/s`,
    baseline:
      'a bare client sending the same orders to the same venue: the same signer (orderSigningKey(…).signOrderBody), fetch with the credential headers, response.json(); alternating with the executor every 25 orders',
    goal: { atLeast: 0.8 },
    unit: 'x',
    rounds: rounds.disk,
  });
  reportFigure({
    name: 'order-path overhead over bare fetch p50, in-memory journal',
    measures:
      "p50 of the executor's time per order (in-memory journal, submit to answer booked) less its signing time",
    baseline:
      "p50 of the bare client's fetch + response.json() per order (signing not counted), same rounds",
    goal: { atMost: 0.5 },
    unit: 'ms',
    rounds: rounds.overhead,
  });
  const fsyncs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const perOrder = fsyncsPerOrder(Math.min(N, 200));
    if (perOrder === undefined) break;
    fsyncs.push(perOrder);
  }
  if (fsyncs.length === 0)
    console.log('  fsyncs per order: not measured (strace is not installed)');
  else
    reportFigure({
      name: 'fsyncs per order (disk journal)',
      measures: `fsync/fdatasync calls counted by strace in a child process sending ${Math.min(N, 200)} orders through the executor with its journal on disk, after a warm-up order, per order`,
      baseline:
        'none (an absolute count; the goal is the one fsync of the row written before the order leaves)',
      goal: { atMost: 1 },
      unit: '',
      rounds: fsyncs,
    });
}

if (process.argv[2] === '--fsync-child') {
  await fsyncChild(process.argv[3] ?? '', Number(process.argv[4] ?? N));
} else {
  await main();
}

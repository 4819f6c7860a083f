/**
 * Helpers of the end-to-end runtime tests: bot configs written as YAML into a temp dir and
 * loaded by the real loader, bots started in-process against a paper venue on port 0, captured
 * log records, a bounded wait for conditions, the venue's view of an account, and a small
 * fault-injecting proxy in front of the venue's order endpoint.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { privateKeyToAddress, generatePrivateKey } from 'viem/accounts';
import type { Hex } from 'viem';
import { stringify } from 'yaml';
import { loadConfig, parseConfig, type Config } from '../../../src/config/index.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import type { OrderRecord } from '../../../src/execution/order-record.ts';
import type { ProducedIntent } from '../../../src/stack/trading-session.ts';
import { createLogger, type Logger } from '../../../src/log/logger.ts';
import type { Snapshot } from '../../../src/market/snapshot.ts';
import type { PaperVenue } from '../../../src/paper/index.ts';
import { startBotWithParts, type BotWithParts, type RunSummary } from '../../../src/runtime/bot.ts';
import type { BotBaseOptions, BotWaitTime } from '../../../src/runtime/bot-options.ts';
import type { SimOrder } from '../../../src/sim/index.ts';
import { parseMarketList } from '../../../src/venue/schemas/index.ts';
import type { Market } from '../../../src/domain/index.ts';
import { settle } from '../../helpers/manual-timer.ts';
import type { VirtualTime } from '../../helpers/virtual-time.ts';
import { writeProxyAnswer } from './proxy-answer.ts';

/** The repository root (package.json, strategies/, bin/). */
export const ROOT = resolve(import.meta.dirname, '../../..');

/** Absolute path of a shipped strategy (`dca`) or a test one (`fixtures/burst`). */
export function strategyModule(name: string): string {
  return name.startsWith('fixtures/')
    ? join(ROOT, 'test/fixtures/strategies', `${name.slice('fixtures/'.length)}.ts`)
    : join(ROOT, 'strategies', `${name}.ts`);
}

/** The fixture's markets: docs/conventions.md §7, DOGE-USD (expo 0), SHIB-USD (expo −2), XRP-USD (inactive). */
export const FIXTURE_MARKETS: readonly Market[] = parseMarketList(
  (
    JSON.parse(readFileSync(join(ROOT, 'test/fixtures/markets.json'), 'utf8')) as {
      body: unknown;
    }
  ).body,
);

/** A paper venue's starting balance per subaccount (its default) and the test bots' `risk.capital`. */
export const PAPER_BALANCE = '100000';

/** The environment variable the test configs name for the wallet key. */
export const WALLET_ENV = 'QUANTA_TEST_WALLET_KEY';

/** A fresh temp dir, removed by the returned function. */
export async function tempDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'quanta-runtime-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** What a test config sets; everything else takes the loader's defaults. */
export interface TestConfig {
  readonly writeUrl: string;
  readonly readUrl?: string;
  readonly strategies: readonly {
    module: string;
    name?: string;
    markets: string[];
    params?: object;
  }[];
  readonly poll?: { intervalMs?: number; quotes?: boolean };
  readonly execution?: {
    rateLimit?: { requests: number; perMs: number };
    /** Default false here: these bots poll every 100 ms, far beyond the default 10/s budget. */
    countPolls?: boolean;
    concurrency?: number;
    maxAttempts?: number;
    orderTtlMs?: number;
    drainTimeoutMs?: number;
  };
  readonly risk?: {
    maxOrderNotional?: string;
    maxPositionNotional?: string;
    /** Default {@link PAPER_BALANCE}; undefined: not written (the account is not known). */
    capital?: string | undefined;
  };
  readonly log?: { level?: string; pretty?: boolean };
}

/**
 * Writes `<dir>/bot.yaml` (state in `<dir>/state`, wallet key from {@link WALLET_ENV}) and
 * returns its path.
 */
export async function writeBotConfig(dir: string, config: TestConfig): Promise<string> {
  const document = {
    venue: { writeUrl: config.writeUrl, readUrl: config.readUrl ?? config.writeUrl },
    wallet: { privateKeyEnv: WALLET_ENV },
    state: { dir: join(dir, 'state') },
    poll: { intervalMs: 100, ...config.poll },
    // Polls every 100 ms are 20 requests/s: counted against the default budget of 10/s they
    // would be skipped half the time. Tests of the budget itself turn countPolls on.
    execution: { countPolls: false, ...config.execution },
    // The paper venue's starting balance: the bot knows its account (without risk.capital a bot
    // on a real venue refuses every order that adds exposure, MARGIN_UNKNOWN: docs/margin.md).
    risk: { capital: PAPER_BALANCE, ...config.risk },
    log: { level: 'debug', ...config.log },
    strategies: config.strategies,
  };
  const path = join(dir, 'bot.yaml');
  await writeFile(path, stringify(document), 'utf8');
  return path;
}

/** The journal path of a bot with a non-embedded venue (`state.dir` itself, see state-paths). */
export function journalPath(dir: string): string {
  return join(dir, 'state', 'journal.sqlite');
}

/** One parsed pino record. */
export type LogRecord = Record<string, unknown> & { msg?: string; level?: number };

/** Every record a logger wrote, captured through a Writable destination. */
export interface LogCapture {
  readonly log: Logger;
  readonly records: LogRecord[];
  /** Records whose message starts with `prefix`. */
  withMessage(prefix: string): LogRecord[];
}

/** A debug-level logger whose JSON lines are parsed into `records`. */
export function captureLogs(): LogCapture {
  const records: LogRecord[] = [];
  let pending = '';
  const destination = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      pending += chunk.toString();
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        records.push(JSON.parse(pending.slice(0, newline)) as LogRecord);
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
      done();
    },
  });
  return {
    log: createLogger({ level: 'debug', destination }),
    records,
    withMessage: (prefix) => records.filter((r) => r.msg?.startsWith(prefix) === true),
  };
}

/**
 * Polls `check` every `everyMs` until it returns something other than `undefined`/`false`, or
 * fails after `timeoutMs` naming `what`. Waits for a condition, never for time to pass.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15_000,
  everyMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Runs a bot on virtual time until `until` (ms): time moves to the next wake-up only once every
 * request the bot made through `proxy` is answered and something waits for time.
 */
export async function runVirtualUntil(
  time: VirtualTime,
  proxy: Pick<OrderProxy, 'inFlight'>,
  until: number,
): Promise<void> {
  const quiet = async (): Promise<boolean> => {
    for (let turn = 0; turn < 3; turn++) {
      await settle();
      if (proxy.inFlight() > 0 || time.sleepers() === 0) return false;
    }
    return true;
  };
  while (time.now() < until) {
    await waitFor('the bot to wait for time', quiet, 30_000, 1);
    time.advance();
  }
}

/**
 * The value of one sample (`name{labels}` as exposed) at a bot's `GET /metrics`, or undefined
 * when it is not exposed.
 */
export async function metricSample(
  bot: Pick<BotWithParts, 'controlUrl'>,
  sample: string,
): Promise<number | undefined> {
  const text = await (await fetch(`${bot.controlUrl ?? ''}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line === undefined ? undefined : Number(line.slice(sample.length + 1));
}

/** A bot started in-process and running until {@link RunningBot.stop}. */
export interface RunningBot {
  readonly bot: BotWithParts;
  readonly config: Config;
  readonly walletKey: Hex;
  /** The paper venue's engine account of this bot's subaccount. */
  readonly accountId: string;
  readonly snapshots: Snapshot[];
  readonly intents: ProducedIntent[];
  /** Stops polling, drains, shuts down; resolves to the summary. */
  stop(): Promise<RunSummary>;
}

/** The paper venue's account id of a wallet's subaccount (docs/conventions.md §3, lowercase address). */
export function accountIdOf(walletKey: Hex, brokerId = 1, subaccount = 1): string {
  return `${brokerId}_${privateKeyToAddress(walletKey).toLowerCase()}_${subaccount}`;
}

/**
 * Loads `configPath` and starts a bot with a fresh random wallet key, running in the background.
 * `clocks`: the bot's wall and monotonic clocks (and its sleep, on virtual time), when a test
 * steps or offsets them.
 */
export async function runBot(
  configPath: string,
  log: Logger,
  walletKey: Hex = generatePrivateKey(),
  clocks: Pick<BotBaseOptions, 'now'> & BotWaitTime = {},
): Promise<RunningBot> {
  const env = { [WALLET_ENV]: walletKey };
  const config = await loadConfig(configPath, { env });
  const snapshots: Snapshot[] = [];
  const intents: ProducedIntent[] = [];
  const bot = await startBotWithParts({
    config,
    env,
    log,
    projectRoot: ROOT,
    ...clocks,
    onSnapshot: (snapshot) => snapshots.push(snapshot),
    onIntent: (produced) => intents.push(produced),
  });
  const controller = new AbortController();
  const running = bot.run(controller.signal);
  let stopped: Promise<RunSummary> | undefined;
  return {
    bot,
    config,
    walletKey,
    accountId: accountIdOf(walletKey, config.venue.brokerId, config.venue.subaccount),
    snapshots,
    intents,
    stop: () => {
      stopped ??= (async () => {
        controller.abort();
        await running;
        return bot.shutdown();
      })();
      return stopped;
    },
  };
}

/** Reads every journal row from disk with a fresh connection (the bot's is closed by then). */
export function readJournal(path: string): OrderRecord[] {
  const journal = OrderJournal.open(path);
  try {
    return journal.all();
  } finally {
    journal.close();
  }
}

/**
 * Every order the venue holds for `accountId`. Engine ids run from 1 across accounts and each
 * order request creates at most one order, so the order requests bound the ids to look at.
 */
export function venueOrders(venue: PaperVenue, accountId: string): SimOrder[] {
  const orders: SimOrder[] = [];
  const bound = venue.requestCount('/api/v1/order');
  for (let id = 1; id <= bound; id++) {
    const order = venue.engine.getOrder(accountId, id);
    if (order !== undefined) orders.push(order);
  }
  return orders;
}

/** Signed amount of a journaled fill: positive for buys. */
export function signedFilled(record: OrderRecord): bigint {
  return record.side === 'BUY' ? record.filledX18 : -record.filledX18;
}

/** An order request the proxy saw: the bytes that matter for the replay guard. */
export interface SeenOrder {
  readonly signature: string;
  readonly body: string;
  /** The signing key's address its headers name, as sent ('' when none). */
  readonly signer: string;
}

/**
 * What the proxy does with the n-th order request (from 1):
 * - `forward`: pass it to the venue and its answer back;
 * - `fail`: answer 500 without forwarding (the venue never sees it);
 * - `lose-answer`: forward it (the venue accepts it) but answer the client 500;
 * - `hold-after-forward`: forward it, then never answer the client;
 * - `hold`: neither forward nor answer.
 */
export type ProxyAction = 'forward' | 'fail' | 'lose-answer' | 'hold-after-forward' | 'hold';

/** A fault-injecting HTTP proxy in front of a venue. */
export interface OrderProxy {
  readonly url: string;
  /** Order requests in arrival order. */
  readonly orders: SeenOrder[];
  /** The status each of `orders` was answered (undefined: not answered, or not yet). */
  readonly statuses: (number | undefined)[];
  /** Order requests held unanswered right now. */
  held(): number;
  /** Requests of any kind received and not answered yet (held ones included). */
  inFlight(): number;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'content-length',
  'keep-alive',
  'transfer-encoding',
]);

function forwardHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (HOP_BY_HOP.has(name) || value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * Starts a proxy on 127.0.0.1 port 0 that forwards every request to `target`, except that
 * `POST /api/v1/order` requests are handled per `decide(n)`.
 */
export async function startOrderProxy(
  target: string,
  decide: (n: number) => ProxyAction,
): Promise<OrderProxy> {
  const orders: SeenOrder[] = [];
  const statuses: (number | undefined)[] = [];
  let held = 0;
  let open = 0;
  const server = createServer((req, res) => {
    res.on('error', () => undefined);
    // The proxy stands for the venue, so its answers tell the venue's time, not this host's:
    // Node would date each one on the host's clock, which a bot on a virtual clock (the venue's)
    // sees drift apart from its own and refuses orders for (CLOCK_SKEW). Forwarded answers carry
    // the venue's Date; the proxy's own (injected faults) carry none.
    res.sendDate = false;
    open += 1;
    res.once('close', () => (open -= 1));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const isOrder = req.method === 'POST' && req.url === '/api/v1/order';
      let action: ProxyAction = 'forward';
      let seenAt: number | undefined;
      if (isOrder) {
        const signature = req.headers['service-signature'];
        const signerHeader = Object.keys(req.headers).find((name) =>
          name.endsWith('signer-address'),
        );
        const signer = signerHeader === undefined ? undefined : req.headers[signerHeader];
        seenAt = orders.length;
        orders.push({
          signature: typeof signature === 'string' ? signature : '',
          body: body.toString('utf8'),
          signer: typeof signer === 'string' ? signer : '',
        });
        statuses.push(undefined);
        action = decide(orders.length);
      }
      const answer = (
        status: number,
        text: string,
        type = 'application/json',
        date?: string | null,
      ): void => {
        if (seenAt !== undefined) statuses[seenAt] = status;
        writeProxyAnswer(res, status, text, type, date);
      };
      const fault = (): void =>
        answer(500, JSON.stringify({ body: null, message: 'proxy: injected fault', status: 500 }));
      if (action === 'fail') return fault();
      if (action === 'hold') {
        held += 1;
        req.socket.once('close', () => (held -= 1));
        return;
      }
      void (async () => {
        const upstream = await fetch(`${target}${req.url ?? '/'}`, {
          method: req.method ?? 'GET',
          headers: forwardHeaders(req.headers),
          ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
        });
        const text = await upstream.text();
        if (action === 'lose-answer') return fault();
        if (action === 'hold-after-forward') {
          held += 1;
          req.socket.once('close', () => (held -= 1));
          return;
        }
        answer(
          upstream.status,
          text,
          upstream.headers.get('content-type') ?? 'application/json',
          upstream.headers.get('date'),
        );
      })().catch(() =>
        answer(502, JSON.stringify({ body: null, message: 'proxy: upstream failed', status: 502 })),
      );
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    orders,
    statuses,
    held: () => held,
    inFlight: () => open,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** A `node bin/quanta.js …` child process with its output collected line by line. */
export interface QuantaProcess {
  readonly child: ChildProcess;
  /** Milliseconds since the epoch when it was spawned. */
  readonly spawnedAt: number;
  /** stdout lines with the time each arrived. */
  readonly stdout: { at: number; line: string }[];
  readonly stderr: { at: number; line: string }[];
  /** Resolves when the process exits. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last lines of both streams, for failure messages. */
  tail(): string;
}

function collectLines(stream: NodeJS.ReadableStream, into: { at: number; line: string }[]): void {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      into.push({ at: Date.now(), line: pending.slice(0, newline) });
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
  });
}

/**
 * Registers a bot process for a test's cleanup (SIGKILLed if still running, then awaited), so a
 * failing test leaves no bot behind; returns it for chaining.
 */
export function killOnCleanup(
  cleanups: (() => Promise<unknown>)[],
  bot: QuantaProcess,
): QuantaProcess {
  cleanups.push(async () => {
    if (bot.child.exitCode === null && bot.child.signalCode === null) bot.child.kill('SIGKILL');
    await bot.exited;
  });
  return bot;
}

/** Spawns `node bin/quanta.js <args>` in the repository root. */
export function spawnQuanta(args: readonly string[], env: NodeJS.ProcessEnv): QuantaProcess {
  return spawnCommand(process.execPath, [join(ROOT, 'bin/quanta.js'), ...args], env, ROOT);
}

/** Spawns `file <args>` in `cwd` (a command a user types: `npx quanta run …`). */
export function spawnCommand(
  file: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  options: { detached?: boolean } = {},
): QuantaProcess {
  const spawnedAt = Date.now();
  const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  const stdout: { at: number; line: string }[] = [];
  const stderr: { at: number; line: string }[] = [];
  collectLines(child.stdout, stdout);
  collectLines(child.stderr, stderr);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once('exit', (code, signal) => done({ code, signal }));
  });
  return {
    child,
    spawnedAt,
    stdout,
    stderr,
    exited,
    tail: () =>
      [
        '--- stdout',
        ...stdout.slice(-20).map((l) => l.line),
        '--- stderr',
        ...stderr.slice(-20).map((l) => l.line),
      ].join('\n'),
  };
}

/**
 * The options of a bot on `venueUrl` holding 0.01 ETH-USD (fixtures/hold), its state in
 * `dir/state`, signing with `walletKey`: without time of its own (the caller adds it, or not).
 */
export function holdBotOptions(venueUrl: string, dir: string, walletKey: Hex): BotBaseOptions {
  const yaml = stringify({
    venue: { writeUrl: venueUrl, readUrl: venueUrl },
    wallet: { privateKeyEnv: WALLET_ENV },
    state: { dir: join(dir, 'state') },
    risk: { capital: '100000' },
    strategies: [
      {
        module: strategyModule('fixtures/hold'),
        markets: ['ETH-USD'],
        params: { side: 'BUY', amount: '0.01' },
      },
    ],
  });
  return {
    config: parseConfig(yaml, 'bot.yaml', dir),
    env: { [WALLET_ENV]: walletKey },
    log: captureLogs().log,
    projectRoot: ROOT,
  };
}

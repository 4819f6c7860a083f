import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { Market } from '../../domain/index.ts';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import type { Logger } from '../../log/logger.ts';
import {
  defineStrategy,
  type Strategy,
  type StrategyContext,
  type StrategyDefinition,
  type WithAnIntentHook,
} from '../define-strategy.ts';
import type { WorkerIsolation } from '../prepare-strategies.ts';
import { postAnswer, type AnswerLine, type WorkerAnswer } from './sync-answers.ts';
import {
  errorFrom,
  packSnapshot,
  type WorkerCall,
  type WorkerQuestion,
  type WorkerReport,
  type WorkerStart,
} from './worker-protocol.ts';

/** Distributes a call over the union (TypeScript's Omit does not). */
type CallBody = WorkerCall extends infer C ? (C extends WorkerCall ? Omit<C, 'id'> : never) : never;

type Context = Omit<StrategyContext<unknown, unknown>, 'state'>;

const LEVEL_NAMES: Readonly<
  Record<number, 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal'>
> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

/**
 * The file a strategy's worker thread loads: compiled quanta loads `worker-entry.js` beside this
 * file; from sources (the repository, tests) `bin/strategy-worker.mjs`, which registers tsx
 * inside the thread (plain node cannot load a `.ts` file, and the main thread's hooks do not
 * reach it).
 */
function workerFile(): string {
  const fromSources = import.meta.url.endsWith('.ts');
  return fileURLToPath(
    new URL(
      fromSources ? '../../../bin/strategy-worker.mjs' : './worker-entry.js',
      import.meta.url,
    ),
  );
}

/** Options of {@link StrategyWorkerClient}. */
export interface StrategyWorkerClientOptions {
  readonly name: string;
  readonly symbols: readonly string[];
  /** The strategy as the main thread loaded it (to check params): its name and hooks. */
  readonly strategy: Strategy;
  readonly worker: WorkerIsolation;
  /** The bot's logger: its level decides which of the worker's lines are sent at all. */
  readonly log: Logger;
}

/**
 * The main thread's side of a strategy that runs in a worker thread (`isolate: worker`). It
 * offers a {@link Strategy} whose hooks send each call to the worker and resolve to what the
 * strategy there returned, so the {@link StrategyHost} around it (deadlines, validation,
 * failure counts, pausing) is the one every strategy has, and the session awaits its answers in
 * config order like any other.
 *
 * The worker has a heap limit (`resourceLimits.maxOldGenerationSizeMb`). When it dies (out of
 * memory, an error thrown outside any call, `process.exit`), every call waiting on it and the next
 * one fail with `QUANTA_STRATEGY_CRASHED`, which pauses the strategy at once (the bot goes on and
 * the pause raises the strategy-paused alert); resumed, it gets a new worker and `init` runs again
 * (its state starts over). The worker is started by `init` and stopped by `stop` or
 * {@link terminate}.
 */
export class StrategyWorkerClient {
  readonly strategy: Strategy;
  readonly #options: StrategyWorkerClientOptions;
  #worker: Worker | undefined;
  /** Where the worker's questions are answered (its port and the shared count of answers). */
  #answers: AnswerLine | undefined;
  /** Calls sent and not answered yet, by id. */
  readonly #pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  #nextId = 1;
  /** The context of the latest call: the worker's questions are answered through it. */
  #context: Context | undefined;
  /** The markets map sent last (sent again only when the snapshot's differs). */
  #marketsSent: ReadonlyMap<number, Market> | undefined;
  /** Why the worker died, until a call has reported it. */
  #crash: QuantaError | undefined;

  constructor(options: StrategyWorkerClientOptions) {
    this.#options = options;
    const real = options.strategy;
    // The stand-in has exactly the real strategy's hooks, so at least one of onSnapshot and onBar
    // (defineStrategy checks it again at run time); the spreads below hide that from the types.
    this.strategy = defineStrategy<unknown, unknown>({
      name: real.name,
      init: (context) => this.#init(context),
      // The host builds the declared bars here and hands each closed one to onBar.
      ...(real.bars === undefined ? {} : { bars: real.bars }),
      // ...judges its warm-up here (the refusals are the host's)...
      ...(real.warmup === undefined ? {} : { warmup: real.warmup }),
      // ...and keeps the registered indicators, updated before each bar; the worker asks for them.
      ...(real.indicators === undefined
        ? {}
        : { indicators: (params: unknown) => real.indicators?.(params) as Record<string, never> }),
      // Hooks the strategy does not have cost no round trip.
      ...(real.onSnapshot === undefined
        ? {}
        : {
            onSnapshot: async (snapshot, context) => {
              await this.#ready(context);
              const packed = packSnapshot(snapshot, this.#marketsSent);
              this.#marketsSent = snapshot.markets;
              const { marketIds } = context;
              const body = { kind: 'snapshot', snapshot: packed, marketIds } as const;
              // The host validates what comes back, as for a strategy in its own thread.
              return (await this.#send(body, context)) as never;
            },
          }),
      ...(real.onBar === undefined
        ? {}
        : {
            onBar: async (bar, context) => {
              await this.#ready(context);
              const body = { kind: 'bar', bar, marketIds: context.marketIds } as const;
              return (await this.#send(body, context)) as never;
            },
          }),
      ...(real.onFill === undefined
        ? {}
        : {
            onFill: async (fill, context) => {
              await this.#ready(context);
              await this.#send({ kind: 'fill', fill }, context);
            },
          }),
      stop: (context) => this.#stop(context),
    } as StrategyDefinition<unknown, unknown> &
      WithAnIntentHook<unknown, unknown, Record<string, never>>);
  }

  async #init(context: Context): Promise<undefined> {
    this.#spawn();
    await this.#send({ kind: 'init' }, context);
    return undefined;
  }

  /**
   * Before a call: a death nobody has heard of yet is reported (it pauses the strategy); a
   * worker gone since (a resumed strategy) is started again, `init` included.
   */
  async #ready(context: Context): Promise<void> {
    const crash = this.#crash;
    if (crash !== undefined) {
      this.#crash = undefined;
      throw crash;
    }
    if (this.#worker === undefined) await this.#init(context);
  }

  async #send(body: CallBody, context: Context): Promise<unknown> {
    const worker = this.#worker;
    if (worker === undefined) throw this.#crashed('is not running');
    this.#context = context;
    const id = this.#nextId++;
    const answer = new Promise<unknown>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
    });
    // Only a worker with a call pending keeps the process alive (a finished backtest exits).
    worker.ref();
    worker.postMessage({ ...body, id });
    try {
      return await answer;
    } finally {
      if (this.#pending.size === 0) this.#worker?.unref();
    }
  }

  #spawn(): void {
    const { name, symbols, worker: isolation, log } = this.#options;
    const flag = new SharedArrayBuffer(4);
    const channel = new MessageChannel();
    const start: WorkerStart = {
      name,
      symbols,
      file: isolation.file,
      rawParams: isolation.rawParams,
      logLevel: log.level,
      flag,
      answers: channel.port2,
    };
    const worker = new Worker(workerFile(), {
      workerData: start,
      transferList: [channel.port2],
      resourceLimits: { maxOldGenerationSizeMb: isolation.heapLimitMb },
    });
    this.#worker = worker;
    this.#answers = { posted: new Int32Array(flag), port: channel.port1 };
    this.#marketsSent = undefined;
    worker.on('message', (report: WorkerReport) => this.#onReport(report));
    worker.on('error', (error: Error & { code?: string }) => {
      this.#crash ??=
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? this.#crashed(`ran out of memory (heap limit ${isolation.heapLimitMb} MB)`)
          : this.#crashed(`threw outside any call: ${error.message.split('\n')[0] ?? ''}`);
    });
    worker.on('exit', (code) => {
      channel.port1.close();
      // Ended by terminate(), which settled its calls already.
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      const crash = this.#crash ?? this.#crashed(`exited with code ${code}`);
      // A death nobody was waiting on is reported by the next call.
      this.#crash = this.#pending.size > 0 ? undefined : crash;
      for (const call of this.#pending.values()) call.reject(crash);
      this.#pending.clear();
    });
  }

  #crashed(what: string): QuantaError {
    return new QuantaError(
      ErrorCodes.STRATEGY_CRASHED,
      `strategy ${this.#options.name}: its worker ${what}`,
      {
        details: [
          'The strategy is paused; the other strategies go on. Resume it (POST /strategies/<name>/resume) to start a new worker; its state starts over.',
        ],
      },
    );
  }

  #onReport(report: WorkerReport): void {
    switch (report.kind) {
      case 'done':
      case 'failed': {
        const call = this.#pending.get(report.id);
        this.#pending.delete(report.id);
        if (report.kind === 'done') call?.resolve(report.value);
        else call?.reject(errorFrom(report.error));
        return;
      }
      case 'ask':
        this.#answer(report.id, report.question);
        return;
      case 'log':
        this.#relayLog(report.line);
        return;
      case 'plot':
        this.#context?.plot(report.name, report.value);
        return;
    }
  }

  /** Answers a question through the host's context, then wakes the waiting worker. */
  #answer(id: number, question: WorkerQuestion): void {
    let answer: WorkerAnswer;
    try {
      const context = this.#context;
      if (context === undefined) throw new Error('no call is running');
      answer = { id, ok: true, value: valueOf(question, context) };
    } catch (error) {
      answer = { id, ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    if (this.#answers !== undefined) postAnswer(this.#answers, answer);
  }

  /** A line the strategy logged in the worker, logged again here through the host's logger. */
  #relayLog(line: string): void {
    const log = this.#context?.log ?? this.#options.log;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    const { level, msg, time: _time, app: _app, ...fields } = record;
    const name = LEVEL_NAMES[typeof level === 'number' ? level : 30] ?? 'info';
    log[name](fields, typeof msg === 'string' ? msg : '');
  }

  async #stop(context: Context): Promise<void> {
    if (this.#worker === undefined) return;
    try {
      await this.#send({ kind: 'stop' }, context);
    } finally {
      await this.terminate();
    }
  }

  /**
   * Ends the worker at once (a strategy paused for timeouts may be spinning in a loop that no
   * deadline can end); a call waiting on it fails. The next call starts a new one.
   */
  async terminate(): Promise<void> {
    const worker = this.#worker;
    if (worker === undefined) return;
    // Forgotten at once, not at its exit: the abandoned call settles now, and the next call
    // (a resume) starts a new worker instead of waiting on this one.
    this.#worker = undefined;
    const stopped = this.#crashed('was stopped');
    for (const call of this.#pending.values()) call.reject(stopped);
    this.#pending.clear();
    await worker.terminate();
  }
}

function valueOf(question: WorkerQuestion, context: Context): unknown {
  switch (question.what) {
    case 'position':
      return context.position(question.marketId);
    case 'openOrders':
      return context.openOrders();
    case 'now':
      return context.now();
    case 'entryPrice':
      return context.entryPrice(question.marketId);
    case 'unrealizedPnl':
      return context.unrealizedPnl(question.marketId);
    case 'equity':
      return context.equity();
    case 'freeMargin':
      return context.freeMargin();
    case 'liquidationPrice':
      return context.liquidationPrice(question.marketId);
    case 'bars':
      return context.bars(question.market, question.timeframe);
    case 'indicators':
      return context.indicators(question.market);
    case 'storeGet':
      return context.store.get(question.key);
    case 'storeSet':
      context.store.set(question.key, question.value);
      return undefined;
  }
}

/**
 * The inside of a strategy's worker thread (`isolate: worker`): loads the strategy module,
 * parses its params with the strategy's own schema, and runs `init`, `onSnapshot`, `onFill` and
 * `stop` as the main thread asks, one message each, answering with what the strategy returned.
 * The context it gives the strategy is the same API as in the bot's thread: what only the bot
 * knows (positions, open orders, the store, the clock) is asked of the main thread and waited for
 * (the worker blocks until its answer is posted: sync-answers.ts), logs and plots are sent back as
 * messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '../../log/logger.ts';
import type { Market } from '../../domain/index.ts';
import type { Bar } from '../bars/bar.ts';
import type { Strategy, StrategyContext } from '../define-strategy.ts';
import type { OpenOrder } from '../../domain/index.ts';
import { loadStrategy, parseStrategyParams } from '../load-strategy.ts';
import {
  errorText,
  unpackSnapshot,
  type WorkerCall,
  type WorkerQuestion,
  type WorkerReport,
  type WorkerStart,
} from './worker-protocol.ts';
import { takeAnswer, type AnswerLine, type WorkerAnswer } from './sync-answers.ts';

/**
 * How long a question may wait for the main thread. It answers at its next turn (it is awaiting
 * this worker's answer); only a main thread that stopped can leave a question unanswered.
 */
const ANSWER_WAIT_MS = 30_000;

const start = workerData as WorkerStart;
const port = parentPort;
if (port === null) throw new Error('strategy-worker.ts runs only as a worker thread');
const answers: AnswerLine = { posted: new Int32Array(start.flag), port: start.answers };
let questions = 0;

function report(message: WorkerReport): void {
  port?.postMessage(message);
}

/** Asks the main thread and waits for its answer (the strategy's call is synchronous). */
function ask(question: WorkerQuestion): unknown {
  const id = ++questions;
  report({ kind: 'ask', id, question });
  let answer: WorkerAnswer;
  try {
    answer = takeAnswer(answers, id, ANSWER_WAIT_MS);
  } catch (error) {
    throw new Error(`the bot did not answer ${question.what}: ${(error as Error).message}`);
  }
  if (!answer.ok) throw new Error(answer.message);
  return answer.value;
}

// Lines go to the main thread, which logs them through the host's logger (redaction included).
const log = createLogger({
  level: start.logLevel,
  destination: { write: (line: string) => report({ kind: 'log', line }) },
});

let strategy: Strategy | undefined;
let params: unknown;
let state: unknown;
let marketIds: readonly number[] = [];
let markets: ReadonlyMap<number, Market> | undefined;

const context = (): StrategyContext<unknown, unknown> => ({
  name: start.name,
  params,
  symbols: start.symbols,
  marketIds,
  position: (marketId) => ask({ what: 'position', marketId }) as string,
  openOrders: () => ask({ what: 'openOrders' }) as readonly OpenOrder[],
  now: () => ask({ what: 'now' }) as number,
  entryPrice: (marketId) => ask({ what: 'entryPrice', marketId }) as string | undefined,
  unrealizedPnl: (marketId) => ask({ what: 'unrealizedPnl', marketId }) as string | undefined,
  equity: () => ask({ what: 'equity' }) as string | undefined,
  freeMargin: () => ask({ what: 'freeMargin' }) as string | undefined,
  liquidationPrice: (marketId) => ask({ what: 'liquidationPrice', marketId }) as string | undefined,
  bars: (market, timeframe) => ask({ what: 'bars', market, timeframe }) as readonly Bar[],
  // A copy of the values at the time of asking (the host's views are updated in place).
  indicators: (market) => ask({ what: 'indicators', market }) as Record<string, never>,
  // Not carried across the worker boundary yet: said plainly, never a silent no-op.
  setExits: () => {
    throw new Error(
      'ctx.setExits is not available with isolate: worker yet; give exits with the entry intent',
    );
  },
  exits: () => {
    throw new Error('ctx.exits is not available with isolate: worker yet');
  },
  log,
  store: {
    get: (key) => ask({ what: 'storeGet', key }) as string | undefined,
    set: (key, value) => void ask({ what: 'storeSet', key, value }),
  },
  state,
  plot: (name, value) => report({ kind: 'plot', name, value }),
});

async function perform(call: WorkerCall): Promise<unknown> {
  if (call.kind === 'init') {
    // The main thread checked module and params already; this is the same check, in here.
    strategy = await loadStrategy(start.file, []);
    params = parseStrategyParams(strategy, start.name, start.rawParams);
    state = await strategy.init?.(context());
    return undefined;
  }
  if (strategy === undefined) throw new Error(`${call.kind} before init`);
  if (call.kind === 'snapshot') {
    if (call.snapshot.markets !== undefined) markets = call.snapshot.markets;
    const snapshot = unpackSnapshot(call.snapshot, markets);
    marketIds = call.marketIds;
    return await strategy.onSnapshot?.(snapshot, context());
  }
  if (call.kind === 'bar') {
    marketIds = call.marketIds;
    return await strategy.onBar?.(call.bar, context());
  }
  if (call.kind === 'fill') return await strategy.onFill?.(call.fill, context());
  return await strategy.stop?.(context());
}

// Each call answered once: its value (structured-cloned; what cannot be is a failure), or why not.
async function run(call: WorkerCall): Promise<void> {
  try {
    const value = await perform(call);
    report({ kind: 'done', id: call.id, value });
  } catch (error) {
    report({ kind: 'failed', id: call.id, error: errorText(error) });
  }
}

port.on('message', (call: WorkerCall) => void run(call));

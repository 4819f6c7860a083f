import { keccak256, toHex } from 'viem';
import type { Config } from '../config/index.ts';
import { OrderJournal } from '../execution/journal.ts';
import type { Executor } from '../execution/executor.ts';
import type { ProducedIntent } from '../execution/trading-session.ts';
import { buildTradingStack } from '../runtime/trading-stack.ts';
import { silentLogger, type Logger } from '../log/logger.ts';
import { openRecording } from '../market/recording/index.ts';
import { markPriceX18 } from '../market/mark-price.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { SimEngine } from '../sim/index.ts';
import { checkStrategySymbols } from '../strategy/check-symbols.ts';
import { prepareStrategies } from '../strategy/prepare-strategies.ts';
import { signOrder } from '../venue/signing/index.ts';
import type { Market } from '../domain/index.ts';
import { DEFAULT_SIGNING_DOMAIN } from '../venue/types.ts';
import type { BacktestTrace, MarketSample, Sample } from './trace.ts';
import { simOrderLookup, simOrderSubmitter } from './sim-venue.ts';

/** Options of {@link runBacktest}. */
export interface BacktestOptions {
  readonly config: Config;
  /** A recording file, a directory of rotated files, or a list. */
  readonly data: string | readonly string[];
  /** Where strategy modules are looked up. */
  readonly projectRoot: string;
  readonly log?: Logger;
  /** Called once the recording has been scanned, with its number of snapshots. */
  readonly onStart?: (snapshots: number) => void;
  /**
   * Drop snapshots whose seq or takenAt does not increase (counted) instead of failing on the
   * first; files that overlap in time are an error even so.
   */
  readonly repair?: boolean;
  /** With `repair`: called once the recording has been scanned, with the snapshots dropped. */
  readonly onRepaired?: (dropped: number) => void;
  /** Called after every snapshot with the count so far. */
  readonly onProgress?: (done: number) => void;
}

// Backtests sign like live trading (same code path) with a fixed, public, worthless key, so
// the same inputs give the same signatures and the same report bytes.
const BACKTEST_SIGNING_KEY = keccak256(toHex('quanta backtest signing key'));
const BACKTEST_SUBACCOUNT = '0_0x0000000000000000000000000000000000000001_1';
const ACCOUNT_ID = 'backtest';

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * Replays a recording through the configured strategies, sizing, checks and journal, exactly as
 * live trading runs them, against the simulation engine filling at the recorded quotes, on a
 * virtual clock. Deterministic: the same recording and config give the same trace.
 */
export async function runBacktest(options: BacktestOptions): Promise<BacktestTrace> {
  const { config } = options;
  const log = options.log ?? silentLogger;
  const strategies = await prepareStrategies(
    config.strategies,
    [options.projectRoot],
    config.source,
  );
  const recording = await openRecording(options.data, {
    onWarning: (warning) => log.warn({ warning: warning.message }, 'recording warning'),
    repair: options.repair === true,
  });

  // First pass: every market the recording ever lists, so the engine knows them all up front.
  const markets = new Map<number, Market>();
  const gaps: number[] = [];
  let previousAt: number | undefined;
  let firstAt: number | undefined;
  let total = 0;
  // This pass meets every check of the recording first; the second gives the same verdict.
  const scan = recording.snapshots();
  for await (const snapshot of scan) {
    total += 1;
    for (const market of snapshot.markets.values())
      if (!markets.has(market.id)) markets.set(market.id, market);
    if (previousAt !== undefined) gaps.push(snapshot.takenAt - previousAt);
    firstAt ??= snapshot.takenAt;
    previousAt = snapshot.takenAt;
  }

  checkStrategySymbols(
    strategies,
    new Set([...markets.values()].map((market) => market.symbol)),
    'the recording',
    config.source,
  );
  if (options.repair === true) options.onRepaired?.(scan.dropped);
  options.onStart?.(total);
  // The engine starts at the recording's first moment: it steps its clock forward from there.
  let now = firstAt ?? 0;
  const clock = (): number => now;
  const engine = new SimEngine({ clock, markets: [...markets.values()], seed: config.paper.seed });
  const active = new Map<number, boolean>([...markets.values()].map((m) => [m.id, m.isActive]));
  const journal = OrderJournal.open(':memory:');
  const intents: ProducedIntent[] = [];
  const { executor, session } = await buildTradingStack({
    config,
    strategies,
    journal,
    submitter: simOrderSubmitter(engine, ACCOUNT_ID),
    signer: {
      async sign(body) {
        const signed = await signOrder({
          signingPrivateKey: BACKTEST_SIGNING_KEY,
          subaccountId: BACKTEST_SUBACCOUNT,
          body,
          domain: DEFAULT_SIGNING_DOMAIN,
        });
        return { signature: signed.signature, signer: signed.signer };
      },
    },
    lookupOrder: simOrderLookup(engine, ACCOUNT_ID),
    // Virtual time: no rate window to wait for, and the simulation never fails transiently.
    rate: { requests: Infinity, perMs: 1, concurrency: 1, maxAttempts: 1 },
    killSwitchOn: () => false,
    now: clock,
    sleep: () => Promise.resolve(),
    log,
    onIntent: (produced) => intents.push(produced),
  });

  const samples: Sample[] = [];
  const marks = new Map<number, bigint>();
  let count = 0;
  let startedAt = 0;
  // Its warnings were logged by the first pass.
  for await (const snapshot of recording.snapshots({ onWarning: () => undefined })) {
    now = snapshot.takenAt;
    if (count === 0) startedAt = now;
    syncEngine(engine, snapshot, active);
    await session.onSnapshot(snapshot);
    await executor.settle();
    samples.push(sampleOf(snapshot, executor, marks));
    count += 1;
    options.onProgress?.(count);
  }
  await session.stop();
  const trace: BacktestTrace = {
    data: typeof options.data === 'string' ? options.data : options.data.join(','),
    strategies: session.strategyNames(),
    symbols: new Map([...markets.values()].map((m) => [m.id, m.symbol])),
    snapshotIntervalMs: median(gaps),
    startedAt,
    endedAt: now,
    snapshots: count,
    samples,
    orders: journal.all(),
    refusals: executor.stats().refusals,
    intents,
  };
  journal.close();
  return trace;
}

/** Makes the engine's markets and books what the recording says at this snapshot. */
function syncEngine(engine: SimEngine, snapshot: Snapshot, active: Map<number, boolean>): void {
  for (const [marketId, wasActive] of active) {
    const isActive = snapshot.markets.get(marketId)?.isActive ?? false;
    if (isActive !== wasActive) {
      engine.setMarketActive(marketId, isActive);
      active.set(marketId, isActive);
    }
  }
  if (snapshot.quotes !== undefined) engine.setExternalQuotes([...snapshot.quotes.values()]);
}

function sampleOf(snapshot: Snapshot, executor: Executor, marks: Map<number, bigint>): Sample {
  const markets: MarketSample[] = [];
  for (const [marketId, position] of executor.positions.entries()) {
    const mark = markPriceX18(snapshot.quotes?.get(marketId));
    if (mark !== undefined) marks.set(marketId, mark);
    markets.push({
      marketId,
      positionX18: position.amountX18,
      markPriceX18: marks.get(marketId) ?? 0n,
      avgEntryPriceX18: position.avgEntryPriceX18,
      realizedPnlX18: position.realizedPnlX18,
      feesX18: position.feesX18,
      turnoverX18: position.turnoverX18,
    });
  }
  return { seq: snapshot.seq, t: snapshot.takenAt, markets };
}

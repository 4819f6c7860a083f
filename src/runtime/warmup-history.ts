import type { Market } from '../domain/index.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { Logger } from '../log/logger.ts';
import { isCandleHistory, openCandleHistory } from '../market/history/index.ts';
import { openRecording } from '../market/recording/index.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { timeframeMs } from '../strategy/bars/timeframe.ts';
import type { StrategyWarmup } from '../strategy/bars/warmup.ts';
import { candleTimeframeProblem } from '../strategy/check-candle-timeframes.ts';
import type { PreparedStrategy } from '../strategy/prepare-strategies.ts';

/** What {@link preloadHistory} needs. */
export interface PreloadOptions {
  /** A recording (file or folder) or imported candles (`quanta import --kind candles`). */
  readonly dir: string;
  /** The venue's listing at start: history is mapped onto it by symbol. */
  readonly markets: readonly Market[];
  readonly strategies: readonly PreparedStrategy[];
  /** Where the history goes (the session's strategy hosts) and what they say after it. */
  readonly session: {
    preload(snapshot: Snapshot): void;
    warmups(): Record<string, StrategyWarmup>;
  };
  /** The bot's start (its clock). */
  readonly now: number;
  readonly log: Logger;
}

/** What was pre-loaded. */
export interface Preloaded {
  readonly snapshots: number;
  readonly from: number;
  readonly to: number;
}

const refuse = (dir: string, why: string): QuantaError =>
  new QuantaError(ErrorCodes.HISTORY_INVALID, `--warmup ${dir}: ${why}`);

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * `quanta run --warmup DIR`: replays a recording or imported candles into the strategies' bars
 * and indicators before the first live snapshot (no hook called, nothing traded), so a strategy
 * that needs 21 one-minute bars trades from its first live bar instead of 21 minutes later.
 * The history's markets are mapped onto the venue's listing by symbol.
 *
 * @throws QuantaError `QUANTA_HISTORY_INVALID` (exit 2) when no strategy declares bars, the
 *   history lacks a market a strategy with bars trades, candles are longer than a declared bar,
 *   or the history does not reach the start: it ends more than the shortest declared timeframe
 *   before now (the bars between would be missing), or after now.
 */
export async function preloadHistory(options: PreloadOptions): Promise<Preloaded> {
  const { dir, strategies, log } = options;
  const withBars = strategies.filter((s) => Object.keys(s.strategy.bars ?? {}).length > 0);
  if (withBars.length === 0)
    throw refuse(dir, 'no strategy of the config declares bars: there is nothing to pre-load');
  const candles = (await isCandleHistory(dir)) ? await openCandleHistory(dir) : undefined;
  if (candles !== undefined) {
    const problem = candleTimeframeProblem(withBars, candles.timeframe, candles.timeframeMs);
    if (problem !== undefined) throw refuse(dir, problem);
  }
  const history =
    candles ??
    (await openRecording(dir, {
      onWarning: (warning) => log.warn({ warning: warning.message }, 'recording warning'),
    }));
  const live = new Map(options.markets.map((market) => [market.symbol, market]));
  const listing: ReadonlyMap<number, Market> = new Map(options.markets.map((m) => [m.id, m]));
  let toLive: ReadonlyMap<number, number> | undefined;
  let count = 0;
  let from = 0;
  let to = 0;
  for await (const batch of history.snapshots().batches()) {
    for (const snapshot of batch.snapshots) {
      toLive ??= liveIds(dir, snapshot, withBars, live);
      options.session.preload(onto(snapshot, toLive, listing));
      if (count === 0) from = snapshot.takenAt;
      to = snapshot.takenAt;
      count += 1;
    }
  }
  if (count === 0) throw refuse(dir, 'the history holds no snapshot');
  checkReach(dir, withBars, to, options.now);
  log.info(
    { warmup: dir, snapshots: count, from: iso(from), to: iso(to) },
    `pre-loaded ${count} snapshots of history (${iso(from)} to ${iso(to)}) into the strategies' bars`,
  );
  for (const [strategy, warmup] of Object.entries(options.session.warmups()))
    if ('waitingFor' in warmup)
      log.warn(
        { strategy, waitingFor: warmup.waitingFor },
        `strategy ${strategy} still warms up after the history: it waits for ${warmup.waitingFor}`,
      );
    else log.info({ strategy }, `strategy ${strategy} warmed up from the history`);
  return { snapshots: count, from, to };
}

/**
 * The venue's id of each history market a strategy with bars trades, by symbol.
 *
 * @throws QuantaError when the history lacks one of those markets.
 */
function liveIds(
  dir: string,
  first: Snapshot,
  withBars: readonly PreparedStrategy[],
  live: ReadonlyMap<string, Market>,
): Map<number, number> {
  const held = new Map([...first.markets.values()].map((m) => [m.symbol, m.id]));
  const missing = withBars.flatMap((s) =>
    s.symbols.filter((symbol) => !held.has(symbol)).map((symbol) => `${symbol} (${s.name})`),
  );
  if (missing.length > 0)
    throw refuse(
      dir,
      `the history holds ${[...held.keys()].join(', ') || 'no market'}, not ${missing.join(', ')}: pre-load from a recording or candles of the strategies' markets`,
    );
  const ids = new Map<number, number>();
  for (const [symbol, id] of held) {
    const market = live.get(symbol);
    if (market !== undefined) ids.set(id, market.id);
  }
  return ids;
}

/** A history snapshot on the venue's listing: its quotes and candles under the venue's ids. */
function onto(
  snapshot: Snapshot,
  toLive: ReadonlyMap<number, number>,
  listing: ReadonlyMap<number, Market>,
): Snapshot {
  const rekey = <V>(values: ReadonlyMap<number, V> | undefined): Map<number, V> | undefined => {
    if (values === undefined) return undefined;
    const out = new Map<number, V>();
    for (const [id, value] of values) {
      const liveId = toLive.get(id);
      if (liveId !== undefined) out.set(liveId, value);
    }
    return out;
  };
  const quotes = rekey(snapshot.quotes);
  const candles = rekey(snapshot.candles);
  return {
    seq: snapshot.seq,
    takenAt: snapshot.takenAt,
    markets: listing,
    stale: snapshot.stale,
    ...(quotes === undefined ? {} : { quotes }),
    ...(candles === undefined ? {} : { candles }),
  };
}

/**
 * Refuses history that does not reach the start: ending after now, or more than the shortest
 * declared timeframe before it (a whole bar would be made up of nothing).
 */
function checkReach(
  dir: string,
  withBars: readonly PreparedStrategy[],
  end: number,
  now: number,
): void {
  if (end > now)
    throw refuse(
      dir,
      `the history ends at ${iso(end)}, after this host's clock (${iso(now)}): is the clock right, or is it history of another time?`,
    );
  let shortest = Infinity;
  let named = '';
  for (const { name, strategy } of withBars)
    for (const timeframe of Object.keys(strategy.bars ?? {})) {
      const ms = timeframeMs(timeframe);
      if (typeof ms === 'number' && ms < shortest) {
        shortest = ms;
        named = `strategy ${name}'s ${timeframe} bars`;
      }
    }
  if (now - end > shortest)
    throw refuse(
      dir,
      `the history ends at ${iso(end)}, ${Math.round((now - end) / 1000)} s before the bot's start (${iso(now)}); ${named} would miss the bars between: pre-load from a recording that runs up to the start (quanta record, or a running bot's record: section), or start without --warmup`,
    );
}

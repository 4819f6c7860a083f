/**
 * Where imported quote and book rows go: one snapshot per millisecond (the last row of a
 * millisecond: finer sources, e.g. µs, are counted as superseded), written to a recording
 * (docs/recording-format.md).
 */
import type { Market, Quote, QuoteLevel } from '../../domain/index.ts';
import { formatX18 } from '../../money/index.ts';
import { RecordingWriter } from '../recording/index.ts';
import { createSnapshot } from '../snapshot.ts';
import type { BookRow, RowLevel } from './history-row.ts';

/** Where a quote sink writes, and for which market. */
export interface QuoteSinkOptions {
  readonly dir: string;
  readonly market: Market;
  readonly source: string;
  readonly now: () => number;
}

const DRAIN_EVERY = 256;

function levelsOf(levels: readonly RowLevel[]): QuoteLevel[] {
  return levels.map((l) => ({ price: formatX18(l.priceX18), quantity: formatX18(l.sizeX18) }));
}

/** Quote and book rows, in time order, to one recording. */
export class QuoteSink {
  readonly #options: QuoteSinkOptions;
  readonly #markets: ReadonlyMap<number, Market>;
  #writer: RecordingWriter | undefined;
  #pending: { readonly ms: number; readonly quote: Quote } | undefined;
  /** Snapshots written. */
  count = 0;
  /** Rows whose millisecond the next row had too (the snapshot is the last of them). */
  superseded = 0;
  firstMs: number | undefined;
  lastMs: number | undefined;

  constructor(options: QuoteSinkOptions) {
    this.#options = options;
    this.#markets = new Map([[options.market.id, options.market]]);
  }

  /** The recording's files (empty until the first snapshot is written). */
  get files(): readonly string[] {
    return this.#writer?.files ?? [];
  }

  /** Takes one row that came after the last one taken (the caller checks the order). */
  async take(row: BookRow): Promise<undefined> {
    const quote: Quote = {
      marketId: this.#options.market.id,
      timestamp: row.time.ms,
      bids: levelsOf(row.bids),
      asks: levelsOf(row.asks),
    };
    if (this.#pending !== undefined && this.#pending.ms === row.time.ms) this.superseded += 1;
    else await this.#emit();
    this.#pending = { ms: row.time.ms, quote };
    return undefined;
  }

  /** Writes the last snapshot and closes the recording. */
  async finish(): Promise<void> {
    await this.#emit();
    await this.#writer?.close();
  }

  /** Closes the recording, if any, without writing more (a failed import removes it). */
  async abandon(): Promise<void> {
    await this.#writer?.close().catch(() => undefined);
  }

  async #emit(): Promise<void> {
    const pending = this.#pending;
    if (pending === undefined) return;
    this.#writer ??= await RecordingWriter.open({
      dir: this.#options.dir,
      gzip: true,
      source: this.#options.source,
      now: this.#options.now,
    });
    this.count += 1;
    const snapshot = createSnapshot({
      seq: this.count,
      takenAt: pending.ms,
      markets: this.#markets,
      quotes: [pending.quote],
    });
    this.#writer.write(snapshot);
    this.firstMs ??= pending.ms;
    this.lastMs = pending.ms;
    if (this.count % DRAIN_EVERY === 0) await this.#writer.drained();
  }
}

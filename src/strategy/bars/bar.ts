import { candleX18, type Candle } from '../../market/candle.ts';
import { formatX18 } from '../../money/index.ts';

/**
 * One closed time bar of one market: the open, high, low and close of the mid (the one
 * mark-price rule, docs/strategy-guide.md "Bars"), the best bid and ask of its close and their
 * spread, and the strategy's own filled volume. Prices are exact decimal strings, like quotes.
 *
 * A bar covers `[start, end)`: it is made from the snapshots taken in that span and delivered at
 * the first snapshot taken at or after `end`, never earlier. A bar in which no snapshot had a mid
 * (no snapshot, no quotes, a one-sided book, stale data) repeats the previous bar's close as its
 * open, high, low and close, with its bid, ask and spread, and `ticks: 0`.
 *
 * On candle history (`quanta import --kind candles`) a bar is made of the imported candles
 * directly: its open, high, low and close are the candles' (not mids), its bid and ask the close,
 * and it is delivered at the snapshot of its last candle's close.
 */
export interface Bar {
  readonly marketId: number;
  readonly symbol: string;
  /** The timeframe as declared, e.g. `"1m"`. */
  readonly timeframe: string;
  /** Open time in ms since the epoch, aligned to UTC (a 1h bar starts on the hour). */
  readonly start: number;
  /** Close time in ms: `start` + the timeframe. The bar holds the snapshots taken before it. */
  readonly end: number;
  /** Mid prices (decimal strings). */
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  /** Best bid and ask of the close's snapshot, and ask minus bid. */
  readonly bid: string;
  readonly ask: string;
  readonly spread: string;
  /**
   * Base amount this strategy's own orders filled in this market while the bar was the open one
   * (decimal string). The venue publishes no trades, so market volume is not known. On candle
   * history: the candles' market volume instead.
   */
  readonly volume: string;
  /**
   * Snapshots with a mid in the bar (a tick volume); 0 for a bar with no quotes. On candle
   * history: the candles in the bar.
   */
  readonly ticks: number;
}

/** A closed bar as the feed hands it on: the bar, and its values as numbers for indicators. */
export interface ClosedBar {
  readonly bar: Bar;
  /** Timeframe length in ms (for ordering). */
  readonly ms: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  /** Own filled volume as a number, and the tick count. */
  readonly volume: number;
  readonly ticks: number;
}

/** An x18 amount as a float, for signals only. */
export function x18ToNumber(x18: bigint): number {
  return Number(x18) / 1e18;
}

function signedText(x18: bigint): string {
  return x18 < 0n ? `-${formatX18(-x18)}` : formatX18(x18);
}

/**
 * Builds the time bars of one market and one timeframe from snapshots, in order. Holds one open
 * bar; nothing grows with the run.
 */
export class BarBuilder {
  readonly #marketId: number;
  readonly #symbol: string;
  readonly #timeframe: string;
  readonly #ms: number;
  /** Start of the open bar; NaN until the first mid. */
  #start = Number.NaN;
  #open = 0n;
  #high = 0n;
  #low = 0n;
  #close = 0n;
  #bid = 0n;
  #ask = 0n;
  #ticks = 0;
  #volume = 0n;
  /** Fed candles: volume is the candles', not the strategy's fills. */
  #candles = false;

  constructor(marketId: number, symbol: string, timeframe: string, ms: number) {
    this.#marketId = marketId;
    this.#symbol = symbol;
    this.#timeframe = timeframe;
    this.#ms = ms;
  }

  /**
   * Feeds one snapshot's time and this market's mid, bid and ask (undefined when it has no mid),
   * pushing onto `out` every bar that time closes: the open one, then one flat bar per whole
   * timeframe that passed without a snapshot. A time before the open bar's start (a clock that
   * went back) counts in the open bar.
   */
  update(
    t: number,
    mid: bigint | undefined,
    bid: bigint | undefined,
    ask: bigint | undefined,
    out: ClosedBar[],
  ): void {
    const ms = this.#ms;
    if (Number.isNaN(this.#start)) {
      if (mid === undefined) return;
      this.#start = Math.floor(t / ms) * ms;
    } else if (t >= this.#start + ms) {
      out.push(this.#closed());
      const next = Math.floor(t / ms) * ms;
      // Carried forward: the open bar starts flat at the last close, with no ticks.
      this.#open = this.#high = this.#low = this.#close;
      this.#ticks = 0;
      this.#volume = 0n;
      for (this.#start += ms; this.#start < next; this.#start += ms) out.push(this.#closed());
    }
    if (mid === undefined) return;
    if (this.#ticks === 0) {
      this.#open = this.#high = this.#low = mid;
    } else if (mid > this.#high) this.#high = mid;
    else if (mid < this.#low) this.#low = mid;
    this.#close = mid;
    this.#bid = bid as bigint;
    this.#ask = ask as bigint;
    this.#ticks += 1;
  }

  /** Adds a fill's amount (x18) to the open bar's volume; before the first mid, to the first bar. */
  addVolume(amountX18: bigint): void {
    if (!this.#candles) this.#volume += amountX18;
  }

  /**
   * Feeds one candle whose length divides the timeframe (the backtest checks it), pushing onto
   * `out` the bars it closes: flat ones for whole bars that had no candle, then the open bar if
   * this candle is its last.
   */
  candle(candle: Candle, out: ClosedBar[]): void {
    const ms = this.#ms;
    this.#candles = true;
    const start = Math.floor(candle.start / ms) * ms;
    if (Number.isNaN(this.#start)) this.#start = start;
    else if (start >= this.#start + ms) {
      out.push(this.#closed());
      this.#carry();
      for (this.#start += ms; this.#start < start; this.#start += ms) out.push(this.#closed());
    }
    const { open, high, low, close, volume } = candleX18(candle);
    if (this.#ticks === 0) {
      this.#open = open;
      this.#high = high;
      this.#low = low;
    } else {
      if (high > this.#high) this.#high = high;
      if (low < this.#low) this.#low = low;
    }
    this.#close = close;
    this.#bid = this.#ask = this.#close;
    this.#volume += volume;
    this.#ticks += 1;
    if (candle.end >= this.#start + ms) {
      out.push(this.#closed());
      this.#carry();
      this.#start += ms;
    }
  }

  /** The next bar starts flat at the last close, with no ticks and no volume. */
  #carry(): void {
    this.#open = this.#high = this.#low = this.#close;
    this.#ticks = 0;
    this.#volume = 0n;
  }

  #closed(): ClosedBar {
    const bar: Bar = Object.freeze({
      marketId: this.#marketId,
      symbol: this.#symbol,
      timeframe: this.#timeframe,
      start: this.#start,
      end: this.#start + this.#ms,
      open: formatX18(this.#open),
      high: formatX18(this.#high),
      low: formatX18(this.#low),
      close: formatX18(this.#close),
      bid: formatX18(this.#bid),
      ask: formatX18(this.#ask),
      spread: signedText(this.#ask - this.#bid),
      volume: formatX18(this.#volume),
      ticks: this.#ticks,
    });
    return {
      bar,
      ms: this.#ms,
      open: x18ToNumber(this.#open),
      high: x18ToNumber(this.#high),
      low: x18ToNumber(this.#low),
      close: x18ToNumber(this.#close),
      volume: x18ToNumber(this.#volume),
      ticks: this.#ticks,
    };
  }
}

import type { Logger } from '../log/logger.ts';
import type { Clock } from './clock.ts';
import {
  estimateOffset,
  type OffsetBounds,
  type OffsetEstimate,
  type VenueTimeSample,
} from './venue-time.ts';
import { WallStepWatch } from './wall-step-watch.ts';

/**
 * How far this host's wall clock may be from the venue's before orders are refused: an order
 * then reaches the venue with at most this much less (or more) than its validity, 8% of the
 * default 60 s. Five seconds, not less: what one answer tells is a range of the `Date` header's
 * one second plus the request's round trip, and under load a round trip takes seconds; a bound
 * that such a range overlaps would refuse orders of a host whose clock is right.
 */
export const MAX_CLOCK_SKEW_MS = 5000;

/** Samples kept: enough to outvote a few wrong answers, few enough to follow a venue's step. */
const MAX_SAMPLES = 16;
/** Older samples are dropped: the two clocks drift apart (ppm), a venue may step its clock. */
const MAX_SAMPLE_AGE_MS = 10 * 60_000;

/** What the bot knows about its clock against the venue's (orders are signed only when `ok`). */
export const CLOCK_STATES = ['unknown', 'disagree', 'uncertain', 'behind', 'ahead', 'ok'] as const;

/** One of {@link CLOCK_STATES}. */
export type ClockState = (typeof CLOCK_STATES)[number];

/** The state, why, and the skew (venue − this host's wall clock, ms) when known. */
export interface ClockVerdict {
  readonly state: ClockState;
  readonly detail: string;
  readonly skew?: OffsetBounds;
}

/** What status and metrics show of the clocks. */
export interface ClockReport {
  readonly verdict: ClockVerdict;
  /** Wall-clock steps seen since start. */
  readonly wallSteps: number;
}

/** Where venue requests report what their answers say about the venue's clock. */
export interface VenueTimeProbe {
  /** The monotonic clock a request's send and answer are stamped with. */
  readonly monotonic: () => number;
  /** Takes a sample (or nothing, when an answer carried no readable time). */
  readonly observe: (sample: VenueTimeSample | undefined) => void;
}

/** Options of {@link VenueClock}. */
export interface VenueClockOptions {
  readonly clock: Clock;
  readonly log: Logger;
}

/**
 * This host's wall clock measured against the venue's (issue 25: a host clock 10 minutes behind
 * sent 47 of 47 orders that reached the venue already expired, and nothing said so). Every
 * venue answer is a sample (its `Date` header; a new order's `createdAt`), at start and on every
 * poll; {@link refusal} says, before an order is signed, whether its expiry would mean what it
 * says at the venue. The state is logged when it changes, never per order.
 *
 * The bot refuses rather than correcting its expiries by the measured skew: every other judgement
 * of time in it (an order's expiry at send and resend, recovery, credential expiry) is made on
 * this host's clock, and an expiry moved by an estimate would split them; a clock that is wrong
 * is for the operator to fix (NTP), and the refusal says so.
 */
/**
 * What the bot's order path asks of its clock check ({@link VenueClock}): one port for both
 * judgements, so that a bot wired with one is wired with the other.
 */
export interface VenueClockCheck {
  /** Why an order valid for `ttlMs` from now must not be signed now, or undefined. */
  refusal(ttlMs: number): string | undefined;
  /** Whether this host's clock is known now to be within the allowed skew of the venue's. */
  withinSkew(): boolean;
}

/** The state in which this host's clock is known to be within the allowed skew. */
function isWithinSkew(state: ClockState): boolean {
  return state === 'ok';
}

export class VenueClock implements VenueClockCheck {
  readonly #options: VenueClockOptions;
  readonly #watch: WallStepWatch;
  readonly #samples: VenueTimeSample[] = [];
  #estimate: OffsetEstimate = { kind: 'none' };
  #logged: ClockState | undefined;

  /** What the venue connections report to. */
  readonly probe: VenueTimeProbe;

  constructor(options: VenueClockOptions) {
    this.#options = options;
    this.#watch = new WallStepWatch({ clock: options.clock, log: options.log });
    this.probe = {
      monotonic: options.clock.monotonic,
      observe: (sample) => this.observe(sample),
    };
  }

  /** Wall-clock steps seen since start. */
  get wallSteps(): number {
    return this.#watch.steps;
  }

  /** Takes one answer's reading of the venue's clock. */
  observe(sample: VenueTimeSample | undefined): void {
    this.#watch.check();
    if (sample === undefined) return;
    const samples = this.#samples;
    samples.push(sample);
    const oldest = sample.answeredAt - MAX_SAMPLE_AGE_MS;
    while (samples.length > MAX_SAMPLES || (samples[0]?.answeredAt ?? oldest) < oldest)
      samples.shift();
    this.#estimate = estimateOffset(samples);
    this.#logChange(this.#reading());
  }

  /** The verdict and the wall steps seen, for `GET /status` and the metrics. */
  report(): ClockReport {
    return { verdict: this.verdict(), wallSteps: this.#watch.steps };
  }

  /** What is known now (read by status and metrics too). */
  verdict(): ClockVerdict {
    return this.#worded(this.#reading());
  }

  /**
   * The state of {@link verdict} alone, without its wording (the simulator reads it after every
   * step; the wording is a few strings each time).
   */
  state(): ClockState {
    return this.#reading().state;
  }

  /** The state and skew bounds now; {@link #worded} says them. */
  #reading(): Reading {
    const estimate = this.#estimate;
    if (estimate.kind === 'none') return { state: 'unknown' };
    if (estimate.kind === 'disagree') return { state: 'disagree', samples: estimate.samples };
    const { clock } = this.#options;
    const wallAhead = clock.now() - clock.monotonic();
    const skew = {
      low: Math.floor(estimate.bounds.low - wallAhead),
      high: Math.ceil(estimate.bounds.high - wallAhead),
    };
    const max = MAX_CLOCK_SKEW_MS;
    if (skew.low > max) return { state: 'behind', skew };
    if (skew.high < -max) return { state: 'ahead', skew };
    if (skew.high > max || skew.low < -max) return { state: 'uncertain', skew };
    return { state: 'ok', skew };
  }

  /** A reading with the words that explain it. */
  #worded(reading: Reading): ClockVerdict {
    const { state, skew } = reading;
    const max = MAX_CLOCK_SKEW_MS;
    const fix = 'fix its time (NTP)';
    if (skew === undefined) {
      if (state === 'unknown') {
        return {
          state,
          detail:
            "the venue's time is not known: no recent answer carried a Date header to check this host's clock against",
        };
      }
      return {
        state,
        detail: `the venue's last ${reading.samples ?? 0} answers disagree about its time: this host's clock cannot be checked against it`,
      };
    }
    if (state === 'behind') {
      return {
        state,
        skew,
        detail: `this host's clock is ${span(skew.low, skew.high)} behind the venue's (more than the ${max} ms allowed): orders would reach the venue with that much less than their validity, or already expired; ${fix}`,
      };
    }
    if (state === 'ahead') {
      return {
        state,
        skew,
        detail: `this host's clock is ${span(-skew.high, -skew.low)} ahead of the venue's (more than the ${max} ms allowed): orders would stay on the book that much longer than asked; ${fix}`,
      };
    }
    if (state === 'uncertain') {
      return {
        state,
        skew,
        detail: `this host's clock is between ${skew.low} and ${skew.high} ms off the venue's (positive: behind), not known to be within the ${max} ms allowed`,
      };
    }
    return {
      state,
      skew,
      detail: `this host's clock is within ${max} ms of the venue's (${skew.low} to ${skew.high} ms behind it)`,
    };
  }

  /**
   * Whether this host's clock is known now to be within the allowed skew of the venue's (the
   * `ok` state): what a judgement of the venue's time read from this host's clock needs, such as
   * that an order's expiry has passed there (execution/venue-record.ts).
   */
  withinSkew(): boolean {
    this.#watch.check();
    return isWithinSkew(this.#reading().state);
  }

  /**
   * Undefined when an order valid for `ttlMs` from now may be signed, else why not: the skew is
   * not known to be within the allowed range, or the order would reach the venue expired. (An
   * order valid for less than the allowed skew is refused only when the clock is known to be
   * that far behind: refusing it whenever the range allows it would refuse every such order of a
   * host whose clock is right, as one answer's range is a second wide.)
   */
  refusal(ttlMs: number): string | undefined {
    this.#watch.check();
    const reading = this.#reading();
    this.#logChange(reading);
    if (!isWithinSkew(reading.state)) return this.#worded(reading).detail;
    const behind = reading.skew?.low ?? 0;
    if (behind < ttlMs) return undefined;
    return `this host's clock is at least ${behind} ms behind the venue's: an order valid for ${ttlMs} ms would reach it expired`;
  }

  /** Logs the verdict when its state changed since the last one logged. */
  #logChange(reading: Reading): void {
    if (reading.state === this.#logged) return;
    const verdict = this.#worded(reading);
    this.#logged = verdict.state;
    const fields = {
      clockState: verdict.state,
      ...(verdict.skew === undefined
        ? {}
        : { skewLowMs: verdict.skew.low, skewHighMs: verdict.skew.high }),
    };
    if (verdict.state === 'ok') this.#options.log.info(fields, `venue clock: ${verdict.detail}`);
    else this.#options.log.warn(fields, `venue clock: orders refused: ${verdict.detail}`);
  }
}

/** A verdict before it is put in words: the state, the skew bounds, the disagreeing answers. */
interface Reading {
  readonly state: ClockState;
  readonly skew?: OffsetBounds;
  readonly samples?: number;
}

/** `600.0–601.2 s`, or `120–1130 ms` under ten seconds. */
function span(low: number, high: number): string {
  if (high < 10_000) return `${low}–${high} ms`;
  return `${(low / 1000).toFixed(1)}–${(high / 1000).toFixed(1)} s`;
}

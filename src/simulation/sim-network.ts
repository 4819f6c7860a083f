import type { IncomingHttpHeaders } from 'node:http';
import type { InProcessAnswer, InProcessPaperVenue } from '../paper/index.ts';
import type { RateLimitStorm } from './fault-plan.ts';
import type { ProcessTime } from './scheduler.ts';
import { rateLimitAnswer, type RateLimitAnswer, type RetryAfterAsks } from './sim-rate-limit.ts';
import type { SimRandom } from './sim-random.ts';
import { lowerHeaders, pathAndSearch } from './sim-request.ts';
import { SimResponse } from './sim-response.ts';

/**
 * How often each network fault happens, per thousand requests, while faults are on. A fault
 * "before" happens on the way to the venue: the venue never saw the request (`lateBefore`: saw
 * it late); "after" means it acted and the answer was lost or spoiled on the way back.
 */
export interface NetworkFaults {
  readonly dropBefore: number;
  readonly hangBefore: number;
  /**
   * Held on the way (a stalled proxy, a retransmission): it reaches the venue
   * {@link LATE_MIN_MS}-{@link LATE_MAX_MS} late, most often after the sender gave up on it.
   */
  readonly lateBefore: number;
  readonly rateLimited: number;
  /** Of the 429s, how many per thousand carry no Retry-After. */
  readonly rateLimitedBare: number;
  readonly serverErrorBefore: number;
  readonly duplicate: number;
  readonly dropAfter: number;
  readonly hangAfter: number;
  readonly serverErrorAfter: number;
  readonly garbage: number;
  readonly truncated: number;
  /** Each leg is delayed by up to this many virtual ms (reorders concurrent requests). */
  readonly maxDelayMs: number;
}

/** The default mix: every fault a few times per schedule. */
export const DEFAULT_NETWORK_FAULTS: NetworkFaults = {
  dropBefore: 20,
  hangBefore: 10,
  lateBefore: 10,
  rateLimited: 20,
  rateLimitedBare: 500,
  serverErrorBefore: 15,
  duplicate: 15,
  dropAfter: 20,
  hangAfter: 10,
  serverErrorAfter: 10,
  garbage: 8,
  truncated: 8,
  maxDelayMs: 400,
};

/**
 * How late a request held on the way ({@link NetworkFaults.lateBefore}) reaches the venue, in
 * ms: up to longer than the longest life the simulated strategy gives an order plus the clock
 * skew the bot allows (sim-trader.ts, clock/venue-clock.ts; test/unit/simulation/sim-network.test.ts
 * holds them to it), so a copy of an order can land at any moment of its life, and past it,
 * whenever it was sent.
 */
export const LATE_MIN_MS = 1_000;
export const LATE_MAX_MS = 27_000;

/** One request as it leaves the sender, before the network decides anything about it. */
export interface Outgoing {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The sender's wall clock when it sent the request (its expiry checks read that clock). */
  readonly sentAt: number;
  /** Virtual ms since the schedule began when it was sent. */
  readonly sentVirtualMs: number;
}

/** One request as the venue received it, and its answer (before any fault on the way back). */
export interface Delivery extends Outgoing {
  readonly answer: InProcessAnswer;
}

/** What the simulated network needs. */
export interface SimNetworkOptions {
  readonly venue: Pick<InProcessPaperVenue, 'answer'>;
  /** The sending process's timers: its waits for answers (dropped when it dies). */
  readonly time: ProcessTime;
  /**
   * A timer of the network's own, for a request on its way to the venue: neither the sender
   * giving up (a timeout, an abort) nor its death stops a request already sent, so the venue
   * may act on it after the sender stopped waiting.
   */
  readonly wire: (ms: number, arrive: () => void) => void;
  /** Whether the sending process is still alive (a dead one sends nothing). */
  readonly alive: () => boolean;
  /** The sending host's wall clock (skewed and stepped by the schedule). */
  readonly hostNow: () => number;
  /** Holds virtual time while the venue answers (see `VirtualScheduler.hold`). */
  readonly hold: <T>(work: Promise<T>) => Promise<T>;
  readonly random: SimRandom;
  /** Whether faults are on now (off: every request is delivered, answered and delayed only). */
  readonly faulty: () => boolean;
  /** Whether the network is partitioned both ways now (every request is lost on its way). */
  readonly partitioned: () => boolean;
  /** Whether every answer is lost on its way back now (a partition either way). */
  readonly answersLost: () => boolean;
  /** The 429 storm running now, if any: every request that gets through is refused 429. */
  readonly storm: () => RateLimitStorm | undefined;
  /** The venue's wall clock (a 429's `Date` and `Retry-After` dates). */
  readonly venueNow: () => number;
  readonly faults: NetworkFaults;
  /**
   * Told about each request as the sender lets it go, in the sender's own turn: what the sender
   * knew then is what it had done and been told before (whether the request is lost or not).
   * Not told of a request a dead sender's code reached (see {@link alive}).
   */
  readonly sending?: (request: Outgoing) => void;
  /** Told about each request the venue answered (once per delivery, duplicates included). */
  readonly delivered: (delivery: Delivery) => void;
  /** Told about each answer of the venue's that reached the sender as the venue gave it. */
  readonly answered?: (delivery: Delivery) => void;
  /**
   * Told, as the sender gets a 429 with a `Retry-After`, until when it asks the sender to wait
   * (virtual ms since the schedule began).
   */
  readonly toldToWait?: (untilMs: number) => void;
  /** Told about each fault, for the trace. */
  readonly fault: (what: string, path: string) => void;
}

function abortError(signal: AbortSignal | null | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error
    ? reason
    : new DOMException('This operation was aborted', 'AbortError');
}

function response(answer: InProcessAnswer, text = answer.text, status = answer.status): Response {
  // The venue's own text carries its own content-length already; a spoiled one is measured.
  const headers =
    text === answer.text
      ? answer.headers
      : { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) };
  return new SimResponse(text, { status, headers });
}

/** One request as the bot sent it. */
interface Sent {
  readonly method: string;
  readonly path: string;
  readonly search: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly sentAt: number;
  readonly sentVirtualMs: number;
}

/**
 * One request in flight over the simulated network, from its send to its answer (or its loss):
 * each fault is decided as it happens, in one fixed order, so a seed replays exactly.
 */
class Exchange {
  readonly #options: SimNetworkOptions;
  readonly #sent: Sent;
  readonly #signal: AbortSignal | null | undefined;
  readonly #resolve: (response: Response) => void;
  readonly #reject: (error: unknown) => void;
  readonly #cancels: (() => void)[] = [];
  #settled = false;

  constructor(
    options: SimNetworkOptions,
    sent: Sent,
    signal: AbortSignal | null | undefined,
    settle: { resolve: (response: Response) => void; reject: (error: unknown) => void },
  ) {
    this.#options = options;
    this.#sent = sent;
    this.#signal = signal;
    this.#resolve = settle.resolve;
    this.#reject = settle.reject;
  }

  /** Sends the request on its way (its signal has not aborted: `simFetch`). */
  start(): void {
    // This object is the listener (`handleEvent`): no closure made and named per request.
    this.#signal?.addEventListener('abort', this, { once: true });
    this.#toVenue();
  }

  /** The sender's signal fired: the request fails as fetch's does. */
  handleEvent(): void {
    this.#finish(() => this.#reject(abortError(this.#signal)));
  }

  #finish(settle: () => void): void {
    if (this.#settled) return;
    this.#settled = true;
    for (const cancel of this.#cancels) cancel();
    this.#signal?.removeEventListener('abort', this);
    settle();
  }

  #later(ms: number, step: () => void): void {
    this.#cancels.push(this.#options.time.startTimer(ms, step));
  }

  #chance(perMille: number): boolean {
    // Faults are on or off as each one is decided: none is decided once they stopped, even for
    // a request sent before (healed.ts counts on it).
    return this.#options.faulty() && this.#options.random.chance(perMille);
  }

  #delay(): number {
    return this.#options.random.int(0, this.#options.faults.maxDelayMs);
  }

  #fault(what: string): void {
    this.#options.fault(what, this.#sent.path);
  }

  #lost(what: string): void {
    this.#fault(what);
    this.#later(this.#delay(), () =>
      this.#finish(() => this.#reject(new TypeError('fetch failed'))),
    );
  }

  /**
   * Hands the sender `response` after a delay; `intact`: the venue's own answer it carries;
   * `asks`: the wait a 429's `Retry-After` asks.
   */
  #answer(response: () => Response, intact?: InProcessAnswer, asks?: RetryAfterAsks): void {
    this.#later(this.#delay(), () =>
      this.#finish(() => {
        if (asks !== undefined) {
          const now = this.#options.time.monotonic();
          const { venueNow } = this.#options;
          const waitMs = 'afterMs' in asks ? asks.afterMs : asks.untilVenueMs - venueNow();
          this.#options.toldToWait?.(now + waitMs);
        }
        if (intact !== undefined) {
          const { method, path, headers, body, sentAt, sentVirtualMs } = this.#sent;
          this.#options.answered?.({
            method,
            path,
            headers,
            body,
            answer: intact,
            sentAt,
            sentVirtualMs,
          });
        }
        this.#resolve(response());
      }),
    );
  }

  /** On the way to the venue: lost, hung, refused on the way, or delivered. */
  #toVenue(): void {
    const { faults, random } = this.#options;
    if (this.#options.partitioned()) return this.#lost('partition');
    const storm = this.#options.storm();
    if (storm !== undefined) {
      this.#fault('429-storm');
      return this.#rateLimited(
        rateLimitAnswer({ storm }, this.#options.time.monotonic(), this.#options.venueNow()),
      );
    }
    if (this.#chance(faults.dropBefore)) return this.#lost('drop-before');
    if (this.#chance(faults.hangBefore)) return this.#fault('hang-before');
    if (this.#chance(faults.lateBefore)) {
      this.#fault('late-before');
      this.#options.wire(random.int(LATE_MIN_MS, LATE_MAX_MS), () => this.#arrive());
      return;
    }
    if (this.#chance(faults.rateLimited)) {
      const bare = random.chance(faults.rateLimitedBare);
      this.#fault(bare ? '429-bare' : '429');
      return this.#rateLimited(
        rateLimitAnswer({ bare }, this.#options.time.monotonic(), this.#options.venueNow()),
      );
    }
    if (this.#chance(faults.serverErrorBefore)) {
      this.#fault('503-before');
      const text = JSON.stringify({ body: null, message: 'unavailable', status: 503 });
      return this.#refusedOnTheWay(() => new Response(text, { status: 503, headers: {} }));
    }
    this.#options.wire(this.#delay(), () => this.#arrive());
  }

  /** A refusal on the way (a proxy's 429 or 503) goes back as any answer: a partition loses it. */
  #refusedOnTheWay(response: () => Response, asks?: RetryAfterAsks): void {
    if (this.#options.answersLost()) return this.#lost('partition-after');
    this.#answer(response, undefined, asks);
  }

  /** The venue's limiter refused the request (it never reached the venue). */
  #rateLimited({ headers, asks }: RateLimitAnswer): void {
    const text = JSON.stringify({ body: null, message: 'rate limited', status: 429 });
    this.#refusedOnTheWay(() => new Response(text, { status: 429, headers }), asks);
  }

  /** At the venue's door: a partition that began while the request was on its way stops it. */
  #arrive(): void {
    if (this.#options.partitioned()) return this.#lost('partition');
    void this.#atVenue();
  }

  /**
   * The venue answers (twice for a duplicated delivery); then the answer goes back, unless
   * nobody waits for it any more: the sender gave up or died while the request was on its way,
   * and the venue acted on it all the same.
   */
  async #atVenue(): Promise<void> {
    const duplicate = this.#chance(this.#options.faults.duplicate);
    const answer = await this.#venueAnswer();
    if (duplicate) {
      this.#fault('duplicate');
      await this.#venueAnswer();
    }
    if (this.#settled || !this.#options.alive()) {
      this.#fault('landed-after-sender-left');
      return;
    }
    this.#back(answer);
  }

  async #venueAnswer(): Promise<InProcessAnswer> {
    const { method, path, search, headers, body, sentAt, sentVirtualMs } = this.#sent;
    const answer = await this.#options.hold(
      this.#options.venue.answer(method, `${path}${search}`, headers, Buffer.from(body)),
    );
    this.#options.delivered({ method, path, headers, body, answer, sentAt, sentVirtualMs });
    return answer;
  }

  /** On the way back: lost, hung, spoiled, or as the venue gave it. */
  #back(answer: InProcessAnswer): void {
    const { faults } = this.#options;
    if (this.#options.answersLost()) return this.#lost('partition-after');
    if (this.#chance(faults.dropAfter)) return this.#lost('drop-after');
    if (this.#chance(faults.hangAfter)) return this.#fault('hang-after');
    let reply: Response;
    if (this.#chance(faults.serverErrorAfter)) {
      this.#fault('502-after');
      reply = new Response('<html>bad gateway</html>', {
        status: 502,
        headers: { 'content-type': 'text/html' },
      });
    } else if (this.#chance(faults.garbage)) {
      this.#fault('garbage');
      reply = response(answer, '\u0000{"bod');
    } else if (this.#chance(faults.truncated)) {
      this.#fault('truncated');
      reply = response(answer, answer.text.slice(0, answer.text.length >> 1));
    } else {
      this.#answer(() => response(answer), answer);
      return;
    }
    this.#answer(() => reply);
  }
}

/**
 * A `fetch` that carries requests to the in-process venue over a simulated network: every
 * delay, loss, duplicate, 429, 5xx and spoiled body is decided by the schedule's random source,
 * and every wait for an answer is a virtual timer of the process that sent the request (dropped
 * when it dies); the way to the venue is the network's own timer, so a request already sent
 * reaches the venue whatever becomes of its sender.
 */
export function simFetch(options: SimNetworkOptions): typeof fetch {
  return (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    // The synchronous code of a process that died this step can still reach a `fetch`: nothing
    // leaves (nothing is checked or traced), and nothing settles, as in a process that was killed.
    if (!options.alive()) return new Promise<Response>(() => undefined);
    // As fetch does: a signal that aborted already fails the request before anything leaves.
    if (init?.signal?.aborted === true) return Promise.reject(abortError(init.signal));
    const { path, search } = pathAndSearch(input);
    const sent: Sent = {
      method: init?.method ?? 'GET',
      path,
      search,
      headers: lowerHeaders(init),
      body: typeof init?.body === 'string' ? init.body : '',
      sentAt: options.hostNow(),
      sentVirtualMs: options.time.monotonic(),
    };
    options.sending?.(sent);
    return new Promise<Response>((resolve, reject) => {
      new Exchange(options, sent, init?.signal, { resolve, reject }).start();
    });
  };
}

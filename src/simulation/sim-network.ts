import type { IncomingHttpHeaders } from 'node:http';
import type { InProcessAnswer, InProcessPaperVenue } from '../paper/index.ts';
import type { ProcessTime } from './scheduler.ts';
import type { SimRandom } from './sim-random.ts';
import { SimResponse } from './sim-response.ts';

/**
 * How often each network fault happens, per thousand requests, while faults are on. A fault
 * "before" means the venue never saw the request; "after" means it acted and the answer was
 * lost or spoiled on the way back.
 */
export interface NetworkFaults {
  readonly dropBefore: number;
  readonly hangBefore: number;
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

/** One request as the venue received it, and its answer (before any fault on the way back). */
export interface Delivery {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly answer: InProcessAnswer;
}

/** What the simulated network needs. */
export interface SimNetworkOptions {
  readonly venue: InProcessPaperVenue;
  readonly time: ProcessTime;
  /** Holds virtual time while the venue answers (see `VirtualScheduler.hold`). */
  readonly hold: <T>(work: Promise<T>) => Promise<T>;
  readonly random: SimRandom;
  /** Whether faults are on now (off: every request is delivered, answered and delayed only). */
  readonly faulty: () => boolean;
  /** Whether the network is partitioned now (every request is lost). */
  readonly partitioned: () => boolean;
  readonly faults: NetworkFaults;
  /** Told about each request the venue answered (once per delivery, duplicates included). */
  readonly delivered: (delivery: Delivery) => void;
  /** Told about each fault, for the trace. */
  readonly fault: (what: string, path: string) => void;
}

function lowerHeaders(init: RequestInit | undefined): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  new Headers(init?.headers).forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

function abortError(signal: AbortSignal | null | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error
    ? reason
    : new DOMException('This operation was aborted', 'AbortError');
}

function response(answer: InProcessAnswer, text = answer.text, status = answer.status): Response {
  const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) };
  return new SimResponse(text, { status, headers });
}

/**
 * A `fetch` that carries requests to the in-process venue over a simulated network: every
 * delay, loss, duplicate, 429, 5xx and spoiled body is decided by the schedule's random source,
 * and every wait is a virtual timer of the process that sent the request.
 */
export function simFetch(options: SimNetworkOptions): typeof fetch {
  const { venue, time, random, faults } = options;
  const fetchImpl = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? 'GET';
    const headers = lowerHeaders(init);
    const body = typeof init?.body === 'string' ? init.body : '';
    const signal = init?.signal;
    const path = url.pathname;
    return new Promise<Response>((resolve, reject) => {
      let settled = false;
      const cancels: (() => void)[] = [];
      const onAbort = (): void => finish(() => reject(abortError(signal)));
      function finish(settle: () => void): void {
        if (settled) return;
        settled = true;
        for (const cancel of cancels) cancel();
        signal?.removeEventListener('abort', onAbort);
        settle();
      }
      if (signal?.aborted === true) {
        onAbort();
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      const later = (ms: number, step: () => void): void => {
        cancels.push(time.startTimer(ms, step));
      };
      const faulty = options.faulty();
      const chance = (perMille: number): boolean => faulty && random.chance(perMille);
      const delay = (): number => random.int(0, faults.maxDelayMs);
      const lost = (what: string): void => {
        options.fault(what, path);
        later(delay(), () => finish(() => reject(new TypeError('fetch failed'))));
      };
      // On the way to the venue.
      if (options.partitioned()) return lost('partition');
      if (chance(faults.dropBefore)) return lost('drop-before');
      if (chance(faults.hangBefore)) return options.fault('hang-before', path);
      if (chance(faults.rateLimited)) {
        const bare = random.chance(faults.rateLimitedBare);
        options.fault(bare ? '429-bare' : '429', path);
        const text = JSON.stringify({ body: null, message: 'rate limited', status: 429 });
        const extra: Record<string, string> = bare ? {} : { 'retry-after': '1' };
        later(delay(), () =>
          finish(() =>
            resolve(
              new Response(text, {
                status: 429,
                headers: { 'content-type': 'application/json', ...extra },
              }),
            ),
          ),
        );
        return;
      }
      if (chance(faults.serverErrorBefore)) {
        options.fault('503-before', path);
        const text = JSON.stringify({ body: null, message: 'unavailable', status: 503 });
        later(delay(), () =>
          finish(() => resolve(new Response(text, { status: 503, headers: {} }))),
        );
        return;
      }
      later(delay(), () => {
        if (settled) return;
        const duplicate = chance(faults.duplicate);
        const answering = options.hold(
          venue.answer(method, `${path}${url.search}`, headers, Buffer.from(body)),
        );
        void answering.then(async (answer) => {
          options.delivered({ method, path, headers, body, answer });
          if (duplicate) {
            options.fault('duplicate', path);
            const again = await options.hold(
              venue.answer(method, `${path}${url.search}`, headers, Buffer.from(body)),
            );
            options.delivered({ method, path, headers, body, answer: again });
          }
          // On the way back.
          if (options.partitioned()) return lost('partition-after');
          if (chance(faults.dropAfter)) return lost('drop-after');
          if (chance(faults.hangAfter)) return options.fault('hang-after', path);
          let reply: Response;
          if (chance(faults.serverErrorAfter)) {
            options.fault('502-after', path);
            reply = new Response('<html>bad gateway</html>', {
              status: 502,
              headers: { 'content-type': 'text/html' },
            });
          } else if (chance(faults.garbage)) {
            options.fault('garbage', path);
            reply = response(answer, '\u0000{"bod');
          } else if (chance(faults.truncated)) {
            options.fault('truncated', path);
            reply = response(answer, answer.text.slice(0, answer.text.length >> 1));
          } else {
            reply = response(answer);
          }
          later(delay(), () => finish(() => resolve(reply)));
        });
      });
    });
  };
  return fetchImpl;
}

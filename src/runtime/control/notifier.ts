import pRetry from 'p-retry';
import { locatedLine, type Config } from '../../config/index.ts';
import { ErrorCodes, QuantaError, summarizeError } from '../../errors/index.ts';
import type { Logger } from '../../log/logger.ts';
import { systemSleep, systemTimer, type Sleep, type StartTimer } from '../../clock/timers.ts';

/** What an alert is about: one kind per event the issue lists. */
export const ALERT_KINDS = [
  'start',
  'stop',
  'fill',
  'strategy-paused',
  'mode-change',
  'daily-loss-limit',
  'credential-renewal-failing',
  'credentials-refused',
  'data-stale',
  'order-unknown',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** One alert: a kind, a sentence for a person, and JSON details for a machine. */
export interface Alert {
  readonly kind: AlertKind;
  readonly message: string;
  readonly at: number;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** A webhook with its URL resolved (from the config or its environment variable). */
export interface NotifyTarget {
  readonly url: string;
  readonly format: 'json' | 'telegram' | 'slack';
  readonly chatId?: string | number;
  /** Also sent fills. */
  readonly fills: boolean;
}

/**
 * The webhooks of `notify:`, URLs read from their variables.
 *
 * @throws QuantaError `QUANTA_CONFIG_INVALID` (exit 2) naming `notify[i].urlEnv` when its
 *   variable is unset or not an http(s) URL, and `notify[i].url` or `.urlEnv` when the URL holds
 *   a user name or password (fetch refuses it).
 */
export function notifyTargets(
  config: Pick<Config, 'notify' | 'source'>,
  env: NodeJS.ProcessEnv,
): NotifyTarget[] {
  return config.notify.map((target, index) => {
    let url = target.url;
    if (target.urlEnv !== undefined) {
      url = env[target.urlEnv];
      if (url === undefined || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
        throw new QuantaError(
          ErrorCodes.CONFIG_INVALID,
          locatedLine(
            config.source,
            ['notify', index, 'urlEnv'],
            `names ${target.urlEnv}, which does not hold an http(s) URL`,
          ),
          { details: [`export ${target.urlEnv}=https://…`] },
        );
      }
    }
    if (url === undefined) throw new Error('unreachable: the schema asks for url or urlEnv');
    // fetch refuses a URL with a user name or password, so no alert would ever go out; and the
    // refusal quotes it. Said now, without the URL (it holds the secret).
    const parsed = new URL(url);
    if (parsed.username !== '' || parsed.password !== '')
      throw new QuantaError(
        ErrorCodes.CONFIG_INVALID,
        locatedLine(
          config.source,
          ['notify', index, target.urlEnv === undefined ? 'url' : 'urlEnv'],
          'the webhook URL holds a user name or password (user:password@host), which fetch refuses: no alert would be delivered',
        ),
        {
          details: [
            'Give the URL without them; a webhook that needs a secret takes it in its path or query (as Slack and Telegram hooks do).',
          ],
        },
      );
    return {
      url,
      format: target.format,
      ...(target.chatId === undefined ? {} : { chatId: target.chatId }),
      fills: target.fills,
    };
  });
}

/** The request body of an alert in a target's format. */
export function alertBody(alert: Alert, target: NotifyTarget, bot: string): unknown {
  const text = `[quanta ${bot}] ${alert.message}`;
  switch (target.format) {
    case 'slack':
      return { text };
    case 'telegram':
      return { chat_id: target.chatId, text, disable_web_page_preview: true };
    case 'json':
      return {
        kind: alert.kind,
        bot,
        at: new Date(alert.at).toISOString(),
        message: alert.message,
        details: alert.details ?? {},
      };
  }
}

/** Options of {@link Notifier}. */
export interface NotifierOptions {
  readonly targets: readonly NotifyTarget[];
  /** Names the bot in every alert (the state dir, say). */
  readonly bot: string;
  readonly log: Logger;
  /** Per request, answer included. Default 5000. */
  readonly timeoutMs?: number;
  /** Sends of one alert to one target, the first included. Default 3. */
  readonly maxAttempts?: number;
  /** First retry backoff (doubles). Default 500. */
  readonly backoffMs?: number;
  /** Alerts waiting per target; beyond it the oldest is dropped (counted). Default 100. */
  readonly maxQueue?: number;
  /** Starts the per-request and closing deadlines; default real timers (clock/timers.ts). */
  readonly startTimer?: StartTimer;
  /** Waits the backoff between sends; default a real wait (clock/timers.ts). */
  readonly sleep?: Sleep;
}

interface TargetQueue {
  readonly target: NotifyTarget;
  readonly waiting: Alert[];
  busy: boolean;
}

/**
 * Sends alerts to webhooks in the background, never in the order path's way: `notify` only
 * queues (one bounded queue per target, oldest dropped when full) and returns; each target's
 * queue is worked by one sender with a per-request timeout, no redirects, and retries with
 * backoff (p-retry, as order sends). The venue's HTTP client is not used: it parses the venue's
 * envelope, and webhooks answer what they like.
 */
export class Notifier {
  readonly #options: NotifierOptions;
  readonly #queues: TargetQueue[];
  readonly #abort = new AbortController();
  readonly #idle = new Set<() => void>();
  #dropped = 0;
  #sent = 0;
  #failed = 0;

  constructor(options: NotifierOptions) {
    this.#options = options;
    this.#queues = options.targets.map((target) => ({ target, waiting: [], busy: false }));
  }

  /** Whether any target wants fills (fills are frequent: only then are they built). */
  get wantsFills(): boolean {
    return this.#options.targets.some((target) => target.fills);
  }

  /** Alerts dropped because a target's queue was full; sent; given up on after retries. */
  counts(): { dropped: number; sent: number; failed: number } {
    return { dropped: this.#dropped, sent: this.#sent, failed: this.#failed };
  }

  /** Queues an alert for every target that wants it. Never throws, never waits. */
  notify(alert: Alert): void {
    if (this.#abort.signal.aborted) return;
    const maxQueue = this.#options.maxQueue ?? 100;
    for (const queue of this.#queues) {
      if (alert.kind === 'fill' && !queue.target.fills) continue;
      if (queue.waiting.length >= maxQueue) {
        queue.waiting.shift();
        this.#dropped += 1;
        if (this.#dropped === 1 || this.#dropped % 100 === 0)
          this.#options.log.warn(
            { dropped: this.#dropped },
            'alert queue full (webhook slow or down): oldest alerts dropped',
          );
      }
      queue.waiting.push(alert);
      if (!queue.busy) void this.#work(queue);
    }
  }

  async #work(queue: TargetQueue): Promise<void> {
    queue.busy = true;
    try {
      for (let alert = queue.waiting.shift(); alert !== undefined; alert = queue.waiting.shift()) {
        if (this.#abort.signal.aborted) return;
        await this.#deliver(alert, queue.target);
      }
    } finally {
      queue.busy = false;
      if (this.#queues.every((q) => !q.busy && q.waiting.length === 0))
        for (const resolve of this.#idle) resolve();
    }
  }

  async #deliver(alert: Alert, target: NotifyTarget): Promise<void> {
    const { log, timeoutMs = 5000, maxAttempts = 3, backoffMs = 500, bot } = this.#options;
    const body = JSON.stringify(alertBody(alert, target, bot));
    const signal = this.#abort.signal;
    const { startTimer = systemTimer, sleep = systemSleep } = this.#options;
    let tries = 0;
    try {
      await pRetry(
        async () => {
          // The backoff waits on the injected sleep, not on p-retry's own timer (its delays
          // are 0): `backoffMs`, doubling, at most 8 times it, as p-retry's factor 2 gave.
          if (tries > 0) await sleep(Math.min(backoffMs * 2 ** (tries - 1), backoffMs * 8), signal);
          tries += 1;
          // One controller per request, the long-lived close signal listened to only while it
          // runs (AbortSignal.any would stay reachable from it for the life of the bot).
          const request = new AbortController();
          const onClose = (): void => request.abort();
          signal.addEventListener('abort', onClose, { once: true });
          const cancelTimer = startTimer(timeoutMs, () => request.abort());
          try {
            const res = await fetch(target.url, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body,
              redirect: 'manual',
              signal: request.signal,
            });
            await res.body?.cancel().catch(() => undefined);
            if (res.status < 200 || res.status >= 300)
              throw new Error(`webhook answered HTTP ${res.status}`);
          } finally {
            cancelTimer();
            signal.removeEventListener('abort', onClose);
          }
        },
        {
          retries: maxAttempts - 1,
          minTimeout: 0,
          maxTimeout: 0,
          randomize: false,
          signal,
        },
      );
      this.#sent += 1;
    } catch (error) {
      if (signal.aborted) return;
      this.#failed += 1;
      // The URL may hold a secret (Slack, Telegram): only its origin is logged, and an error
      // that quotes the URL (fetch's do) has it cut to that origin too.
      const parsed = new URL(target.url);
      const origin = parsed.origin;
      const summary = summarizeError(error);
      const err = {
        ...summary,
        message: summary.message
          .split(target.url)
          .join(`${origin}/…`)
          .split(parsed.href)
          .join(`${origin}/…`),
      };
      log.warn(
        { kind: alert.kind, webhook: origin, err },
        `alert ${alert.kind} not delivered after ${maxAttempts} attempts`,
      );
    }
  }

  /**
   * Waits up to `timeoutMs` for queued alerts to go out (the stop alert among them), then stops
   * whatever is left.
   */
  async close(timeoutMs: number): Promise<void> {
    const idle = new Promise<void>((resolve) => {
      if (this.#queues.every((q) => !q.busy && q.waiting.length === 0)) resolve();
      else this.#idle.add(resolve);
    });
    let cancelTimer: (() => void) | undefined;
    const deadline = new Promise<void>((resolve) => {
      cancelTimer = (this.#options.startTimer ?? systemTimer)(timeoutMs, resolve);
    });
    await Promise.race([idle, deadline]);
    cancelTimer?.();
    this.#abort.abort();
  }
}

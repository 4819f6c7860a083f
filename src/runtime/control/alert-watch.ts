import type { ExecutorStats } from '../../execution/executor.ts';
import type { OrderRecord } from '../../execution/order-record.ts';
import type { ModeChange } from '../../execution/trading-mode.ts';
import type { Snapshot } from '../../market/snapshot.ts';
import { formatX18 } from '../../money/index.ts';
import type { Fill } from '../../domain/index.ts';
import { summarizeError } from '../../errors/index.ts';
import { REFUSED_EVERY_KEY_HINT, type CredentialRefusal } from '../../account/refusal-spacing.ts';
import type { Alert } from './notifier.ts';

const DAY_MS = 86_400_000;

/** Options of {@link AlertWatch}. */
export interface AlertWatchOptions {
  /** Where alerts go (the notifier's queue; never waits). */
  readonly notify: (alert: Alert) => void;
  /** Whether fills are wanted at all. */
  readonly wantsFills: boolean;
  readonly now: () => number;
  readonly pausedStrategies: () => readonly string[];
  /** Why a strategy is paused (its worker ran out of memory, 3 timeouts in a row, …). */
  readonly pauseReasonOf?: (name: string) => string | undefined;
  readonly refusals: () => ExecutorStats['refusals'];
  /** A market's symbol (its id when unknown). */
  readonly symbolOf: (marketId: number) => string;
  /** `poll.staleAfterMs`: data older than this is stale. */
  readonly staleAfterMs: number;
}

/**
 * Turns what happens in a bot into alerts, each once per event: start and stop, fills, a
 * strategy paused, a mode change, the daily loss limit reached (once per UTC day), credential
 * renewal starting to fail (again after it recovered), the venue refusing a key's credentials
 * (once a key), data turning stale (again after fresh data), an order ending UNKNOWN. Cheap checks after each traded snapshot; nothing here waits.
 */
export class AlertWatch {
  readonly #options: AlertWatchOptions;
  #paused = new Set<string>();
  #stale = false;
  #renewalFailing = false;
  #lossLimitDay: number | undefined;
  #lossLimitRefusals = 0;

  constructor(options: AlertWatchOptions) {
    this.#options = options;
  }

  #send(kind: Alert['kind'], message: string, details?: Record<string, unknown>): void {
    this.#options.notify({
      kind,
      message,
      at: this.#options.now(),
      ...(details === undefined ? {} : { details }),
    });
  }

  started(details: Record<string, unknown>): void {
    this.#send('start', 'bot started', details);
  }

  stopped(details: Record<string, unknown>): void {
    this.#send('stop', 'bot stopped', details);
  }

  fill(strategy: string, fill: Fill): void {
    if (!this.#options.wantsFills) return;
    const symbol = this.#options.symbolOf(fill.marketId);
    this.#send('fill', `${strategy}: ${fill.side} ${fill.amount} ${symbol} at ${fill.price}`, {
      strategy,
      orderId: fill.orderId,
      symbol,
      side: fill.side,
      amount: fill.amount,
      price: fill.price,
    });
  }

  modeChanged(change: ModeChange): void {
    this.#send('mode-change', `trading mode ${change.from} → ${change.to} (${change.source})`, {
      from: change.from,
      to: change.to,
      source: change.source,
    });
  }

  /** How a credential renewal ended (undefined: it succeeded). */
  renewal(error: unknown): void {
    if (error === undefined) {
      this.#renewalFailing = false;
      return;
    }
    if (this.#renewalFailing) return;
    this.#renewalFailing = true;
    const reason = summarizeError(error).message;
    this.#send('credential-renewal-failing', `credential renewal failing: ${reason}`, { reason });
  }

  /** The venue refused a signing key's credentials (a 401: revoked). */
  credentialsRefused(refusal: CredentialRefusal): void {
    const { signer, newest, waitMs, inARow, signingRefusal, registering } = refusal;
    let then: string;
    if (newest && registering)
      then =
        waitMs === 0
          ? 'orders are refused until the new key being registered now is in place'
          : `${inARow} keys refused in a row: orders are refused until the new key being registered now is in place; if that fails, the next one registers in ${Math.ceil(waitMs / 1000)} s (${REFUSED_EVERY_KEY_HINT})`;
    else if (!newest)
      then =
        signingRefusal === undefined
          ? 'an earlier key; the newest still signs'
          : `an earlier key; orders cannot be signed either: ${signingRefusal}`;
    else if (waitMs === 0) then = 'orders are refused until a new key registers, at the next poll';
    else
      then = `${inARow} keys refused in a row: orders are refused until a new key registers in ${Math.ceil(waitMs / 1000)} s (${REFUSED_EVERY_KEY_HINT})`;
    this.#send(
      'credentials-refused',
      `the venue refused the credentials of signing key ${signer}: ${then}`,
      { signer, newest, waitMs, inARow, registering },
    );
  }

  /** An order's journal row changed. */
  orderUpdated(record: OrderRecord): void {
    if (record.state !== 'UNKNOWN') return;
    this.#send(
      'order-unknown',
      `order ${record.id} (${record.side} ${formatX18(record.amountX18)} ${record.symbol}) ended UNKNOWN: ${record.error ?? 'no answer'}; check the venue`,
      { orderId: record.id, strategy: record.strategy, symbol: record.symbol, error: record.error },
    );
  }

  /** After each traded snapshot: paused strategies, stale data, the daily loss limit. */
  traded(snapshot: Snapshot): void {
    const { now, staleAfterMs } = this.#options;
    for (const name of this.#options.pausedStrategies()) {
      if (this.#paused.has(name)) continue;
      this.#paused.add(name);
      const reason = this.#options.pauseReasonOf?.(name);
      this.#send(
        'strategy-paused',
        `strategy ${name} paused${reason === undefined ? ' after repeated failures or timeouts' : `: ${reason}`}`,
        { strategy: name },
      );
    }
    // Strategies resumed by command may be paused (and alerted) again.
    this.#paused = new Set(
      [...this.#paused].filter((name) => this.#options.pausedStrategies().includes(name)),
    );

    if (snapshot.stale && !this.#stale) {
      this.#stale = true;
      this.#send('data-stale', `venue data stale for more than ${staleAfterMs} ms`, {
        staleAfterMs,
      });
    } else if (!snapshot.stale) {
      this.#stale = false;
    }

    const refused = this.#options.refusals().DAILY_LOSS_LIMIT ?? 0;
    if (refused > this.#lossLimitRefusals) {
      this.#lossLimitRefusals = refused;
      const day = Math.floor(now() / DAY_MS);
      if (day !== this.#lossLimitDay) {
        this.#lossLimitDay = day;
        this.#send(
          'daily-loss-limit',
          'daily loss limit reached: only reducing orders are sent until tomorrow (UTC)',
        );
      }
    }
  }
}

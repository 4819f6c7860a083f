import { CredentialStore } from '../account/credential-store.ts';
import type { OrderJournal } from '../execution/journal.ts';
import type { OrderRecord } from '../execution/order-record.ts';
import type { SimOrder } from '../sim/index.ts';
import { EPOCH_MS } from './sim-setup.ts';
import type { ViolationLog } from './invariants.ts';
import { JournalRows } from './journal-rows.ts';
import type { Delivery, Outgoing } from './sim-network.ts';
import type { Trace } from './trace.ts';

/** An order the venue accepted. */
export interface AcceptedOrder {
  readonly venueOrderId: number;
  readonly signature: string;
  readonly marketId: number;
  /** Virtual ms since the schedule started. */
  readonly at: number;
}

/** The process a delivery came from. */
export interface Sender {
  readonly pid: number;
  /** Set when it was started on a journal the schedule damaged: it must send nothing. */
  readonly damaged?: string;
  /** The journal it opened, once it has (read when it sends). */
  readonly journal?: OrderJournal | undefined;
}

/** What {@link VenueWatch} needs. */
export interface VenueWatchOptions {
  readonly trace: Trace;
  readonly violations: ViolationLog;
  /** Virtual ms since the schedule started. */
  readonly at: () => number;
  /** The venue's clock (true time). */
  readonly venueNow: () => number;
  /** The signature header's name, lowercased. */
  readonly signatureHeader: string;
  /** The signer-address header's name, lowercased. */
  readonly signerHeader: string;
  /** The furthest an expiry may be from the venue's time when an order arrives (I6). */
  readonly horizonMs: number;
  /** The bot's request timeout (`venue.timeoutMs`): how long it waits for an answer. */
  readonly requestTimeoutMs: number;
  /** The clock skew the bot allows (`MAX_CLOCK_SKEW_MS`). */
  readonly allowedSkewMs: number;
  /** The journal of the process that runs now, if it opened one. */
  readonly journal: () => OrderJournal | undefined;
  /** The venue's record of one of the bot's orders, by venue order id. */
  readonly venueOrder: (venueOrderId: number) => SimOrder | undefined;
  /** The bot's credential file: what it says is refused binds every later process (I5). */
  readonly credentialsPath: string;
}

/**
 * Reads every request as the bot sends it, every request the venue answered, and the answers
 * that reached the bot, and checks the invariants a request can break (I1, I2, I5's credential
 * half, I6, I7's "places no order"), keeping what the venue accepted for the checks at the end.
 * What the bot alone decides (a journal row before the send, no send past the expiry on its own
 * clock, nothing with refused credentials, nothing from a damaged journal) is checked as the
 * request leaves the process, so a request the network then loses is checked too.
 */
export class VenueWatch {
  readonly #options: VenueWatchOptions;
  /** What the venue accepted, by signature. */
  readonly accepted = new Map<string, AcceptedOrder>();
  /** Which journal row holds a signature (without reading every row per order). */
  readonly #rows = new JournalRows();
  /** The venue order of each journal row. */
  readonly #venueOrderOfRow = new Map<number, number>();
  /** Orders the venue accepted while no process had a journal open, to check in the next one. */
  readonly #awaitingJournal: {
    readonly signature: string;
    readonly venueOrderId: number;
    readonly at: number;
  }[] = [];
  /**
   * By process: signing keys (lowercase) the venue refused (401) in an answer that process got,
   * or that the credential file said were refused when the process started, and how it knew.
   * A process knows only what it was told or read: the credential file keeps a refusal for the
   * next one, but a crash (or a full disk) can come before it is written.
   */
  readonly #refusedTo = new Map<number, Map<string, string>>();
  /** By process: until when the 429s it got ask it to wait, and when it was told so (virtual ms). */
  readonly #toldToWait = new Map<number, { readonly at: number; readonly until: number }>();

  constructor(options: VenueWatchOptions) {
    this.#options = options;
  }

  /**
   * Told about each answer that reached the bot as the venue gave it: a 401 tells it that the
   * venue refused the credentials of the request's signing key (I5: nothing more goes out with
   * them).
   */
  answered(delivery: Delivery, sender: Sender): void {
    if (delivery.answer.status !== 401) return;
    const signer = this.#signerOf(delivery);
    if (signer === '') return;
    const refused = this.#refusedOf(sender.pid);
    if (!refused.has(signer))
      refused.set(signer, `which the venue had refused to the bot at ${this.#options.at()} ms`);
  }

  /**
   * Process `pid` starts: it knows the keys its credential file marks refused (by an earlier
   * process: the file is the process's own from now on). Read here, before the process runs,
   * so that nothing the watch does can fail inside the bot's own calls.
   */
  started(pid: number): void {
    const refused = new Map<string, string>();
    const stored = new CredentialStore(this.#options.credentialsPath).load({ tightenMode: false });
    for (const { signerAddress, refusedAt } of stored)
      if (refusedAt !== undefined)
        refused.set(
          signerAddress.toLowerCase(),
          `which the credential file marked refused (at ${refusedAt - EPOCH_MS} ms on the bot's clock) when process ${pid} started`,
        );
    this.#refusedTo.set(pid, refused);
  }

  /**
   * The signing keys (lowercase) process `pid` knows the venue refused: told in an answer, or
   * read from its credential file at its start; none without a process.
   */
  refusalsKnownTo(pid: number | undefined): ReadonlySet<string> {
    return new Set(pid === undefined ? [] : this.#refusedTo.get(pid)?.keys());
  }

  /** The keys `pid` knows are refused (see {@link started}). */
  #refusedOf(pid: number): Map<string, string> {
    let refused = this.#refusedTo.get(pid);
    if (refused === undefined) {
      refused = new Map<string, string>();
      this.#refusedTo.set(pid, refused);
    }
    return refused;
  }

  /** The signing key a request went with (lowercase), `''` when it carried none. */
  #signerOf(delivery: Outgoing): string {
    return String(delivery.headers[this.#options.signerHeader] ?? '').toLowerCase();
  }

  /**
   * `sender` got a 429 whose `Retry-After` asks it to wait until `untilMs` (virtual) (I8): it
   * sends nothing until then. A request it had let go before is not its to stop.
   */
  toldToWait(untilMs: number, sender: Sender): void {
    const told = this.#toldToWait.get(sender.pid);
    // A 429 asking less than a wait already running changes nothing (nor when that wait began).
    if (told !== undefined && told.until >= untilMs) return;
    this.#toldToWait.set(sender.pid, { at: this.#options.at(), until: untilMs });
  }

  /** Told about each request as `sender` lets it go (see the class doc). */
  sending(request: Outgoing, sender: Sender): void {
    const { violations } = this.#options;
    const told = this.#toldToWait.get(sender.pid);
    // A request let go in the same virtual ms as the 429 reached the process may have been under
    // way already (its permit granted before the bot read the answer): only later ones count.
    if (told !== undefined && request.sentVirtualMs > told.at && request.sentVirtualMs < told.until)
      violations.violate(
        'waitsRetryAfter',
        `${request.method} ${request.path} left process ${sender.pid} at ${request.sentVirtualMs} ms, though a 429 it got at ${told.at} ms asked it to wait until ${told.until} ms`,
      );
    const signer = this.#signerOf(request);
    const refused = this.#refusedOf(sender.pid);
    const how = signer === '' ? undefined : refused.get(signer);
    if (how !== undefined)
      violations.violate(
        'durable',
        `${request.method} ${request.path} went out at ${request.sentVirtualMs} ms with the credentials of signing key ${signer}, ${how}`,
      );
    if (request.method !== 'POST' || request.path !== '/api/v1/order') return;
    const signature = String(request.headers[this.#options.signatureHeader] ?? '');
    const short = `${signature.slice(0, 12)}…`;
    if (sender.damaged !== undefined)
      violations.violate(
        'refusesDamage',
        `process ${sender.pid}, started on a journal with ${sender.damaged}, sent order ${short}`,
      );
    const journal = sender.journal;
    if (journal === undefined || this.#rows.rowIdOf(journal, signature) === undefined)
      violations.violate(
        'oneVenueOrder',
        `order ${short} left process ${sender.pid} with no row in its journal`,
      );
    const body = JSON.parse(request.body) as { expiryTs: number };
    // The bot's part: it sends nothing its own clock says has expired. Its clock may be off the
    // venue's within the skew it allows, and the request takes time on the way: so an order can
    // reach the venue after its expiry, and the venue must then refuse it.
    if (request.sentAt >= body.expiryTs)
      violations.violate(
        'notAfterExpiry',
        `order ${short} left the bot at ${request.sentAt - EPOCH_MS} ms on its own clock, its expiryTs is ${body.expiryTs - EPOCH_MS} ms`,
      );
  }

  /** Told about one delivery (duplicates included). */
  delivered(delivery: Delivery): void {
    const { trace, violations, venueNow } = this.#options;
    const at = this.#options.at();
    if (delivery.method !== 'POST' || delivery.path !== '/api/v1/order') {
      trace.add(at, `${delivery.method} ${delivery.path} ${delivery.answer.status}`);
      return;
    }
    const signature = String(delivery.headers[this.#options.signatureHeader] ?? '');
    const body = JSON.parse(delivery.body) as { expiryTs: number; marketId: number };
    const answer = JSON.parse(delivery.answer.text) as {
      body: { id: number } | null;
      message: string;
    };
    trace.add(
      at,
      `order ${signature.slice(0, 10)} exp ${body.expiryTs - EPOCH_MS} -> ${delivery.answer.status} ${answer.body?.id ?? answer.message}`,
    );
    const short = `${signature.slice(0, 12)}…`;
    const ahead = body.expiryTs - venueNow();
    if (ahead <= 0 && delivery.answer.status === 200)
      violations.violate(
        'notAfterExpiry',
        `the venue accepted order ${short} at ${venueNow() - EPOCH_MS} ms, its expiryTs is ${body.expiryTs - EPOCH_MS} ms`,
      );
    if (ahead > this.#options.horizonMs)
      violations.violate(
        'expiryHorizon',
        `order ${short} reached the venue ${ahead} ms before its expiry, more than the ${this.#options.horizonMs} ms allowed`,
      );
    // Orders go out only with a credential valid for longer than the request timeout plus the
    // clock skew the bot allows, on its own clock; lookups with any unexpired one (the venue
    // refusing a late lookup costs nothing). So only an order answered "expired" breaks I5, and
    // only one that reached the venue within that margin, as the sender's clock made it then:
    // one held on the way longer (the network's `lateBefore`) outlives it, and the venue
    // refusing it costs nothing either.
    if (
      delivery.answer.status === 401 &&
      answer.message.includes('expired') &&
      at - delivery.sentVirtualMs <= this.#sendMarginMs(delivery)
    )
      violations.violate(
        'durable',
        `order ${short} was sent with an expired credential (${answer.message})`,
      );
    if (delivery.answer.status !== 200 || answer.body === null) return;
    this.#accepted(signature, answer.body.id, body.marketId, at);
  }

  /**
   * How long after its send an order must still find its credential valid: the request timeout
   * plus the allowed skew, less how far the sender's clock was behind the venue's (more when
   * ahead), never less than the timeout (a clock further behind than allowed is no excuse).
   */
  #sendMarginMs(sent: Outgoing): number {
    const aheadMs = sent.sentAt - (EPOCH_MS + sent.sentVirtualMs);
    const { requestTimeoutMs, allowedSkewMs } = this.#options;
    return requestTimeoutMs + Math.max(0, allowedSkewMs + aheadMs);
  }

  #accepted(signature: string, venueOrderId: number, marketId: number, at: number): void {
    const { violations } = this.#options;
    const short = `${signature.slice(0, 12)}…`;
    if (this.accepted.has(signature))
      violations.violate('oneVenueOrder', `signature ${short} accepted twice`);
    this.accepted.set(signature, { venueOrderId, signature, marketId, at });
    const journal = this.#options.journal();
    if (journal === undefined) this.#awaitingJournal.push({ signature, venueOrderId, at });
    else this.#checkRow(journal, signature, venueOrderId);
  }

  /**
   * A process opened its journal: the orders the venue accepted while none was open (sent by a
   * process that then died, landing before the next one opened the file) must have their rows
   * in it, as every committed row must. A schedule that ends before another journal is opened
   * leaves them unchecked here; I4 reports that no bot was trading then (converged.ts).
   */
  journalOpened(journal: OrderJournal): void {
    for (const { signature, venueOrderId, at } of this.#awaitingJournal.splice(0))
      this.#checkRow(journal, signature, venueOrderId, at);
  }

  /**
   * The order the venue accepted has one row in `journal`, that row is that order, and no other.
   * @param acceptedAt - when the venue accepted it, when that was while no journal was open.
   */
  #checkRow(
    journal: OrderJournal,
    signature: string,
    venueOrderId: number,
    acceptedAt?: number,
  ): void {
    const { violations } = this.#options;
    const short = `${signature.slice(0, 12)}…`;
    const rowId = this.#rows.rowIdOf(journal, signature);
    if (rowId === undefined) {
      const when =
        acceptedAt === undefined
          ? ''
          : ` (accepted at ${acceptedAt} ms, while no process had its journal open)`;
      violations.violate(
        'oneVenueOrder',
        `venue order ${venueOrderId} has no journal row (signature ${short})${when}`,
      );
      return;
    }
    const unlike = unlikeItsRow(journal.get(rowId), this.#options.venueOrder(venueOrderId));
    if (unlike !== undefined)
      violations.violate(
        'oneVenueOrder',
        `venue order ${venueOrderId} is not the order of journal row ${rowId}: ${unlike}`,
      );
    const before = this.#venueOrderOfRow.get(rowId);
    if (before !== undefined && before !== venueOrderId)
      violations.violate(
        'oneVenueOrder',
        `journal row ${rowId} has two venue orders: ${before} and ${venueOrderId}`,
      );
    this.#venueOrderOfRow.set(rowId, venueOrderId);
  }
}

/**
 * How the venue's order differs from what its journal row says was asked (market, side, type,
 * amount, price, reduce-only, expiry), or undefined. The row's values are the ones the bot
 * checked and books against; the venue acts on the signed body: a body built from other values
 * than the row's would trade what no check saw.
 */
export function unlikeItsRow(row: OrderRecord, order: SimOrder | undefined): string | undefined {
  if (order === undefined) return 'the venue has no such order';
  const asked: readonly (readonly [string, unknown, unknown])[] = [
    ['market', row.marketId, order.marketId],
    ['side', row.side, order.side],
    ['type', row.type, order.type],
    ['amount', row.amountX18, order.amountX18],
    ['price', row.priceX18, order.priceX18],
    ['reduce-only', row.reduceOnly, order.isReduce],
    ['expiry', row.expiryTs, order.expiryTs],
  ];
  const differs = asked.find(([, mine, theirs]) => mine !== theirs);
  return differs === undefined
    ? undefined
    : `${differs[0]} ${String(differs[1])} in the row, ${String(differs[2])} at the venue`;
}

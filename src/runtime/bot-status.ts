import type { Config } from '../config/index.ts';
import { OPEN_ORDER_STATES, UNRESOLVED_STATES, type OrderState } from '../domain/index.ts';
import { OrderJournal } from '../execution/journal.ts';
import type { OrderRecord } from '../execution/order-record.ts';
import { Portfolio } from '../execution/portfolio.ts';
import {
  effectiveMode,
  MODE_SCOPE,
  readKillSwitchFile,
  isHaltMode,
  type TradingMode,
} from '../execution/trading-mode.ts';
import { formatX18 } from '../money/index.ts';
import { keptPrecision } from './kept-precision.ts';
import { credentialsPathOf, journalPathOf } from './state-paths.ts';
import { CredentialStore } from '../account/credential-store.ts';
import { summarizeError } from '../errors/index.ts';

/** One order as `quanta status` shows it (decimal strings). */
export interface StatusOrder {
  readonly id: number;
  readonly strategy: string;
  readonly symbol: string;
  readonly side: string;
  readonly type: string;
  readonly amount: string;
  readonly price: string;
  readonly state: OrderState;
  readonly filled: string;
  readonly updatedAt: string;
  readonly error: string | null;
}

/** What `quanta status` reports about a bot, running or stopped, read from its journal. */
export interface BotStatus {
  readonly journal: string;
  /** The mode in effect at the next start or now: the commanded one, or the kill-switch file's. */
  readonly mode: TradingMode;
  readonly positions: readonly {
    symbol: string;
    amount: string;
    avgEntryPrice: string;
    /**
     * Fraction digits of the market's tick, what a terminal rounds the average entry price to:
     * the venue listing's, as the bot kept it in the journal at start; for a journal without it
     * (written before bots kept it), as the journaled prices show it (the most any limit or
     * reference price of its orders has). Null when neither is there.
     */
    priceDecimals: number | null;
    /** Where `priceDecimals` comes from. */
    tickFrom: 'venue listing' | 'journaled prices' | null;
    realizedPnl: string;
    fees: string;
  }[];
  readonly openOrders: readonly StatusOrder[];
  readonly unresolvedOrders: readonly StatusOrder[];
  readonly lastOrders: readonly StatusOrder[];
  readonly ordersByState: Partial<Record<OrderState, number>>;
  /** The signing keys kept in the state dir's credential file (no secret), or why it could not be read. */
  readonly credentials: StatusCredentials;
}

/** The credential file as `quanta status` shows it: addresses and times, never a secret. */
export interface StatusCredentials {
  readonly file: string;
  /** Newest first, for every venue and subaccount the file holds. */
  readonly keys: readonly {
    signer: string;
    venue: string;
    expiresAt: string;
    /** When the venue refused it (a 401: revoked), or null. */
    refusedAt: string | null;
  }[];
  /** Why the file could not be read, or null. */
  readonly error: string | null;
}

/**
 * The credential file of `config`'s state dir (an absent file: no keys), read without writing
 * anything: neither the folder an embedded venue's bot empties at start nor the file's mode.
 */
function statusCredentials(config: Config): StatusCredentials {
  const file = credentialsPathOf(config.state.dir, config.venue);
  try {
    const keys = new CredentialStore(file).load({ tightenMode: false }).map((c) => ({
      signer: c.signerAddress,
      venue: c.venue,
      expiresAt: new Date(c.expiryTs).toISOString(),
      refusedAt: c.refusedAt === undefined ? null : new Date(c.refusedAt).toISOString(),
    }));
    return { file, keys, error: null };
  } catch (error) {
    return { file, keys: [], error: summarizeError(error).message };
  }
}

/**
 * Reads a bot's state from its journal alone (positions rebuilt from the fills at the fees
 * recorded with them, open and unresolved orders, the last orders, the trading mode), read-only
 * and safe beside the running bot.
 *
 * @throws QuantaError `QUANTA_JOURNAL` when the bot has no journal there yet.
 */
export function readBotStatus(config: Config, lastOrders = 10): BotStatus {
  const path = journalPathOf(config.state.dir, config.venue);
  const journal = OrderJournal.openReadOnly(path);
  try {
    const portfolio = new Portfolio();
    const symbols = new Map<number, string>();
    const priceDecimals = new Map<number, number>();
    for (const record of journal.all()) {
      symbols.set(record.marketId, record.symbol);
      for (const price of [record.priceX18, record.referencePriceX18]) {
        if (price === null || price === 0n) continue;
        const digits = fractionDigits(price);
        if (digits > (priceDecimals.get(record.marketId) ?? -1))
          priceDecimals.set(record.marketId, digits);
      }
      // Journals older than per-order fees have none recorded: shown without (the bot itself
      // prices them at the taker rate from the venue's listing, which is not read here).
      portfolio.bookRecord(record, record.feesX18 ?? 0n);
    }
    const commanded = journal.kvGet(MODE_SCOPE, 'mode');
    const file =
      config.risk.killSwitchFile === undefined
        ? undefined
        : readKillSwitchFile(config.risk.killSwitchFile)?.mode;
    return {
      journal: path,
      // The bot's own rule: the stricter of the commanded mode and the kill-switch file's.
      mode: effectiveMode(
        commanded !== undefined && isHaltMode(commanded) ? commanded : 'trading',
        file,
      ),
      positions: portfolio.account.entries().map(([marketId, p]) => {
        const listed = keptPrecision(journal, marketId);
        const inferred = priceDecimals.get(marketId);
        return {
          symbol: symbols.get(marketId) ?? String(marketId),
          amount: formatX18(p.amountX18),
          avgEntryPrice: formatX18(p.avgEntryPriceX18),
          // A tick of 10 or 100 (a negative expo) shows whole numbers.
          priceDecimals: listed !== undefined ? Math.max(0, listed.priceExpo) : (inferred ?? null),
          tickFrom:
            listed !== undefined
              ? 'venue listing'
              : inferred !== undefined
                ? 'journaled prices'
                : null,
          realizedPnl: formatX18(p.realizedPnlX18),
          fees: formatX18(p.feesX18),
        };
      }),
      openOrders: journal.inStates(OPEN_ORDER_STATES).map(statusOrder),
      unresolvedOrders: journal.inStates(UNRESOLVED_STATES).map(statusOrder),
      lastOrders: journal.latest(lastOrders).map(statusOrder),
      ordersByState: journal.countByState(),
      credentials: statusCredentials(config),
    };
  } finally {
    journal.close();
  }
}

/** Fraction digits an x18 value has once trailing zeros are dropped. */
function fractionDigits(valueX18: bigint): number {
  return formatX18(valueX18).split('.')[1]?.length ?? 0;
}

function statusOrder(record: OrderRecord): StatusOrder {
  return {
    id: record.id,
    strategy: record.strategy,
    symbol: record.symbol,
    side: record.side,
    type: record.type,
    amount: formatX18(record.amountX18),
    price: formatX18(record.priceX18),
    state: record.state,
    filled: formatX18(record.filledX18),
    updatedAt: new Date(record.updatedAt).toISOString(),
    error: record.error,
  };
}

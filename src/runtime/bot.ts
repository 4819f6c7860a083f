import { existsSync } from 'node:fs';
import { CredentialManager } from '../account/credential-manager.ts';
import { CredentialStore } from '../account/credential-store.ts';
import { readWalletKey } from '../account/wallet-key.ts';
import type { Config } from '../config/index.ts';
import type { Executor, ExecutorStats } from '../execution/executor.ts';
import { OrderJournal } from '../execution/journal.ts';
import type { ProducedIntent } from '../execution/trading-session.ts';
import { buildTradingStack } from './trading-stack.ts';
import type { Logger } from '../log/logger.ts';
import { Poller } from '../market/poller.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { formatX18 } from '../money/index.ts';
import { summarizeError } from '../errors/index.ts';
import { checkStrategySymbols } from '../strategy/check-symbols.ts';
import { prepareStrategies } from '../strategy/prepare-strategies.ts';
import { getQuotes, listMarkets, type VenueConnection } from '../venue/endpoints/index.ts';
import { resolveVenue, type VenueEndpoints } from './embedded-venue.ts';
import {
  credentialOrderSigner,
  httpOrderLookup,
  httpOrderSubmitter,
} from './http-order-submitter.ts';
import { signingDomainOf } from './signing-domain.ts';
import { firstListing } from './first-listing.ts';
import { logStartBanner } from './start-banner.ts';
import { lockStateDir } from './state-lock.ts';
import { statePaths } from './state-paths.ts';
import { sleep as realSleep } from './sleep.ts';

const STATUS_EVERY_MS = 60_000;

/** Options of {@link startBot}. */
export interface BotOptions {
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly log: Logger;
  /** Project root: strategy modules are also looked up here. */
  readonly projectRoot: string;
  readonly now?: () => number;
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Told about every snapshot (the recorder). */
  readonly onSnapshot?: (snapshot: Snapshot) => void;
  /** Told about every intent a strategy produced. */
  readonly onIntent?: (produced: ProducedIntent) => void;
}

/** What a finished run reports. */
export interface RunSummary {
  readonly snapshots: number;
  readonly stats: ExecutorStats;
  readonly positions: { symbol: string; amount: string; realizedPnl: string; fees: string }[];
  readonly pausedStrategies: string[];
  readonly drained: boolean;
}

/** A started bot: venue reachable, credentials valid, journal open, strategies initialized. */
export interface Bot {
  readonly venue: VenueEndpoints;
  readonly journal: OrderJournal;
  readonly executor: Executor;
  /** Polls and trades until `signal` aborts. */
  run(signal: AbortSignal): Promise<void>;
  /** Drains in-flight orders (bounded by `execution.drainTimeoutMs`), stops strategies, closes everything. */
  shutdown(): Promise<RunSummary>;
}

/**
 * Starts a bot: resolves the venue (starting the embedded paper venue if asked), registers or
 * reuses credentials, opens the journal, loads strategies and recovers orders left in flight.
 *
 * @throws QuantaError with the code that decides the exit status (config, credentials, venue).
 */
export async function startBot(options: BotOptions): Promise<Bot> {
  const { config, log } = options;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  // Strategy modules and params first: a typo is reported before any venue is contacted.
  const strategies = await prepareStrategies(
    config.strategies,
    [options.projectRoot],
    config.source,
  );
  const venue = await resolveVenue(config);
  const cleanup: (() => Promise<void> | void)[] = [async () => venue.embedded?.close()];
  try {
    return await assemble();
  } catch (error) {
    for (const step of cleanup.reverse()) await step();
    throw error;
  }

  async function assemble(): Promise<Bot> {
    // One bot per state.dir, and a state.dir that can be written, before anything is emptied,
    // registered or sent (issue 12).
    const stateLock = lockStateDir(config.state.dir);
    cleanup.push(() => stateLock.release());
    const paths = statePaths(config.state.dir, config.venue);
    const domain = signingDomainOf(config);
    const timeoutMs = config.venue.timeoutMs;
    const write: VenueConnection = { baseUrl: venue.writeUrl, timeoutMs };
    const read: VenueConnection = { baseUrl: venue.readUrl, timeoutMs };
    if (venue.embedded !== undefined)
      log.info({ url: venue.embedded.url }, 'embedded paper venue listening');

    // Market parameters are needed to check the configured symbols and to book recovered fills
    // with the right fees: without them the bot does not start (fail closed).
    const initialMarkets = await firstListing(read, log);
    checkStrategySymbols(
      strategies,
      new Set(initialMarkets.map((market) => market.symbol)),
      'the venue',
      config.source,
    );
    logStartBanner(log, { config, venue, strategies });

    const walletKey = readWalletKey(
      config.wallet.privateKeyEnv,
      options.env,
      venue.embedded === undefined ? undefined : paths.paperWalletKey,
    );
    const credentials = new CredentialManager({
      store: new CredentialStore(paths.credentials),
      connection: write,
      brokerId: config.venue.brokerId,
      subaccountIndex: config.venue.subaccount,
      chainId: config.venue.chainId,
      domain,
      headerPrefix: config.venue.headerPrefix,
      walletPrivateKey: walletKey,
      renewMarginMs: config.venue.renewMarginMs,
      credentialTtlMs: config.venue.credentialTtlMs,
      now,
      log: log.child({ part: 'account' }),
    });
    await credentials.ensure(AbortSignal.timeout(timeoutMs * 3));

    const journal = OrderJournal.open(paths.journal);
    cleanup.push(() => journal.close());
    const killSwitchFile = config.risk.killSwitchFile;
    const {
      dispatcher,
      executor,
      session: activeSession,
    } = await buildTradingStack({
      config,
      strategies,
      journal,
      submitter: httpOrderSubmitter(write, credentials),
      signer: credentialOrderSigner(credentials, domain),
      lookupOrder: httpOrderLookup(write, credentials, () => AbortSignal.timeout(timeoutMs)),
      rate: {
        requests: config.execution.rateLimit.requests,
        perMs: config.execution.rateLimit.perMs,
        concurrency: config.execution.concurrency,
        maxAttempts: config.execution.maxAttempts,
      },
      killSwitchOn: () => killSwitchFile !== undefined && existsSync(killSwitchFile),
      now,
      sleep,
      log,
      ...(options.onIntent === undefined ? {} : { onIntent: options.onIntent }),
    });

    const poller = new Poller({
      fetchMarkets: (signal) =>
        listMarkets(read, { signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) }),
      ...(config.poll.quotes
        ? {
            fetchQuotes: (signal: AbortSignal) =>
              getQuotes(read, {
                signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
              }),
          }
        : {}),
      intervalMs: config.poll.intervalMs,
      staleAfterMs: config.poll.staleAfterMs,
      maxBackoffMs: config.poll.maxBackoffMs,
      now,
      sleep,
      log: log.child({ part: 'poller' }),
    });

    executor.recover(initialMarkets);
    let snapshots = 0;
    let lastStatusAt = now();
    // A line a person watching a days-long run can read: is it polling, is the data fresh,
    // what does it hold. Counted from memory, not the journal, to stay cheap.
    const logStatus = (snapshot: Snapshot): void => {
      const positions = executor.positions
        .entries()
        .filter(([, p]) => p.amountX18 !== 0n)
        .map(
          ([marketId, p]) =>
            `${snapshot.markets.get(marketId)?.symbol ?? marketId} ${formatX18(p.amountX18)}`,
        );
      log.info(
        {
          snapshots,
          stale: snapshot.stale,
          pollFailures: poller.failures,
          inFlight: dispatcher.pending,
          refused: executor.stats().refusals,
          realizedNet: formatX18(executor.positions.realizedNetX18()),
          positions,
          paused: activeSession.pausedStrategies(),
          credentialsExpireAt: new Date(credentials.current().expiryTs).toISOString(),
        },
        'status',
      );
    };

    return {
      venue,
      journal,
      executor,
      async run(signal) {
        await poller.run(async (snapshot) => {
          snapshots += 1;
          options.onSnapshot?.(snapshot);
          if (credentials.renewalDue()) {
            try {
              await credentials.ensure(
                AbortSignal.any([signal, AbortSignal.timeout(timeoutMs * 3)]),
              );
            } catch (error) {
              log.error(
                { err: summarizeError(error) },
                'credential renewal failed; retrying next poll',
              );
            }
          }
          await activeSession.onSnapshot(snapshot);
          if (now() - lastStatusAt >= STATUS_EVERY_MS) {
            lastStatusAt = now();
            logStatus(snapshot);
          }
        }, signal);
      },
      async shutdown() {
        const drained = await dispatcher.drain(config.execution.drainTimeoutMs);
        await executor.settle();
        await activeSession.stop();
        const positions = executor.positions.entries().map(([marketId, p]) => ({
          symbol: initialMarkets.find((m) => m.id === marketId)?.symbol ?? String(marketId),
          amount: formatX18(p.amountX18),
          realizedPnl: formatX18(p.realizedPnlX18),
          fees: formatX18(p.feesX18),
        }));
        const summary: RunSummary = {
          snapshots,
          stats: executor.stats(),
          positions,
          pausedStrategies: activeSession.pausedStrategies(),
          drained,
        };
        for (const step of cleanup.reverse()) await step();
        return summary;
      },
    };
  }
}

import { CredentialManager, type CredentialManagerOptions } from '../account/credential-manager.ts';
import { CredentialStore } from '../account/credential-store.ts';
import { MAX_CLOCK_SKEW_MS } from '../clock/venue-clock.ts';
import { readWalletKey } from '../account/wallet-key.ts';
import { locatedLine, type Config } from '../config/index.ts';
import { ErrorCodes, isQuantaError, QuantaError, summarizeError } from '../errors/index.ts';
import type { Hex } from 'viem';
import type { Logger } from '../log/logger.ts';
import type { VenueClient } from '../venue/venue-client.ts';
import { signingDomainOf } from './signing-domain.ts';
import type { StatePaths } from './state-paths.ts';
import { systemTimeoutSignal, type StartTimer } from '../clock/timers.ts';
import { withDeadline } from './with-deadline.ts';

/** What {@link openCredentials} needs. */
export interface OpenCredentialsOptions {
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly paths: StatePaths;
  /** Where keys are registered: the bot's venue client. */
  readonly venue: Pick<VenueClient, 'register'>;
  /** The venue's write URL (the credential store's key). */
  readonly venueUrl: string;
  /** The wallet's private key ({@link readBotWalletKey}). */
  readonly walletKey: Hex;
  /** A permit of the account's rate budget for each registration request. */
  readonly takePermit?: CredentialManagerOptions['takePermit'];
  readonly now: () => number;
  /** The monotonic clock (the wait between registrations after refusals); default `now`. */
  readonly monotonic?: () => number;
  /** Waits out a 429's `Retry-After` during a registration; default a real timer. */
  readonly sleep?: CredentialManagerOptions['sleep'];
  readonly log: Logger;
}

/**
 * The bot's order credentials, registered or reused and valid when this resolves.
 *
 * @throws QuantaError when the wallet key is missing or the venue refuses the registration.
 */
export async function openCredentials(options: OpenCredentialsOptions): Promise<CredentialManager> {
  const credentials = credentialManagerOf(options);
  await credentials.ensure(systemTimeoutSignal(credentialTimeoutMs(options.config)));
  return credentials;
}

/**
 * The bot's credential manager, nothing registered yet: {@link openCredentials}'s start-up
 * deadline is a real timer and its 429 waits the bot's sleep; the simulator
 * (src/simulation/sim-bot.ts) retries on virtual timers with its own sleep and signing keys.
 */
export function credentialManagerOf(
  options: Omit<OpenCredentialsOptions, 'env'> &
    Pick<CredentialManagerOptions, 'generateSigningKey'>,
): CredentialManager {
  const { config } = options;
  const sendMarginMs = credentialSendMarginMs(config);
  return new CredentialManager({
    store: new CredentialStore(options.paths.credentials),
    venueUrl: options.venueUrl,
    venue: options.venue,
    brokerId: config.venue.brokerId,
    subaccountIndex: config.venue.subaccount,
    chainId: config.venue.chainId,
    domain: signingDomainOf(config),
    headerPrefix: config.venue.headerPrefix,
    walletPrivateKey: options.walletKey,
    renewMarginMs: config.venue.renewMarginMs,
    sendMarginMs,
    credentialTtlMs: config.venue.credentialTtlMs,
    now: options.now,
    ...(options.monotonic === undefined ? {} : { monotonic: options.monotonic }),
    log: options.log.child({ part: 'account' }),
    ...(options.takePermit === undefined ? {} : { takePermit: options.takePermit }),
    ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
    ...(options.generateSigningKey === undefined
      ? {}
      : { generateSigningKey: options.generateSigningKey }),
  });
}

/**
 * How long before its expiry a credential stops sending orders: a request takes up to its
 * timeout, and the venue's clock may be ahead by the skew the bot allows, so an order sent later
 * could arrive after the expiry.
 *
 * @throws QuantaError `QUANTA_CONFIG_INVALID` when `venue.credentialTtlMs` is not longer than that
 *   margin plus a registration's own deadline (three request timeouts): a credential could then
 *   be past the margin when its registration ends, and be renewed at every poll.
 */
export function credentialSendMarginMs(config: Config): number {
  const margin = config.venue.timeoutMs + MAX_CLOCK_SKEW_MS;
  const shortest = margin + credentialTimeoutMs(config);
  if (config.venue.credentialTtlMs <= shortest)
    throw new QuantaError(
      ErrorCodes.CONFIG_INVALID,
      locatedLine(
        config.source,
        ['venue', 'credentialTtlMs'],
        `expected more than ${shortest} ms: 4 x venue.timeoutMs (a registration's deadline, then an order's) + ${MAX_CLOCK_SKEW_MS} ms of allowed clock skew; an order goes out with a credential only while it stays valid for longer than venue.timeoutMs + ${MAX_CLOCK_SKEW_MS} ms`,
      ),
    );
  return margin;
}

/**
 * The wallet's private key from `wallet.privateKeyEnv`, or for a fully embedded paper venue a
 * throwaway one kept in the state dir.
 *
 * @throws QuantaError `QUANTA_WALLET_KEY_MISSING` naming the variable.
 */
export function readBotWalletKey(
  config: Config,
  env: NodeJS.ProcessEnv,
  paths: Pick<StatePaths, 'paperWalletKey'>,
): Hex {
  // Set only for a fully embedded paper venue: a throwaway key may be generated there.
  try {
    return readWalletKey(config.wallet.privateKeyEnv, env, paths.paperWalletKey);
  } catch (error) {
    if (!isQuantaError(error, ErrorCodes.WALLET_KEY_MISSING)) throw error;
    // Pointed at the key that names the variable (the message never holds the value).
    throw new QuantaError(
      ErrorCodes.WALLET_KEY_MISSING,
      locatedLine(config.source, ['wallet', 'privateKeyEnv'], error.shortMessage),
      { details: error.details, cause: error },
    );
  }
}

/** A registration gets three request timeouts: it may retry. */
function credentialTimeoutMs(config: Config): number {
  return config.venue.timeoutMs * 3;
}

/**
 * How often the renewal is checked beside the polls, and so how soon a failed one is tried
 * again: polls back off after failures (up to `poll.maxBackoffMs`, 30 s by default), and a
 * renewal left to them let credentials expire after the faults stopped (the simulator: seeds 5306
 * and 9986 on a0783b2, a failed renewal; seed 21577 on 719db30, a renewal that fell due while
 * the poller backed off, when a host clock 56 s behind was set right).
 */
export const RENEWAL_CHECK_MS = 5_000;

/** What {@link credentialRenewal} is told and runs on. */
export interface CredentialRenewalOptions {
  /** Told how each renewal attempt ended: undefined when it succeeded (readiness, alerts). */
  readonly onAttempt?: ((error: unknown) => void) | undefined;
  /** Starts the renewal's deadline timer; default the real one (clock/timers.ts); the simulator injects its virtual clock's. */
  readonly startTimer?: StartTimer | undefined;
  /**
   * Waits between checks ({@link RENEWAL_CHECK_MS}, or less when a refused key's successor is
   * due sooner): the bot's sleep; its time must pass as the credentials' monotonic clock's does.
   */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * Renews the credentials when their renewal is due: checked before each poll trades, and every
 * {@link RENEWAL_CHECK_MS} whether or not polls come, so that neither a failed renewal nor one
 * that falls due while the poller backs off waits for a poll. A refused key's successor waits
 * out the spacing of refusals in a row (`refusalWaitMs`) and is registered when it ends. Calls
 * made while one renewal runs share it: two registrations never run at once. The checks stop
 * when the signal aborts (the trading loop ended: trading-loop.ts); a renewal that signal ends
 * is not a failure.
 */
export function credentialRenewal(
  credentials: Pick<CredentialManager, 'renewalDue' | 'refusalWaitMs' | 'ensure'>,
  config: Config,
  log: Logger,
  options: CredentialRenewalOptions,
): (signal: AbortSignal) => Promise<void> {
  let running: Promise<void> | undefined;
  let checking = false;
  // A listener that throws must not end the renewal, nor its checks (an unhandled rejection).
  const tell = (error: unknown): void => {
    try {
      options.onAttempt?.(error);
    } catch (thrown) {
      log.error({ err: summarizeError(thrown) }, 'a credential renewal listener failed');
    }
  };
  const renew = async (signal: AbortSignal): Promise<void> => {
    try {
      await withDeadline(
        signal,
        credentialTimeoutMs(config),
        (bounded) => credentials.ensure(bounded),
        options.startTimer,
      );
    } catch (error) {
      // The loop ended (the bot stops): nothing failed, and nothing is to be tried again.
      if (signal.aborted) return;
      log.error({ err: summarizeError(error) }, 'credential renewal failed; trying again soon');
      tell(error);
      checkLater(signal);
      return;
    }
    tell(undefined);
    checkLater(signal);
  };
  const renewIfDue = (signal: AbortSignal): Promise<void> => {
    if (signal.aborted) return Promise.resolve();
    if (running !== undefined) return running;
    if (!credentials.renewalDue()) {
      checkLater(signal);
      return Promise.resolve();
    }
    running = renew(signal).finally(() => {
      running = undefined;
    });
    return running;
  };
  // One check waiting at a time, at the latest RENEWAL_CHECK_MS from now.
  const checkLater = (signal: AbortSignal): void => {
    if (checking || signal.aborted) return;
    checking = true;
    const refusalWaitMs = credentials.refusalWaitMs();
    const ms = refusalWaitMs > 0 ? Math.min(refusalWaitMs, RENEWAL_CHECK_MS) : RENEWAL_CHECK_MS;
    void options.sleep(ms, signal).then(
      () => {
        checking = false;
        return renewIfDue(signal);
      },
      () => {
        checking = false;
      },
    );
  };
  return renewIfDue;
}

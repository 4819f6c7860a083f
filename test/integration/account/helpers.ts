/**
 * Shared pieces of the account integration tests: a paper venue on port 0 that reads a clock the
 * test moves, and a CredentialManager wired the way the bot wires it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hex } from 'viem';
import {
  CredentialManager,
  type CredentialManagerOptions,
} from '../../../src/account/credential-manager.ts';
import { CredentialStore } from '../../../src/account/credential-store.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { startPaperVenue, type PaperVenue } from '../../../src/paper/index.ts';
import {
  createOrder,
  getQuotes,
  listMarkets,
  type VenueConnection,
} from '../../../src/venue/endpoints/index.ts';
import { createSnapshot, type Snapshot } from '../../../src/market/snapshot.ts';
import { signOrder } from '../../../src/venue/signing/index.ts';
import {
  DEFAULT_SIGNING_DOMAIN,
  type OrderRequestBody,
  type VenueOrder,
} from '../../../src/venue/types.ts';
import type { ActiveCredential } from '../../../src/account/credential-manager.ts';
import { Dispatcher, type OrderSubmitter } from '../../../src/execution/dispatcher.ts';
import { Executor, type ExecutorOptions } from '../../../src/execution/executor.ts';
import type { OrderJournal } from '../../../src/execution/journal.ts';
import { credentialOrderSigner } from '../../../src/runtime/credential-order-signer.ts';
import { httpVenueRegistrar } from '../../../src/venue/http-venue-client.ts';

/** 2026-03-02T12:00:00Z. */
export const T0 = Date.parse('2026-03-02T12:00:00Z');
export const MINUTE_MS = 60_000;
/** Short validity so a jump past the margin costs the simulation few steps. */
export const TTL_MS = 60 * MINUTE_MS;
export const MARGIN_MS = 10 * MINUTE_MS;

/** A well-known public test key (never funded): the wallet of these tests. */
export const WALLET_KEY: Hex = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';

/** A clock both the venue and the client read. */
export interface TestClock {
  now: number;
}

/** A paper venue reading `clock`, and a temp dir for state; `close` removes both. */
export interface AccountHarness {
  readonly clock: TestClock;
  readonly venue: PaperVenue;
  readonly connection: VenueConnection;
  readonly dir: string;
  readonly credentialsPath: string;
  /** A manager on `path` (default `credentialsPath`), with a 429 sleep, a permit or signing keys if given. */
  manager(
    path?: string,
    extra?: Pick<
      CredentialManagerOptions,
      'sleep' | 'takePermit' | 'monotonic' | 'generateSigningKey'
    > & {
      headerPrefix?: string;
    },
  ): CredentialManager;
  close(): Promise<void>;
}

/** @param rateLimit - the venue's requests per second for everyone (none by default). */
export async function startAccountHarness(
  options: { rateLimit?: number } = {},
): Promise<AccountHarness> {
  const clock: TestClock = { now: T0 };
  const venue = await startPaperVenue({ port: 0, seed: 7, clock: () => clock.now, ...options });
  const dir = mkdtempSync(join(tmpdir(), 'quanta-account-'));
  const credentialsPath = join(dir, 'state', 'credentials.json');
  const connection: VenueConnection = { baseUrl: venue.url, timeoutMs: 5000 };
  return {
    clock,
    venue,
    connection,
    dir,
    credentialsPath,
    manager: (path = credentialsPath, extra = {}) =>
      new CredentialManager({
        store: new CredentialStore(path),
        venueUrl: connection.baseUrl,
        venue: httpVenueRegistrar(connection),
        brokerId: 1,
        subaccountIndex: 1,
        chainId: 42161,
        domain: DEFAULT_SIGNING_DOMAIN,
        walletPrivateKey: WALLET_KEY,
        renewMarginMs: MARGIN_MS,
        credentialTtlMs: TTL_MS,
        now: () => clock.now,
        log: silentLogger,
        ...extra,
        headerPrefix: extra.headerPrefix ?? 'Service-',
      }),
    async close() {
      await venue.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A 0.01 ETH-USD market buy valid for a minute from `now`. */
export function marketBuy(now: number): OrderRequestBody {
  return {
    marketId: 1,
    isBuy: true,
    orderType: 'MARKET',
    amount: '0.01',
    price: '0',
    expiryTs: now + MINUTE_MS,
    isReduce: false,
  };
}

/** Signed order bytes, as the journal keeps them. */
export interface SignedBytes {
  readonly body: string;
  readonly signature: string;
  readonly signer: string;
}

/** Signs `body` with the credential's signing key. */
export async function signWith(
  credential: ActiveCredential,
  body: OrderRequestBody,
): Promise<SignedBytes> {
  const signed = await signOrder({
    signingPrivateKey: credential.signingPrivateKey,
    subaccountId: credential.subaccountId,
    body,
    domain: DEFAULT_SIGNING_DOMAIN,
  });
  return { body: JSON.stringify(signed.body), signature: signed.signature, signer: signed.signer };
}

/** Sends signed bytes with a credential's headers. */
export function send(
  connection: VenueConnection,
  credential: ActiveCredential,
  order: SignedBytes,
): Promise<VenueOrder> {
  return createOrder(connection, credential.credentials, order);
}

/**
 * The bot's order path over `journal` (dispatcher and executor as the bot wires them, signing
 * with `credentials`), sending through `submitter`, on the harness's clock; `lookups`: the
 * venue's order lookups, none by default.
 */
export function orderPath(
  h: AccountHarness,
  credentials: CredentialManager,
  journal: OrderJournal,
  submitter: OrderSubmitter,
  lookups: Pick<ExecutorOptions, 'lookupOrder' | 'findOrder'> = {},
): Executor {
  const now = (): number => h.clock.now;
  const dispatcher = new Dispatcher({
    submitter,
    requests: 10,
    perMs: 1000,
    concurrency: 1,
    maxAttempts: 3,
    now,
    sleep: () => Promise.resolve(),
    log: silentLogger,
    onAttempt: (orderId) => journal.markAttempt(orderId, now()),
  });
  return new Executor({
    journal,
    dispatcher,
    signer: credentialOrderSigner(credentials, DEFAULT_SIGNING_DOMAIN),
    limits: { maxOrderNotionalX18: 10n ** 24n, maxPositionNotionalX18: 10n ** 24n },
    killSwitchOn: () => false,
    capitalX18: 100_000n * 10n ** 18n, // the paper venue's starting balance
    now,
    log: silentLogger,
    orderTtlMs: MINUTE_MS,
    ...lookups,
  });
}

/** The harness venue's listing and quotes now, as the bot's first snapshot. */
export async function firstSnapshot(h: AccountHarness): Promise<Snapshot> {
  return createSnapshot({
    seq: 1,
    takenAt: h.clock.now,
    markets: await listMarkets(h.connection),
    quotes: (await getQuotes(h.connection)) ?? [],
  });
}

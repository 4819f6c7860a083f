/**
 * Plain-fetch helpers for the paper venue conformance tests. Requests are built by hand (no
 * project client): signing uses src/venue/signing, everything else is fetch and JSON.
 */
import { readFileSync } from 'node:fs';
import type { Hex } from 'viem';
import {
  startPaperVenue,
  type PaperVenue,
  type PaperVenueOptions,
} from '../../../src/paper/index.ts';
import { parseMarketList } from '../../../src/venue/schemas/index.ts';
import { signOrder, signRegistration } from '../../../src/venue/signing/index.ts';
import type { Market } from '../../../src/domain/index.ts';
import {
  DEFAULT_SIGNING_DOMAIN,
  type OrderRequestBody,
  type SigningDomainConfig,
} from '../../../src/venue/types.ts';
import { readVector } from '../../helpers/vectors.ts';

/** 2026-03-02T12:00:00Z: the venue clock of most tests. */
export const NOW = Date.parse('2026-03-02T12:00:00Z');
export const DAY_MS = 24 * 60 * 60 * 1000;

/** The docs/conventions.md §2 envelope. */
export interface Envelope {
  readonly body: unknown;
  readonly message: string;
  readonly status: number;
}

/** One HTTP answer: status, headers, raw text and the parsed envelope. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: Envelope;
}

/** The fixture's market rows exactly as the spec names them (docs/conventions.md §7 plus test markets). */
export const FIXTURE_ROWS = (
  JSON.parse(readFileSync(new URL('../../fixtures/markets.json', import.meta.url), 'utf8')) as {
    body: { markets: Record<string, unknown>[] };
  }
).body.markets;

/** The fixture's markets: §7 rows, DOGE-USD (expo 0), SHIB-USD (expo −2), XRP-USD (inactive). */
export const FIXTURE_MARKETS: readonly Market[] = parseMarketList({ markets: FIXTURE_ROWS });

interface VectorKeys {
  keys: Record<'wallet' | 'signingKey', { privateKey: Hex; address: Hex }>;
}

/** Public test keys (never funded): the vectors' wallet and signing key. */
export const KEYS = readVector<VectorKeys>('eip712.json').keys;
/** Two more well-known public test keys, for second signing keys and strangers' wallets. */
export const OTHER_KEY_A: Hex =
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
export const OTHER_KEY_B: Hex =
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6';

/** A venue on port 0 with a settable clock. */
export interface Harness {
  readonly venue: PaperVenue;
  readonly clock: { now: number };
  /** Every answer's raw text, to search for leaked secrets. */
  readonly seen: string[];
  send(path: string, init?: RequestInit): Promise<Answer>;
  close(): Promise<void>;
}

/**
 * Starts a venue at `startAt` (default `NOW`; seed 7). Unless `venueDefaults` is set or an
 * engine is given, the book stands still (volatility 0) and the markets are the fixture's.
 */
export async function startHarness(
  options: Partial<PaperVenueOptions> = {},
  { venueDefaults = false, startAt = NOW }: { venueDefaults?: boolean; startAt?: number } = {},
): Promise<Harness> {
  const clock = { now: startAt };
  const still = options.engine === undefined && !venueDefaults;
  const venue = await startPaperVenue({
    seed: 7,
    ...(still ? { volatilityBps: 0, markets: FIXTURE_MARKETS } : {}),
    ...options,
    clock: () => clock.now,
  });
  const seen: string[] = [];
  return {
    venue,
    clock,
    seen,
    async send(path, init) {
      const res = await fetch(venue.url + path, init);
      const text = await res.text();
      seen.push(text);
      return { status: res.status, headers: res.headers, text, json: JSON.parse(text) as Envelope };
    },
    close: () => venue.close(),
  };
}

/** POSTs `body` (a value, serialised with JSON.stringify, or a raw string) with headers. */
export function post(
  harness: Harness,
  path: string,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): Promise<Answer> {
  return harness.send(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** What `registrationRequest` signs. */
export interface RegistrationParams {
  readonly walletKey?: Hex;
  readonly signingKey?: Hex;
  readonly brokerId?: number;
  readonly index?: number;
  readonly expiryTs?: number;
  readonly nonce?: number;
  readonly chainId?: number;
  readonly domain?: SigningDomainConfig;
}

/** A correctly signed registration body (defaults: vector wallet and signing key, broker 1, n 1). */
export function registrationRequest(params: RegistrationParams = {}) {
  return signRegistration({
    walletPrivateKey: params.walletKey ?? KEYS.wallet.privateKey,
    signingPrivateKey: params.signingKey ?? KEYS.signingKey.privateKey,
    brokerId: params.brokerId ?? 1,
    subaccountIndex: params.index ?? 1,
    expiryTs: params.expiryTs ?? NOW + DAY_MS,
    nonce: params.nonce ?? 0,
    chainId: params.chainId ?? 42161,
    domain: params.domain ?? DEFAULT_SIGNING_DOMAIN,
  });
}

/** A registered session: what a bot keeps to send orders. */
export interface TestSession {
  readonly brokerId: number;
  readonly subaccountId: string;
  readonly signingKey: Hex;
  readonly signer: Hex;
  readonly key: string;
  readonly secret: string;
  /** The §4.1 credential headers without the signature. */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Registers over HTTP and returns the session.
 *
 * @throws Error when the venue does not answer 200.
 */
export async function register(
  harness: Harness,
  params: RegistrationParams = {},
): Promise<TestSession> {
  const body = await registrationRequest(params);
  const brokerId = params.brokerId ?? 1;
  const answer = await post(harness, '/api/v1/auth', body, { 'Broker-Id': String(brokerId) });
  if (answer.status !== 200) throw new Error(`registration refused: ${answer.text}`);
  const { service_key: key, service_secret: secret } = answer.json.body as Record<string, string>;
  if (key === undefined || secret === undefined) throw new Error('registration: no credentials');
  return {
    brokerId,
    subaccountId: body.subaccountId,
    signingKey: params.signingKey ?? KEYS.signingKey.privateKey,
    signer: body.signingKey as Hex,
    key,
    secret,
    headers: {
      'Broker-Id': String(brokerId),
      'Service-Key': key,
      'Service-Secret': secret,
      'Service-Signer-Address': body.signingKey,
    },
  };
}

/** A 0.1 ETH-USD market buy valid for a minute from `NOW`, as sent on the wire. */
export function orderBody(overrides: Partial<OrderRequestBody> = {}): OrderRequestBody {
  return {
    marketId: 1,
    isBuy: true,
    orderType: 'MARKET',
    amount: '0.1',
    price: '0',
    expiryTs: NOW + 60_000,
    isReduce: false,
    ...overrides,
  };
}

/** Signs an order body for a session (docs/conventions.md §4.2): the `Service-Signature` value. */
export async function signBody(
  session: TestSession,
  body: OrderRequestBody,
  domain: SigningDomainConfig = DEFAULT_SIGNING_DOMAIN,
): Promise<Hex> {
  const signed = await signOrder({
    signingPrivateKey: session.signingKey,
    subaccountId: session.subaccountId,
    body,
    domain,
  });
  return signed.signature;
}

/** POSTs an order with the session's credentials and `signature` (none when undefined). */
export function sendOrder(
  harness: Harness,
  session: TestSession,
  body: unknown,
  signature: string | undefined,
  extraHeaders: Readonly<Record<string, string>> = {},
): Promise<Answer> {
  return post(harness, '/api/v1/order', body, {
    ...session.headers,
    ...(signature === undefined ? {} : { 'Service-Signature': signature }),
    ...extraHeaders,
  });
}

/** Signs and POSTs an order; returns the answer and the signature used. */
export async function placeOrder(
  harness: Harness,
  session: TestSession,
  overrides: Partial<OrderRequestBody> = {},
): Promise<{ answer: Answer; signature: Hex; body: OrderRequestBody }> {
  const body = orderBody(overrides);
  const signature = await signBody(session, body);
  return { answer: await sendOrder(harness, session, body, signature), signature, body };
}

/** The GET headers of order lookup (§6): credentials, no signature. */
export function lookupHeaders(session: TestSession): Record<string, string> {
  return { ...session.headers };
}

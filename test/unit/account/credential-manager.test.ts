/**
 * CredentialManager against a stub venue on port 0 whose registration answers each test sets:
 * nonce recovery (once, not forever), refusals that store nothing, and which stored credentials
 * count as this subaccount's. The full life against the paper venue is in
 * test/integration/account/credential-lifecycle.test.ts.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CredentialManager } from '../../../src/account/credential-manager.ts';
import { CredentialStore } from '../../../src/account/credential-store.ts';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { DEFAULT_SIGNING_DOMAIN } from '../../../src/venue/types.ts';
import { httpVenueRegistrar } from '../../../src/venue/http-venue-client.ts';
import {
  sendJson,
  startStubServer,
  type StubHandler,
  type StubServer,
} from '../../helpers/stub-server.ts';

const T0 = Date.parse('2026-03-02T12:00:00Z');
const HOUR = 3_600_000;
const WALLET_KEY = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';

let stub: StubServer;
let answer: StubHandler;
let issued = 0;
let dir: string;
let path: string;
const clock = { now: T0 };

/** A registration that succeeds when the body's nonce is `expected`, as the venue rules. */
function venueExpecting(expected: (nonce: number) => number): StubHandler {
  return (_req, res, body) => {
    const { nonce } = JSON.parse(body) as { nonce: number };
    const want = expected(nonce);
    if (nonce !== want) {
      sendJson(res, 400, { body: null, message: `invalid nonce: expected ${want}`, status: 400 });
      return;
    }
    issued += 1;
    sendJson(res, 200, {
      body: {
        service_key: issued.toString(16).padStart(32, '0'),
        service_secret: issued.toString(16).padStart(64, 'e'),
      },
      message: 'Subaccount successfully registered',
      status: 200,
    });
  };
}

beforeAll(async () => {
  stub = await startStubServer({
    'POST /api/v1/auth': (req, res, body) => answer(req, res, body),
  });
});

afterAll(async () => {
  await stub.close();
});

beforeEach(() => {
  clock.now = T0;
  stub.requests.length = 0;
  answer = venueExpecting(() => 0);
  dir = mkdtempSync(join(tmpdir(), 'quanta-manager-'));
  path = join(dir, 'credentials.json');
  return () => rmSync(dir, { recursive: true, force: true });
});

function manager(
  over: {
    brokerId?: number;
    subaccountIndex?: number;
    walletKey?: `0x${string}`;
    renewMarginMs?: number;
    sendMarginMs?: number;
  } = {},
): CredentialManager {
  return new CredentialManager({
    store: new CredentialStore(path),
    venueUrl: stub.url,
    venue: httpVenueRegistrar({ baseUrl: stub.url, timeoutMs: 5000 }),
    brokerId: over.brokerId ?? 1,
    subaccountIndex: over.subaccountIndex ?? 1,
    chainId: 42161,
    domain: DEFAULT_SIGNING_DOMAIN,
    headerPrefix: 'Service-',
    walletPrivateKey: over.walletKey ?? WALLET_KEY,
    renewMarginMs: over.renewMarginMs ?? HOUR,
    credentialTtlMs: 24 * HOUR,
    now: () => clock.now,
    log: silentLogger,
    ...(over.sendMarginMs === undefined ? {} : { sendMarginMs: over.sendMarginMs }),
  });
}

const sentNonces = (): number[] =>
  stub.requests.map((r) => (JSON.parse(r.body) as { nonce: number }).nonce);

async function rejection(promise: Promise<unknown>): Promise<QuantaError> {
  const outcome: unknown = await promise.then(
    () => 'resolved',
    (e: unknown) => e,
  );
  expect(outcome).toBeInstanceOf(QuantaError);
  return outcome as QuantaError;
}

describe('CredentialManager', () => {
  it('registers with the broker header, nonce 0 and expiry now + ttl; stores the result', async () => {
    const m = manager();
    const { credential, registered } = await m.ensure();
    expect(registered).toBe(true);
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0]?.headers['broker-id']).toBe('1');
    expect(JSON.parse(stub.requests[0]?.body ?? '{}')).toMatchObject({
      subaccountId: m.subaccountId,
      ethAddress: m.walletAddress,
      nonce: 0,
      expiryTs: T0 + 24 * HOUR,
      chainId: 42161,
    });
    expect(credential.expiryTs).toBe(T0 + 24 * HOUR);
    expect(new CredentialStore(path).load()[0]?.serviceKey).toBe(credential.credentials.serviceKey);
  });

  it('takes the venue’s nonce once when the stored counter is behind', async () => {
    answer = venueExpecting(() => 3);
    const { registered } = await manager().ensure();
    expect(registered).toBe(true);
    expect(sentNonces()).toEqual([0, 3]);
    expect(new CredentialStore(path).load().map((c) => c.nonce)).toEqual([3]);
  });

  it('does not chase a venue whose nonce keeps moving: one retry, then the refusal', async () => {
    answer = venueExpecting((nonce) => nonce + 1);
    const error = await rejection(manager().ensure());
    expect(error.code).toBe(ErrorCodes.VENUE_REJECTED);
    expect(error).toMatchObject({ status: 400, venueMessage: 'invalid nonce: expected 2' });
    expect(sentNonces()).toEqual([0, 1]);
    expect(existsSync(path)).toBe(false);
  });

  it('a refused registration (401) throws VENUE_CREDENTIALS_REFUSED and stores nothing', async () => {
    answer = (_req, res) =>
      sendJson(res, 401, { body: null, message: 'broker 1 is not allowed', status: 401 });
    const m = manager();
    const error = await rejection(m.ensure());
    expect(error.code).toBe(ErrorCodes.VENUE_CREDENTIALS_REFUSED);
    expect(stub.requests).toHaveLength(1);
    expect(existsSync(path)).toBe(false);
    expect(() => m.current()).toThrow(QuantaError);
    expect(m.renewalDue()).toBe(true);
  });

  it('current() before ensure() is a typed error', () => {
    const error = (() => {
      try {
        manager().current();
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toMatchObject({ code: ErrorCodes.CREDENTIAL_STORE });
  });

  it('reuses only credentials of this venue, broker and subaccount', async () => {
    await manager().ensure();
    await manager({ subaccountIndex: 2 }).ensure();
    await manager({ brokerId: 2 }).ensure();
    // Three subaccounts, three registrations, all in one file.
    expect(stub.requests).toHaveLength(3);
    expect(new CredentialStore(path).load()).toHaveLength(3);
    const again = await manager({ subaccountIndex: 2 }).ensure();
    expect(again.registered).toBe(false);
    expect(again.credential.subaccountId).toMatch(/_2$/);
    expect(stub.requests).toHaveLength(3);
  });

  it('the next nonce follows the highest stored one of the subaccount', async () => {
    answer = venueExpecting((nonce) => nonce);
    const m = manager();
    await m.ensure();
    clock.now = T0 + 23 * HOUR;
    expect(m.renewalDue()).toBe(true);
    await m.ensure();
    clock.now = T0 + 46 * HOUR;
    await m.ensure();
    expect(sentNonces()).toEqual([0, 1, 2]);
  });

  it('forSigner finds a kept key case-insensitively and nothing for a stranger', async () => {
    const m = manager();
    const { credential } = await m.ensure();
    const signer = credential.credentials.signerAddress;
    expect(m.forSigner(signer.toUpperCase().replace('0X', '0x'))).toEqual(credential);
    expect(m.forSigner('0x000000000000000000000000000000000000dead')).toBeUndefined();
    clock.now = credential.expiryTs;
    expect(m.forSigner(signer)).toBeUndefined();
  });

  it('sends with no credential that could expire before the order reaches the venue (seed 30045)', async () => {
    // The simulator's seed 30045: renewals lost to the network until 204 ms before the old
    // credential's expiry; an order sent with it then took 316 ms to arrive, 112 ms after the
    // expiry (a 401).
    const m = manager({ sendMarginMs: 7000 });
    const { credential } = await m.ensure();
    const signer = credential.credentials.signerAddress;
    clock.now = credential.expiryTs - 7001;
    expect(m.forSigner(signer)).toEqual(credential);
    clock.now = credential.expiryTs - 7000;
    expect(m.forSigner(signer)).toBeUndefined();
    clock.now = credential.expiryTs - 204;
    expect(m.forSigner(signer)).toBeUndefined();
  });

  it('renews a credential orders can no longer go out with, whatever the renewal margin', async () => {
    const m = manager({ renewMarginMs: 1000, sendMarginMs: 7000 });
    const { credential } = await m.ensure();
    clock.now = credential.expiryTs - 5000;
    expect(m.renewalDue()).toBe(true);
    const renewed = await m.ensure();
    expect(renewed.registered).toBe(true);
    expect(m.forSigner(renewed.credential.credentials.signerAddress)).toEqual(renewed.credential);
  });
});

it('a wallet key of the right shape that is no secp256k1 key is refused without showing it', () => {
  // The curve order n: 64 hex digits, not below n (viem's own error prints it, in decimal).
  const walletKey = '0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141';
  let refused: unknown;
  try {
    manager({ walletKey });
  } catch (error) {
    refused = error;
  }
  expect(refused).toBeInstanceOf(QuantaError);
  expect((refused as QuantaError).code).toBe(ErrorCodes.INVALID_PRIVATE_KEY);
  for (const shown of [walletKey.slice(2, 18), BigInt(walletKey).toString().slice(0, 16)]) {
    expect(String(refused)).not.toContain(shown);
    expect(JSON.stringify(refused)).not.toContain(shown);
  }
});

/**
 * The venue revokes the bot's credentials (an operator's action). Against the paper venue on
 * port 0: the first order sent with them is answered 401 "credentials revoked"; from then on no
 * order goes out with them (refused here, unsent), lookups say so too, a renewal is due, and the
 * next `ensure` registers a new signing key, with which orders work again.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ErrorCodes } from '../../../src/errors/index.ts';
import type { CredentialRefusal } from '../../../src/account/credential-manager.ts';
import { httpVenueClient } from '../../../src/venue/http-venue-client.ts';
import {
  MARGIN_MS,
  marketBuy,
  signWith,
  startAccountHarness,
  type AccountHarness,
} from './helpers.ts';

const ORDER = '/api/v1/order';
const AUTH = '/api/v1/auth';

let h: AccountHarness;

beforeEach(async () => {
  h = await startAccountHarness();
});

afterEach(async () => {
  await h.close();
});

/** A registered manager, its venue client, and one order placed with its credentials. */
async function tradingWithOneOrder() {
  const manager = h.manager();
  const { credential } = await manager.ensure();
  const client = httpVenueClient({ read: h.connection, write: h.connection, credentials: manager });
  const placed = await client.createOrder(
    await signWith(credential, marketBuy(h.clock.now)),
    AbortSignal.timeout(5000),
  );
  return { manager, credential, client, placed };
}

it('stops sending with revoked credentials at the first 401, and renews them', async () => {
  const { manager, credential, client, placed } = await tradingWithOneOrder();
  expect(placed.status).toBe('FILLED');
  expect(manager.renewalDue()).toBe(false);

  expect(h.venue.revokeCredentials(manager.subaccountId.toLowerCase())).toBe(1);
  const refused: unknown = await client
    .createOrder(await signWith(credential, marketBuy(h.clock.now)), AbortSignal.timeout(5000))
    .catch((e: unknown) => e);
  expect(refused).toMatchObject({ code: ErrorCodes.VENUE_CREDENTIALS_REFUSED, status: 401 });
  expect(String((refused as Error).message)).toContain('revoked');

  // No order goes out with them any more: refused here, before a byte leaves.
  const sentBefore = h.venue.requestCount(ORDER);
  expect(manager.forSigner(credential.credentials.signerAddress)).toBeUndefined();
  const unsent: unknown = await client
    .createOrder(await signWith(credential, marketBuy(h.clock.now)), AbortSignal.timeout(5000))
    .catch((e: unknown) => e);
  expect(unsent).toMatchObject({ code: ErrorCodes.SIGNING_KEY_REFUSED });
  // Nor is one signed with them: the pre-trade stage asks this first.
  expect(manager.signingRefusal()).toMatch(/the venue refused the credentials of signing key/);
  expect(h.venue.requestCount(ORDER)).toBe(sentBefore);

  // A renewal is due at once (long before the credential's expiry), and registers a new key.
  expect(manager.renewalDue()).toBe(true);
  const authBefore = h.venue.requestCount(AUTH);
  const renewed = await manager.ensure();
  expect(renewed.registered).toBe(true);
  expect(h.venue.requestCount(AUTH)).toBe(authBefore + 1);
  expect(renewed.credential.credentials.signerAddress).not.toBe(
    credential.credentials.signerAddress,
  );
  expect(manager.renewalDue()).toBe(false);
  expect(manager.signingRefusal()).toBeUndefined();
  const again = await client.createOrder(
    await signWith(renewed.credential, marketBuy(h.clock.now)),
    AbortSignal.timeout(5000),
  );
  expect(again.status).toBe('FILLED');
});

it('learns of the revocation from a lookup as well', async () => {
  const { manager, credential, client, placed } = await tradingWithOneOrder();
  h.venue.revokeCredentials(manager.subaccountId.toLowerCase());
  const lookup: unknown = await client
    .getOrder(placed.id, AbortSignal.timeout(5000))
    .catch((e: unknown) => e);
  expect(lookup).toMatchObject({ code: ErrorCodes.VENUE_CREDENTIALS_REFUSED, status: 401 });
  expect(manager.forSigner(credential.credentials.signerAddress)).toBeUndefined();
  expect(manager.renewalDue()).toBe(true);
});

it('keeps a refusal across a restart: the refused credential is not reused', async () => {
  const manager = h.manager();
  const { credential } = await manager.ensure();
  const client = httpVenueClient({ read: h.connection, write: h.connection, credentials: manager });
  await client.createOrder(
    await signWith(credential, marketBuy(h.clock.now)),
    AbortSignal.timeout(5000),
  );
  h.venue.revokeCredentials(manager.subaccountId.toLowerCase());
  await client
    .createOrder(await signWith(credential, marketBuy(h.clock.now)), AbortSignal.timeout(5000))
    .catch(() => undefined);
  expect(manager.isRefused(credential.credentials.signerAddress)).toBe(true);

  const restarted = h.manager();
  const authBefore = h.venue.requestCount(AUTH);
  const started = await restarted.ensure();
  expect(started.registered).toBe(true);
  expect(h.venue.requestCount(AUTH)).toBe(authBefore + 1);
  expect(restarted.isRefused(credential.credentials.signerAddress)).toBe(true);
  expect(restarted.forSigner(credential.credentials.signerAddress)).toBeUndefined();
});

it('keys refused again and again (a config error): the first new key at once, then waits that double, on the monotonic clock', async () => {
  // A wrong header prefix: the venue finds no credentials in the requests and answers 401 to
  // every key; registration, which needs none, goes on working.
  let monotonic = 0;
  const manager = h.manager(undefined, { headerPrefix: 'Wrong-', monotonic: () => monotonic });
  const told: CredentialRefusal[] = [];
  // A listener that throws stops neither the refusal nor the listeners after it.
  manager.onRefused(() => {
    throw new Error('listener down');
  });
  manager.onRefused((refusal) => told.push(refusal));
  const client = httpVenueClient({ read: h.connection, write: h.connection, credentials: manager });
  const refuseCurrent = async (): Promise<string> => {
    const { credential } = await manager.ensure();
    const refused: unknown = await client
      .createOrder(await signWith(credential, marketBuy(h.clock.now)), AbortSignal.timeout(5000))
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: ErrorCodes.VENUE_CREDENTIALS_REFUSED, status: 401 });
    return credential.credentials.signerAddress;
  };
  await refuseCurrent();
  // The first refusal: a new key at once (a revocation is the usual reason).
  expect(manager.renewalDue()).toBe(true);
  await refuseCurrent();
  // Refused again soon after: 10 s before the next key, then 20 s. The wall clock stepping back
  // a day does not stretch the wait.
  expect(manager.renewalDue()).toBe(false);
  expect(manager.signingRefusal()).toMatch(/refused/);
  expect(manager.state()).toMatchObject({ refusedKeys: 2, newKeyInMs: 10_000 });
  expect(manager.refusalWaitMs()).toBe(10_000);
  expect(told.map((r) => [r.newest, r.waitMs, r.inARow])).toEqual([
    [true, 0, 1],
    [true, 10_000, 2],
  ]);
  h.clock.now -= 24 * 3_600_000;
  monotonic += 9_999;
  expect(manager.renewalDue()).toBe(false);
  expect(manager.state().newKeyInMs).toBe(1);
  monotonic += 1;
  expect(manager.renewalDue()).toBe(true);
  expect(manager.refusalWaitMs()).toBe(0);
  await refuseCurrent();
  monotonic += 19_999;
  expect(manager.renewalDue()).toBe(false);
  monotonic += 1;
  expect(manager.renewalDue()).toBe(true);
  // Ten minutes after the last new key a refusal causes (due 40 s after this one), a refusal is
  // a first one again: a new key at once.
  const last = await refuseCurrent();
  expect(manager.isRefused(last)).toBe(true);
  expect(manager.renewalDue()).toBe(false);
  monotonic += 40_000 + 10 * 60_000;
  await refuseCurrent();
  expect(manager.renewalDue()).toBe(true);
});

it('a refused earlier key blocks no renewal; lookups go with a credential the venue has not refused', async () => {
  const manager = h.manager();
  const { credential: old } = await manager.ensure();
  const client = httpVenueClient({ read: h.connection, write: h.connection, credentials: manager });
  const placed = await client.createOrder(
    await signWith(old, marketBuy(h.clock.now)),
    AbortSignal.timeout(5000),
  );
  // A new key while the old one is still valid (its renewal margin reached).
  h.clock.now = old.expiryTs - MARGIN_MS + 1;
  const fresh = (await manager.ensure()).credential;
  expect(fresh.credentials.signerAddress).not.toBe(old.credentials.signerAddress);
  manager.refused(old.credentials.signerAddress);
  expect(manager.renewalDue()).toBe(false);
  expect(manager.signingRefusal()).toBeUndefined();
  // The newest refused too: a lookup has no credential left, and is not sent.
  manager.refused(fresh.credentials.signerAddress);
  const lookupsBefore = h.venue.requestCount(`${ORDER}/${placed.id}`);
  const lookup: unknown = await client
    .getOrder(placed.id, AbortSignal.timeout(5000))
    .catch((e: unknown) => e);
  expect(lookup).toMatchObject({ code: ErrorCodes.SIGNING_KEY_REFUSED });
  expect(h.venue.requestCount(`${ORDER}/${placed.id}`)).toBe(lookupsBefore);
});

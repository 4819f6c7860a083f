/**
 * Issue 5, "Done when" 1: register → credential file (0600) → a restart reuses it without
 * calling the venue → with the clock past the renewal margin a new signing key is registered
 * with nonce + 1 → orders keep working with the new key and, until it expires, with the old one.
 * Against the paper venue on port 0, venue and client reading one injected clock.
 */
import { readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keccak256, toHex } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { CredentialStore } from '../../../src/account/credential-store.ts';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';
import { httpVenueClient } from '../../../src/venue/http-venue-client.ts';
import { register } from '../../../src/venue/endpoints/index.ts';
import { signRegistration } from '../../../src/venue/signing/index.ts';
import { DEFAULT_SIGNING_DOMAIN } from '../../../src/venue/types.ts';
import {
  MARGIN_MS,
  T0,
  TTL_MS,
  WALLET_KEY,
  marketBuy,
  send,
  signWith,
  startAccountHarness,
  type AccountHarness,
} from './helpers.ts';

const AUTH = '/api/v1/auth';
const ORDER = '/api/v1/order';

let h: AccountHarness;

beforeEach(async () => {
  h = await startAccountHarness();
});

afterEach(async () => {
  await h.close();
});

function fileMode(path: string): number {
  return statSync(path).mode & 0o777;
}

describe('credential lifecycle against the paper venue', () => {
  it('registers, stores 0600, reuses after a restart, renews with nonce + 1, keeps old orders sendable', async () => {
    // 1. First start: nothing stored, so the venue is called once.
    const first = h.manager();
    const started = await first.ensure();
    expect(started.registered).toBe(true);
    expect(h.venue.requestCount(AUTH)).toBe(1);
    expect(fileMode(h.credentialsPath)).toBe(0o600);
    expect(fileMode(dirname(h.credentialsPath))).toBe(0o700);
    const [stored0, ...olderAtStart] = new CredentialStore(h.credentialsPath).load();
    expect(olderAtStart).toEqual([]);
    expect(stored0).toMatchObject({
      venue: h.venue.url,
      brokerId: 1,
      subaccountId: first.subaccountId,
      nonce: 0,
      expiryTs: T0 + TTL_MS,
      serviceKey: started.credential.credentials.serviceKey,
      serviceSecret: started.credential.credentials.serviceSecret,
      signerAddress: started.credential.credentials.signerAddress,
    });
    expect(first.renewalDue()).toBe(false);

    // 2. A restart: a new manager over a new store object on the same file reuses it.
    h.clock.now += 5 * 60_000;
    const restarted = h.manager();
    const reused = await restarted.ensure();
    expect(reused.registered).toBe(false);
    expect(h.venue.requestCount(AUTH)).toBe(1);
    expect(reused.credential).toEqual(started.credential);
    const filled = await send(
      h.connection,
      reused.credential,
      await signWith(reused.credential, marketBuy(h.clock.now)),
    );
    expect(filled.status).toBe('FILLED');

    // 3. Past the margin: renewal is due, on this manager and on a fresh one alike.
    h.clock.now = T0 + TTL_MS - MARGIN_MS;
    expect(restarted.renewalDue()).toBe(true);
    const old = restarted.current();
    // An order signed with the old key (as the journal would hold one) before renewing.
    const oldOrder = await signWith(old, marketBuy(h.clock.now));
    expect(oldOrder.signer).toBe(old.credentials.signerAddress);

    const renewed = await restarted.ensure();
    expect(renewed.registered).toBe(true);
    expect(h.venue.requestCount(AUTH)).toBe(2);
    expect(restarted.renewalDue()).toBe(false);
    const fresh = renewed.credential;
    expect(fresh.credentials.signerAddress).not.toBe(old.credentials.signerAddress);
    expect(fresh.credentials.serviceKey).not.toBe(old.credentials.serviceKey);
    expect(fresh.subaccountId).toBe(old.subaccountId);
    expect(fresh.expiryTs).toBe(h.clock.now + TTL_MS);
    expect(restarted.current()).toEqual(fresh);

    // The file: new credential first with nonce 1, the old one kept until it expires; still 0600.
    expect(fileMode(h.credentialsPath)).toBe(0o600);
    const afterRenewal = new CredentialStore(h.credentialsPath).load();
    expect(afterRenewal.map((c) => [c.nonce, c.signerAddress])).toEqual([
      [1, fresh.credentials.signerAddress],
      [0, old.credentials.signerAddress],
    ]);

    // The venue accepted nonce 1: its counter now expects 2 for the next new key.
    const probe = await signRegistration({
      walletPrivateKey: WALLET_KEY,
      signingPrivateKey: generatePrivateKey(),
      brokerId: 1,
      subaccountIndex: 1,
      expiryTs: h.clock.now + TTL_MS,
      nonce: 1,
      chainId: 42161,
      domain: DEFAULT_SIGNING_DOMAIN,
    });
    const refused: unknown = await register(h.connection, 1, probe).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(QuantaError);
    expect(refused).toMatchObject({
      code: ErrorCodes.VENUE_REJECTED,
      venueMessage: 'invalid nonce: expected 2',
    });
    const authCalls = h.venue.requestCount(AUTH);

    // 4. Orders keep working: a new order signed with the new key…
    const ordersBefore = h.venue.requestCount(ORDER);
    const newOrder = await signWith(restarted.current(), marketBuy(h.clock.now));
    expect(newOrder.signer).toBe(fresh.credentials.signerAddress);
    expect((await send(h.connection, fresh, newOrder)).status).toBe('FILLED');
    // …and the order signed with the old key, resent with the credential forSigner finds for it.
    const forOld = restarted.forSigner(oldOrder.signer);
    expect(forOld?.credentials.serviceKey).toBe(old.credentials.serviceKey);
    expect(forOld).toBeDefined();
    if (forOld === undefined) return;
    expect((await send(h.connection, forOld, oldOrder)).status).toBe('FILLED');
    // The bot's venue client does the same lookup for a journaled order signed with the old key.
    const client = httpVenueClient({
      read: h.connection,
      write: h.connection,
      credentials: restarted,
    });
    const journaled = await signWith(old, { ...marketBuy(h.clock.now), amount: '0.02' });
    const viaSubmitter = await client.createOrder(journaled, AbortSignal.timeout(5000));
    expect(viaSubmitter).toMatchObject({ status: 'FILLED', amountX18: 2n * 10n ** 16n });
    expect(h.venue.requestCount(ORDER)).toBe(ordersBefore + 3);
    expect(restarted.forSigner(fresh.credentials.signerAddress.toLowerCase())).toEqual(fresh);

    // 5. Another restart reuses the renewed credential, again without calling the venue.
    const third = h.manager();
    const again = await third.ensure();
    expect(again.registered).toBe(false);
    expect(again.credential).toEqual(fresh);
    expect(third.forSigner(old.credentials.signerAddress)?.credentials.serviceKey).toBe(
      old.credentials.serviceKey,
    );
    expect(h.venue.requestCount(AUTH)).toBe(authCalls);

    // 6. Once the old credential has expired it is no longer offered, and the venue agrees.
    h.clock.now = old.expiryTs + 1;
    expect(third.forSigner(old.credentials.signerAddress)).toBeUndefined();
    const late = await signWith(old, marketBuy(h.clock.now));
    const ordersBeforeLate = h.venue.requestCount(ORDER);
    const notSent: unknown = await httpVenueClient({
      read: h.connection,
      write: h.connection,
      credentials: third,
    })
      .createOrder(late, AbortSignal.timeout(5000))
      .catch((e: unknown) => e);
    // Refused here, before anything left: not the venue's 401, which the next lines provoke.
    expect(notSent).toMatchObject({ code: ErrorCodes.SIGNING_KEY_EXPIRED });
    expect(h.venue.requestCount(ORDER)).toBe(ordersBeforeLate);
    const expired: unknown = await send(h.connection, old, late).catch((e: unknown) => e);
    expect(expired).toMatchObject({ code: ErrorCodes.VENUE_CREDENTIALS_REFUSED, status: 401 });
    expect(
      (await send(h.connection, fresh, await signWith(fresh, marketBuy(h.clock.now)))).status,
    ).toBe('FILLED');
  });

  it('a restart inside the margin registers instead of reusing a credential about to expire', async () => {
    await h.manager().ensure();
    h.clock.now = T0 + TTL_MS - MARGIN_MS + 1;
    const restarted = h.manager();
    expect(restarted.renewalDue()).toBe(true);
    const outcome = await restarted.ensure();
    expect(outcome.registered).toBe(true);
    expect(h.venue.requestCount(AUTH)).toBe(2);
    expect(new CredentialStore(h.credentialsPath).load()[0]?.nonce).toBe(1);
  });

  it('one ms before the margin the stored credential is still reused', async () => {
    await h.manager().ensure();
    h.clock.now = T0 + TTL_MS - MARGIN_MS - 1;
    const outcome = await h.manager().ensure();
    expect(outcome.registered).toBe(false);
    expect(h.venue.requestCount(AUTH)).toBe(1);
  });

  it('a lost credential file: the venue’s nonce is taken once and the new key registered', async () => {
    const m = h.manager();
    await m.ensure();
    h.clock.now = T0 + TTL_MS - MARGIN_MS;
    await m.ensure();
    unlinkSync(h.credentialsPath);

    const fresh = h.manager();
    const outcome = await fresh.ensure();
    expect(outcome.registered).toBe(true);
    // nonce 0 refused with "expected 2", then nonce 2 accepted.
    expect(h.venue.requestCount(AUTH)).toBe(4);
    const stored = new CredentialStore(h.credentialsPath).load();
    expect(stored.map((c) => c.nonce)).toEqual([2]);
    expect(
      (
        await send(
          h.connection,
          outcome.credential,
          await signWith(outcome.credential, marketBuy(h.clock.now)),
        )
      ).status,
    ).toBe('FILLED');
  });

  it('the credential file never holds the wallet key', async () => {
    await h.manager().ensure();
    const text = readFileSync(h.credentialsPath, 'utf8').toLowerCase();
    expect(text).not.toContain(WALLET_KEY.slice(2).toLowerCase());
  });

  it('a key the venue registered but that cannot be stored: an error that says so, and no secret', async () => {
    // The state dir's place is taken by a file: the credential file cannot be written.
    const blocked = join(h.dir, 'blocked');
    writeFileSync(blocked, 'not a folder');
    const signingKey = keccak256(toHex('quanta unstored signing key'));
    const failure: unknown = await h
      .manager(join(blocked, 'credentials.json'), { generateSigningKey: () => signingKey })
      .ensure()
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(QuantaError);
    const error = failure as QuantaError;
    expect(error.code).toBe(ErrorCodes.CREDENTIAL_STORE);
    expect(error.message).toMatch(
      /^the venue registered signing key 0x[0-9a-fA-F]{40}, but it could not be stored: /,
    );
    expect(h.venue.requestCount(AUTH)).toBe(1);
    // What could leak here is what the registration just made: the new signing key and the
    // service secret the venue issued (64 hex digits each; an address has 40).
    const said = [error.message, ...(error.details ?? [])].join('\n').toLowerCase();
    // The key made for it is the one the message names: what must not show is known.
    expect(said).toContain(privateKeyToAddress(signingKey).toLowerCase());
    expect(said).not.toContain(signingKey.slice(2).toLowerCase());
    expect(said).not.toContain(WALLET_KEY.slice(2).toLowerCase());
    expect(said).not.toMatch(/[0-9a-f]{64}/);
  });
});

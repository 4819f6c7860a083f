/**
 * docs/conventions.md §4.1: the credential headers of POST /api/v1/order — 401 for missing, unknown or
 * expired credentials, 403 for a Broker-Id or signer that is not the credentials', both before
 * anything about the order is looked at; and no credential ever comes back in an answer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type Answer,
  type Harness,
  KEYS,
  NOW,
  OTHER_KEY_A,
  orderBody,
  placeOrder,
  post,
  register,
  registrationRequest,
  sendOrder,
  signBody,
  startHarness,
} from './harness.ts';

let harness: Harness;
afterEach(async () => {
  await harness.close();
});

function expectError(answer: Answer, status: number, message: string): void {
  expect(answer.json).toStrictEqual({ body: null, message, status });
  expect(answer.status).toBe(status);
}

const UNKNOWN = 'unknown credentials: Service-Key and Service-Secret are not an issued pair';
const EXPIRED = 'credentials expired: register a signing key again for a fresh pair';

describe('credential headers (401)', () => {
  it('names every missing credential header', async () => {
    harness = await startHarness();
    const session = await register(harness);
    const body = orderBody();
    const signature = await signBody(session, body);
    for (const name of ['Broker-Id', 'Service-Key', 'Service-Secret', 'Service-Signer-Address']) {
      const headers: Record<string, string> = {
        ...session.headers,
        'Service-Signature': signature,
      };
      delete headers[name];
      expectError(
        await post(harness, '/api/v1/order', body, headers),
        401,
        `missing credentials: ${name} header required`,
      );
    }
    expectError(
      await post(harness, '/api/v1/order', body, { 'Service-Signature': signature }),
      401,
      'missing credentials: Broker-Id, Service-Key, Service-Secret, Service-Signer-Address header required',
    );
    // An empty value is no value.
    expectError(
      await post(harness, '/api/v1/order', body, { ...session.headers, 'Service-Key': '' }),
      401,
      'missing credentials: Service-Key header required',
    );
  });

  it('refuses an unknown key and a known key with the wrong secret alike', async () => {
    harness = await startHarness();
    const session = await register(harness);
    const body = orderBody();
    const signature = await signBody(session, body);
    expectError(
      await sendOrder(harness, session, body, signature, { 'Service-Key': '0'.repeat(32) }),
      401,
      UNKNOWN,
    );
    expectError(
      await sendOrder(harness, session, body, signature, { 'Service-Secret': 'f'.repeat(64) }),
      401,
      UNKNOWN,
    );
    // Key and secret of two different pairs are not a pair.
    const other = await register(harness, { nonce: 1, signingKey: OTHER_KEY_A });
    expectError(
      await sendOrder(harness, session, body, signature, { 'Service-Secret': other.secret }),
      401,
      UNKNOWN,
    );
  });

  it('expires the credentials at the registration expiryTs', async () => {
    harness = await startHarness();
    const session = await register(harness, { expiryTs: NOW + 60_000 });
    harness.clock.now = NOW + 59_999;
    const before = await placeOrder(harness, session, { expiryTs: NOW + 120_000 });
    expect(before.answer.status).toBe(200);
    harness.clock.now = NOW + 60_000;
    const at = await placeOrder(harness, session, { expiryTs: NOW + 120_000, amount: '0.2' });
    expectError(at.answer, 401, EXPIRED);
    // Lookups use the same credentials and expire with them.
    expectError(await harness.send('/api/v1/order/1', { headers: session.headers }), 401, EXPIRED);
    // A fresh registration of the same key (a re-login) gives a working pair again.
    const renewed = await register(harness, { nonce: 1, expiryTs: NOW + 3_600_000 });
    const after = await placeOrder(harness, renewed, { expiryTs: NOW + 120_000, amount: '0.3' });
    expect(after.answer.status).toBe(200);
  });
});

describe('credential headers (403)', () => {
  it('refuses a Broker-Id that is not the credentials broker', async () => {
    harness = await startHarness();
    const session = await register(harness);
    const body = orderBody();
    const signature = await signBody(session, body);
    expectError(
      await sendOrder(harness, session, body, signature, { 'Broker-Id': '2' }),
      403,
      'Broker-Id does not match the broker the credentials were issued to',
    );
  });

  it('refuses a signer address that is not the registered signing key, in any case it is written', async () => {
    harness = await startHarness();
    const session = await register(harness);
    const body = orderBody();
    const signature = await signBody(session, body);
    expectError(
      await sendOrder(harness, session, body, signature, {
        'Service-Signer-Address': KEYS.wallet.address,
      }),
      403,
      'Service-Signer-Address is not the signing key the credentials were issued to',
    );
    const lower = await sendOrder(harness, session, body, signature, {
      'Service-Signer-Address': session.signer.toLowerCase(),
    });
    expect(lower.status).toBe(200);
  });

  it('checks credentials before the JSON, the body and the order rules', async () => {
    harness = await startHarness();
    const session = await register(harness);
    const unknownMarket = orderBody({ marketId: 999 });
    expectError(
      await post(harness, '/api/v1/order', unknownMarket, { 'Service-Signature': '0x' }),
      401,
      'missing credentials: Broker-Id, Service-Key, Service-Secret, Service-Signer-Address header required',
    );
    expectError(
      await sendOrder(harness, session, '{not json', undefined, { 'Service-Key': 'a'.repeat(32) }),
      401,
      UNKNOWN,
    );
    expectError(
      await sendOrder(harness, session, unknownMarket, undefined, { 'Broker-Id': '9' }),
      403,
      'Broker-Id does not match the broker the credentials were issued to',
    );
  });
});

describe('configured header prefix', () => {
  it('reads the credential headers with the prefix and ignores the default names', async () => {
    harness = await startHarness({ headerPrefix: 'X-Paper-' });
    const session = await register(harness);
    const body = orderBody();
    const signature = await signBody(session, body);
    const prefixed = {
      'Broker-Id': '1',
      'X-Paper-Key': session.key,
      'X-Paper-Secret': session.secret,
      'X-Paper-Signer-Address': session.signer,
      'X-Paper-Signature': signature,
    };
    expectError(
      await sendOrder(harness, session, body, signature),
      401,
      'missing credentials: X-Paper-Key, X-Paper-Secret, X-Paper-Signer-Address header required',
    );
    const answer = await post(harness, '/api/v1/order', body, prefixed);
    expect(answer.status).toBe(200);
    const { 'X-Paper-Signature': _signature, ...withoutSignature } = prefixed;
    const body2 = orderBody({ amount: '0.2' });
    expectError(
      await post(harness, '/api/v1/order', body2, withoutSignature),
      400,
      'X-Paper-Signature header: missing',
    );
  });
});

describe('credential secrecy', () => {
  it('never puts a key or secret in an answer, wherever a client misplaces it', async () => {
    harness = await startHarness();
    const session = await register(harness);
    const registrationAnswers = harness.seen.length;
    const { key, secret } = session;
    const body = orderBody();
    const signature = await signBody(session, body);
    for (const value of [key, secret]) {
      await sendOrder(harness, session, body, signature, { 'Broker-Id': value });
      await sendOrder(harness, session, body, signature, { 'Service-Signer-Address': value });
      await sendOrder(harness, session, body, value);
      await sendOrder(harness, session, { ...body, amount: value }, signature);
      await sendOrder(harness, session, body, signature, { 'Service-Key': value });
      await sendOrder(harness, session, value, signature);
      await harness.send(`/api/v1/order/${value}`, { headers: session.headers });
      await harness.send(`/api/v1/quotes?marketId=${value}`);
      await harness.send(`/api/v1/market?type=${value}`);
      await post(
        harness,
        '/api/v1/auth',
        { ...(await registrationRequest()), nonce: value },
        {
          'Broker-Id': value,
        },
      );
    }
    const answers = harness.seen.slice(registrationAnswers);
    expect(answers.length).toBe(20);
    for (const text of answers) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(key);
    }
  });
});

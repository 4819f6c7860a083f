/**
 * docs/conventions.md §3: POST /api/v1/auth — Broker-Id, subaccount id rules, both EIP-712 signatures,
 * the expiry window, the nonce counter and re-login, and the credentials issued.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startPaperVenue } from '../../../src/paper/index.ts';
import { DEFAULT_SIGNING_DOMAIN } from '../../../src/venue/types.ts';
import {
  type Answer,
  DAY_MS,
  type Harness,
  KEYS,
  NOW,
  OTHER_KEY_A,
  OTHER_KEY_B,
  post,
  register,
  registrationRequest,
  startHarness,
} from './harness.ts';

const WALLET = KEYS.wallet.address;
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

let harness: Harness;
afterEach(async () => {
  await harness.close();
});

function expectError(answer: Answer, status: number, message: string): void {
  expect(answer.json).toStrictEqual({ body: null, message, status });
  expect(answer.status).toBe(status);
}

/** POSTs a registration; `brokerId` null sends no Broker-Id header. */
function auth(body: unknown, brokerId: string | null = '1'): Promise<Answer> {
  return post(harness, '/api/v1/auth', body, brokerId === null ? {} : { 'Broker-Id': brokerId });
}

/** The other encoding of the same signature: (r, n − s, v ^ 1) recovers the same address. */
function malleate(signature: string): string {
  const r = signature.slice(2, 66);
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = Number.parseInt(signature.slice(130, 132), 16);
  const flipped = (SECP256K1_N - s).toString(16).padStart(64, '0');
  return `0x${r}${flipped}${(v === 27 ? 28 : 27).toString(16)}`;
}

describe('registration success', () => {
  it('answers 200, the registered message and a 32/64 lowercase hex pair', async () => {
    harness = await startHarness();
    const answer = await auth(await registrationRequest());
    expect(answer.status).toBe(200);
    expect(answer.json.status).toBe(200);
    expect(answer.json.message).toBe('Subaccount successfully registered');
    const body = answer.json.body as Record<string, string>;
    expect(Object.keys(body)).toEqual(['service_key', 'service_secret']);
    expect(body['service_key']).toMatch(/^[0-9a-f]{32}$/);
    expect(body['service_secret']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('accepts the limits of the subaccount id: brokerId and n up to 2^48 - 1', async () => {
    harness = await startHarness();
    const max = 2 ** 48 - 1;
    const body = await registrationRequest({ brokerId: max, index: max });
    expect(body.subaccountId).toBe(`${max}_${WALLET}_${max}`);
    expect((await auth(body, String(max))).status).toBe(200);
    const zeroBroker = await registrationRequest({ brokerId: 0 });
    expect((await auth(zeroBroker, '0')).status).toBe(200);
  });

  it('issues deterministic pairs for a seed and random ones without', async () => {
    harness = await startHarness({ seed: 11 });
    const other = await startHarness({ seed: 11 });
    const unseeded = await startPaperVenue({ clock: () => NOW });
    try {
      const body = await registrationRequest();
      const first = await auth(body);
      const second = await post(other, '/api/v1/auth', body, { 'Broker-Id': '1' });
      expect(second.json.body).toStrictEqual(first.json.body);
      const res = await fetch(`${unseeded.url}/api/v1/auth`, {
        method: 'POST',
        headers: { 'Broker-Id': '1' },
        body: JSON.stringify(body),
      });
      const random = (await res.json()) as { body: Record<string, string> };
      expect(random.body['service_key']).toMatch(/^[0-9a-f]{32}$/);
      expect(random.body).not.toStrictEqual(first.json.body);
    } finally {
      await other.close();
      await unseeded.close();
    }
  });
});

describe('Broker-Id and subaccount id (400)', () => {
  it('requires a Broker-Id header that is an integer below 2^48', async () => {
    harness = await startHarness();
    const body = await registrationRequest();
    expectError(await auth(body, null), 400, 'Broker-Id header: missing');
    for (const bad of ['abc', '-1', '01', '1.0', String(2 ** 48)]) {
      expectError(
        await auth(body, bad),
        400,
        'Broker-Id header: expected an integer 0 <= brokerId < 2^48',
      );
    }
  });

  it("refuses a subaccount whose brokerId is not the header's", async () => {
    harness = await startHarness();
    expectError(
      await auth(await registrationRequest({ brokerId: 1 }), '2'),
      400,
      'subaccountId: brokerId 1 is not the Broker-Id header 2',
    );
  });

  it('refuses a subaccount whose address is not exactly ethAddress', async () => {
    harness = await startHarness();
    const body = await registrationRequest();
    const lower = WALLET.toLowerCase();
    expectError(
      await auth({ ...body, subaccountId: `1_${lower}_1` }),
      400,
      `subaccountId: address ${lower} is not exactly ethAddress ${WALLET}`,
    );
  });

  it('refuses n outside 0 < n < 2^48 and a malformed id', async () => {
    harness = await startHarness();
    const body = await registrationRequest();
    for (const n of ['0', String(2 ** 48), '-1', '01']) {
      const id = `1_${WALLET}_${n}`;
      expectError(
        await auth({ ...body, subaccountId: id }),
        400,
        `subaccount id ${JSON.stringify(id)}: index: expected an integer 0 < n < 2^48, got ${JSON.stringify(n)}`,
      );
    }
    const big = `${2 ** 48}_${WALLET}_1`;
    expectError(
      await auth({ ...body, subaccountId: big }),
      400,
      `subaccount id ${JSON.stringify(big)}: brokerId: expected an integer 0 <= brokerId < 2^48, got "${2 ** 48}"`,
    );
    const twoParts = `1_${WALLET}`;
    expectError(
      await auth({ ...body, subaccountId: twoParts }),
      400,
      `subaccount id ${JSON.stringify(twoParts)}: id: expected 3 parts joined by "_", got 2`,
    );
  });

  it('names a missing or malformed field of the body', async () => {
    harness = await startHarness();
    const { nonce: _nonce, ...withoutNonce } = await registrationRequest();
    expectError(await auth(withoutNonce), 400, 'registration request: nonce: missing');
    const body = await registrationRequest();
    expectError(
      await auth({ ...body, ethSignature: '0x1234' }),
      400,
      'registration request: ethSignature: expected a 0x-prefixed 65-byte hex signature (130 hex digits)',
    );
  });
});

describe('signatures (400)', () => {
  it('needs ethSignature by ethAddress and signingSignature by signingKey over the same struct', async () => {
    harness = await startHarness();
    const body = await registrationRequest();
    expectError(
      await auth({ ...body, ethSignature: body.signingSignature }),
      400,
      'ethSignature: not signed by ethAddress over this request',
    );
    expectError(
      await auth({ ...body, signingSignature: body.ethSignature }),
      400,
      'signingSignature: not signed by signingKey over this request',
    );
  });

  it('refuses a body changed after signing, another chainId and another domain', async () => {
    harness = await startHarness();
    const body = await registrationRequest();
    const notSigned = 'ethSignature: not signed by ethAddress over this request';
    expectError(await auth({ ...body, expiryTs: body.expiryTs + 1 }), 400, notSigned);
    expectError(await auth({ ...body, chainId: 1 }), 400, notSigned);
    expectError(await auth({ ...body, nonce: 1 }), 400, notSigned);
    const otherDomain = await registrationRequest({
      domain: { ...DEFAULT_SIGNING_DOMAIN, name: 'SomethingElse' },
    });
    expectError(await auth(otherDomain), 400, notSigned);
  });

  it('refuses the second (high-s) encoding of a valid signature', async () => {
    harness = await startHarness();
    const body = await registrationRequest();
    expectError(
      await auth({ ...body, ethSignature: malleate(body.ethSignature) }),
      400,
      'ethSignature: not signed by ethAddress over this request',
    );
  });

  it('uses the configured domain', async () => {
    const domain = { ...DEFAULT_SIGNING_DOMAIN, name: 'Deployment', version: '2' };
    harness = await startHarness({ domain });
    expect((await auth(await registrationRequest({ domain }))).status).toBe(200);
    expectError(
      await auth(await registrationRequest({ signingKey: OTHER_KEY_A, nonce: 1 })),
      400,
      'ethSignature: not signed by ethAddress over this request',
    );
  });
});

describe('expiry window (now, now + 7 days]', () => {
  it('refuses now and the past, accepts exactly 7 days, refuses one ms more', async () => {
    harness = await startHarness();
    expectError(
      await auth(await registrationRequest({ expiryTs: NOW })),
      400,
      `expiryTs: must be later than now (${NOW}), got ${NOW}`,
    );
    expectError(
      await auth(await registrationRequest({ expiryTs: NOW - DAY_MS })),
      400,
      `expiryTs: must be later than now (${NOW}), got ${NOW - DAY_MS}`,
    );
    const latest = NOW + 7 * DAY_MS;
    expectError(
      await auth(await registrationRequest({ expiryTs: latest + 1 })),
      400,
      `expiryTs: must be at most 7 days ahead (${latest}), got ${latest + 1}`,
    );
    expect((await auth(await registrationRequest({ expiryTs: latest }))).status).toBe(200);
    // The refused ones did not move the counter.
    expect((await auth(await registrationRequest({ expiryTs: NOW + 1, nonce: 1 }))).status).toBe(
      200,
    );
  });
});

describe('nonce counter and re-login', () => {
  it('starts at 0 and goes up by one per new signing key; a wrong nonce names the expected one', async () => {
    harness = await startHarness();
    expectError(
      await auth(await registrationRequest({ nonce: 1 })),
      400,
      'invalid nonce: expected 0',
    );
    expect((await auth(await registrationRequest({ nonce: 0 }))).status).toBe(200);
    expectError(
      await auth(await registrationRequest({ signingKey: OTHER_KEY_A, nonce: 0 })),
      400,
      'invalid nonce: expected 1',
    );
    expect(
      (await auth(await registrationRequest({ signingKey: OTHER_KEY_A, nonce: 1 }))).status,
    ).toBe(200);
    expectError(
      await auth(await registrationRequest({ signingKey: OTHER_KEY_B, nonce: 3 })),
      400,
      'invalid nonce: expected 2',
    );
  });

  it('re-login of a known signing key carries the current counter, issues a fresh pair and does not move it', async () => {
    harness = await startHarness();
    const first = await register(harness, { nonce: 0 });
    await register(harness, { signingKey: OTHER_KEY_A, nonce: 1 });
    // The first key again, at its old nonce: refused, the counter is 2 now.
    expectError(
      await auth(await registrationRequest({ nonce: 0, expiryTs: NOW + 2 * DAY_MS })),
      400,
      'invalid nonce: expected 2',
    );
    const again = await register(harness, { nonce: 2, expiryTs: NOW + 2 * DAY_MS });
    expect(again.key).not.toBe(first.key);
    expect(again.secret).not.toBe(first.secret);
    // Re-login again at the same counter: still 2.
    await register(harness, { nonce: 2, expiryTs: NOW + 3 * DAY_MS });
    expectError(
      await auth(await registrationRequest({ signingKey: OTHER_KEY_B, nonce: 3 })),
      400,
      'invalid nonce: expected 2',
    );
    // Both pairs of the same key are valid until their own expiry.
    for (const session of [first, again]) {
      const lookup = await harness.send('/api/v1/order/1', { headers: session.headers });
      expectError(lookup, 404, 'order 1 not found');
    }
  });

  it('keeps one counter per subaccount', async () => {
    harness = await startHarness();
    await register(harness, { nonce: 0 });
    expect((await auth(await registrationRequest({ index: 2, nonce: 0 }))).status).toBe(200);
    expect((await auth(await registrationRequest({ brokerId: 5, nonce: 0 }), '5')).status).toBe(
      200,
    );
    const stranger = await registrationRequest({ walletKey: OTHER_KEY_B, nonce: 0 });
    expect((await auth(stranger)).status).toBe(200);
    // The same subaccount with its address in lower case (the signed struct is the same bytes):
    // the same counter, now at 1.
    const lower = WALLET.toLowerCase();
    const body = await registrationRequest({ signingKey: OTHER_KEY_A, nonce: 0 });
    expectError(
      await auth({ ...body, subaccountId: `1_${lower}_1`, ethAddress: lower }),
      400,
      'invalid nonce: expected 1',
    );
  });

  it('lets exactly one of two racing new keys take a nonce', async () => {
    harness = await startHarness();
    const [a, b] = await Promise.all([
      registrationRequest({ signingKey: OTHER_KEY_A, nonce: 0 }),
      registrationRequest({ signingKey: OTHER_KEY_B, nonce: 0 }),
    ]);
    const answers = await Promise.all([auth(a), auth(b)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(answers.find((answer) => answer.status === 400)?.json.message).toBe(
      'invalid nonce: expected 1',
    );
  });
});

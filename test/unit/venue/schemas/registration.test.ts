import { describe, expect, it } from 'vitest';
import { ErrorCodes, QuantaError } from '../../../../src/errors/index.ts';
import {
  credentialsToWire,
  parseRegistrationRequest,
  parseRegistrationResult,
} from '../../../../src/venue/schemas/index.ts';
import { readVector } from '../../../helpers/vectors.ts';

const requests = readVector<{ registrations: { request: { body: Record<string, unknown> } }[] }>(
  'eip712.json',
).registrations.map((registration) => registration.request.body);
const request = requests[0]!;

const KEY = '0123456789abcdef0123456789abcdef';
const SECRET = 'c0ffee00'.repeat(8);

function failure(run: () => unknown): QuantaError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(QuantaError);
    expect((error as QuantaError).code).toBe(ErrorCodes.INVALID_WIRE_DATA);
    return error as QuantaError;
  }
  throw new Error('expected a throw');
}

describe('registration request', () => {
  it.each(requests)('accepts the vector body with nonce $nonce', (body) => {
    expect(parseRegistrationRequest(body)).toStrictEqual(body);
  });

  it.each([
    ['signingKey', { signingKey: '0x1234' }],
    ['ethSignature', { ethSignature: `${String(request.ethSignature)}00` }],
    ['nonce', { nonce: -1 }],
    ['chainId', { chainId: 0 }],
    ['expiryTs', { expiryTs: '1790000000000' }],
    ['subaccountId', { subaccountId: undefined }],
  ])('rejects a bad %s', (field, change) => {
    expect(failure(() => parseRegistrationRequest({ ...request, ...change })).shortMessage).toMatch(
      new RegExp(`^registration request: ${field}: `),
    );
  });

  it('pins a message', () => {
    expect(
      failure(() => parseRegistrationRequest({ ...request, signingKey: '0x1234' })).shortMessage,
    ).toMatchInlineSnapshot(
      `"registration request: signingKey: expected a 0x-prefixed 20-byte hex address, got 6 characters"`,
    );
  });
});

describe('registration result', () => {
  it('parses the credential pair, and credentialsToWire inverts it', () => {
    const wire = { service_key: KEY, service_secret: SECRET };
    const credentials = parseRegistrationResult(wire);
    expect(credentials).toStrictEqual({ serviceKey: KEY, serviceSecret: SECRET });
    expect(credentialsToWire(credentials)).toStrictEqual(wire);
  });

  it.each([
    ['uppercase', SECRET.toUpperCase()],
    ['one character short', SECRET.slice(1)],
    ['one character long', `${SECRET}0`],
    ['with a 0x prefix', `0x${SECRET.slice(2)}`],
  ])('refuses a secret %s without echoing it', (_, secret) => {
    const error = failure(() =>
      parseRegistrationResult({ service_key: KEY, service_secret: secret }),
    );
    expect(error.message).toBe(
      'registration result: service_secret: expected 64 lowercase hex characters',
    );
    const everything = [
      error.message,
      String(error.stack),
      JSON.stringify(error),
      String(error.cause),
    ].join('\n');
    expect(everything.toLowerCase()).not.toContain(SECRET.slice(8, 40));
  });

  it('refuses a key of the wrong shape and a missing secret', () => {
    expect(
      failure(() =>
        parseRegistrationResult({ service_key: KEY.toUpperCase(), service_secret: SECRET }),
      ).shortMessage,
    ).toMatchInlineSnapshot(
      `"registration result: service_key: expected 32 lowercase hex characters"`,
    );
    expect(failure(() => parseRegistrationResult({ service_key: KEY })).shortMessage).toBe(
      'registration result: service_secret: missing',
    );
  });
});

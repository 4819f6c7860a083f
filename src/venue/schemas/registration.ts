import { z } from 'zod';
import { ErrorCodes } from '../../errors/index.ts';
import type { ServiceCredentials } from '../types.ts';
import { hexAddress, hexSignature, nonNegativeInteger, timestampMs } from './primitives.ts';
import { parseWire } from './wire-error.ts';

/**
 * The subaccount registration request body (docs/trading-service-api.md §2.2; every field always sent). The
 * `subaccountId` grammar and its agreement with `ethAddress` and the `Broker-Id` header are
 * checked by `parseSubaccountId` and the verifier, not here.
 */
export const registrationRequestSchema = z.object({
  subaccountId: z.string().min(1, { error: 'expected a non-empty subaccount id' }),
  signingKey: hexAddress,
  signingSignature: hexSignature,
  ethAddress: hexAddress,
  ethSignature: hexSignature,
  expiryTs: timestampMs,
  nonce: nonNegativeInteger,
  chainId: nonNegativeInteger.min(1, {
    error: (issue) => `expected a positive chain id, got ${String(issue.input)}`,
  }),
});

/** A registration request body in wire form. */
export type RegistrationRequest = z.infer<typeof registrationRequestSchema>;

/**
 * Validates a registration request body (the paper venue's input).
 *
 * @throws QuantaError `QUANTA_INVALID_WIRE_DATA` naming the field.
 */
export function parseRegistrationRequest(raw: unknown): RegistrationRequest {
  return parseWire(registrationRequestSchema, raw, {
    code: ErrorCodes.INVALID_WIRE_DATA,
    what: 'registration request',
  });
}

/**
 * The registration result body (docs/trading-service-api.md §2.3). Its messages never quote the value: it is a
 * credential.
 */
export const registrationResultSchema = z.object({
  service_key: z.string().regex(/^[0-9a-f]{32}$/, {
    error: 'expected 32 lowercase hex characters',
  }),
  service_secret: z.string().regex(/^[0-9a-f]{64}$/, {
    error: 'expected 64 lowercase hex characters',
  }),
});

/** The registration result body in wire form (docs/trading-service-api.md §2.3). */
export type RegistrationResult = z.infer<typeof registrationResultSchema>;

/**
 * Parses the body of a successful registration into credentials.
 *
 * @throws QuantaError `QUANTA_INVALID_WIRE_DATA` naming the field and the rule; the message
 *   never contains the key's or the secret's value.
 */
export function parseRegistrationResult(raw: unknown): ServiceCredentials {
  const result = parseWire(registrationResultSchema, raw, {
    code: ErrorCodes.INVALID_WIRE_DATA,
    what: 'registration result',
  });
  return { serviceKey: result.service_key, serviceSecret: result.service_secret };
}

/** The wire body for credentials (the paper venue answers with it). */
export function credentialsToWire(credentials: ServiceCredentials): RegistrationResult {
  return { service_key: credentials.serviceKey, service_secret: credentials.serviceSecret };
}

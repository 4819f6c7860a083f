import type { IncomingHttpHeaders } from 'node:http';

/** The header names of docs/conventions.md §4.1, as written in messages. */
export interface CredentialHeaderNames {
  readonly brokerId: string;
  readonly key: string;
  readonly secret: string;
  readonly signer: string;
  readonly signature: string;
}

/**
 * The credential header names for a prefix (docs/conventions.md §4.1: `Service-` by default; a
 * deployment may name them differently). `Broker-Id` never takes the prefix.
 *
 * @example
 * credentialHeaderNames('Service-').key; // 'Service-Key'
 */
export function credentialHeaderNames(prefix: string): CredentialHeaderNames {
  return {
    brokerId: 'Broker-Id',
    key: `${prefix}Key`,
    secret: `${prefix}Secret`,
    signer: `${prefix}Signer-Address`,
    signature: `${prefix}Signature`,
  };
}

/**
 * A request header's value by name (any case), trimmed; `undefined` when absent or empty.
 * Repeated headers arrive joined with ", " and are taken as that one (invalid) value.
 */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const raw = headers[name.toLowerCase()];
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

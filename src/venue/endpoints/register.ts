import { venueRequest } from '../http/index.ts';
import { parseRegistrationResult, type RegistrationRequest } from '../schemas/index.ts';
import type { ServiceCredentials } from '../types.ts';
import { connectionOptions, type VenueConnection } from './connection.ts';

/**
 * POST /api/v1/auth (docs/trading-service-api.md §4.1): registers a signing key for the subaccount and returns the
 * credential pair. The secret is only in the returned value; never log it.
 *
 * @param request - a body from `signRegistration`.
 * @throws VenueError (`VENUE_REJECTED` with the venue's reason, e.g. "invalid nonce: expected 1").
 */
export async function register(
  connection: VenueConnection,
  brokerId: number,
  request: RegistrationRequest,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<ServiceCredentials> {
  const { body } = await venueRequest({
    method: 'POST',
    path: '/api/v1/auth',
    headers: { 'Broker-Id': String(brokerId) },
    body: request,
    ...connectionOptions(connection, options.signal),
  });
  return parseRegistrationResult(body);
}

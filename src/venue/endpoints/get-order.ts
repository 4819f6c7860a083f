import { ErrorCodes, isQuantaError } from '../../errors/index.ts';
import { assertCredentialTransport, venueRequest } from '../http/index.ts';
import { parseVenueOrder } from '../schemas/index.ts';
import type { VenueOrder } from '../types.ts';
import { credentialHeaders, type OrderCredentials, type VenueConnection } from './connection.ts';

/**
 * GET /api/v1/order/{id} (docs/conventions.md §6 extension): the order as it is now.
 *
 * @returns the order, or `undefined` on 404 (no such order, or a venue without lookup).
 * @throws VenueError for any other failed call.
 */
export async function getOrder(
  connection: VenueConnection,
  credentials: OrderCredentials,
  orderId: number,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<VenueOrder | undefined> {
  assertCredentialTransport(connection.baseUrl);
  try {
    const { body } = await venueRequest({
      baseUrl: connection.baseUrl,
      method: 'GET',
      path: `/api/v1/order/${orderId}`,
      headers: credentialHeaders(credentials),
      timeoutMs: connection.timeoutMs,
      maxResponseBytes: connection.maxResponseBytes,
      fetchImpl: connection.fetchImpl,
      startTimer: connection.startTimer,
      timing: connection.timing,
      signal: options.signal,
    });
    return parseVenueOrder(body);
  } catch (error) {
    if (isQuantaError(error, ErrorCodes.VENUE_NOT_FOUND)) return undefined;
    throw error;
  }
}

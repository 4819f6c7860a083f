import { ErrorCodes, isQuantaError } from '../../errors/index.ts';
import { assertCredentialTransport, venueRequest } from '../http/index.ts';
import { parseVenueOrder } from '../schemas/index.ts';
import type { VenueOrder } from '../types.ts';
import {
  connectionOptions,
  credentialHeaders,
  type OrderCredentials,
  type VenueConnection,
} from './connection.ts';

/** One order read with the credential headers: the order, or undefined on 404. */
async function readOrder(
  connection: VenueConnection,
  credentials: OrderCredentials,
  where: { path: string; query?: Record<string, string> },
  signal: AbortSignal | undefined,
): Promise<VenueOrder | undefined> {
  assertCredentialTransport(connection.baseUrl);
  try {
    const { body } = await venueRequest({
      method: 'GET',
      ...where,
      headers: credentialHeaders(credentials),
      ...connectionOptions(connection, signal),
    });
    return parseVenueOrder(body);
  } catch (error) {
    if (isQuantaError(error, ErrorCodes.VENUE_NOT_FOUND)) return undefined;
    throw error;
  }
}

/**
 * GET /api/v1/order/{id} (docs/conventions.md §6 extension): the order as it is now.
 *
 * @returns the order, or `undefined` on 404 (no such order, or a venue without lookup).
 * @throws VenueError for any other failed call.
 */
export function getOrder(
  connection: VenueConnection,
  credentials: OrderCredentials,
  orderId: number,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<VenueOrder | undefined> {
  return readOrder(connection, credentials, { path: `/api/v1/order/${orderId}` }, options.signal);
}

/**
 * GET /api/v1/order?signature=0x… (docs/conventions.md §6 extension): the order an accepted
 * request signed with `signature` created, as it is now.
 *
 * @returns the order, or `undefined` on 404 (the venue never accepted that signature, or it
 *   has no such lookup).
 * @throws VenueError for any other failed call.
 */
export function findOrder(
  connection: VenueConnection,
  credentials: OrderCredentials,
  signature: string,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<VenueOrder | undefined> {
  return readOrder(
    connection,
    credentials,
    { path: '/api/v1/order', query: { signature } },
    options.signal,
  );
}

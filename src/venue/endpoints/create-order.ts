import { createdAtSample } from '../../clock/venue-time.ts';
import { assertCredentialTransport, venueRequest } from '../http/index.ts';
import { parseVenueOrder } from '../schemas/index.ts';
import type { VenueOrder } from '../types.ts';
import {
  connectionOptions,
  credentialHeaders,
  type OrderCredentials,
  type VenueConnection,
} from './connection.ts';

/** A signed order as the journal keeps it: the exact body bytes and the signature over them. */
export interface SignedOrderBytes {
  readonly body: string;
  readonly signature: string;
}

/**
 * POST /api/v1/order (docs/trading-service-api.md §4.2) with the docs/conventions.md §4.1 headers. `body` is sent byte for
 * byte, so a retry resends exactly what was signed.
 *
 * @throws QuantaError `QUANTA_INSECURE_TRANSPORT` before sending credentials over plain http to
 *   a non-loopback host; VenueError for any failed call (409 → `VENUE_SIGNATURE_USED`).
 */
export async function createOrder(
  connection: VenueConnection,
  credentials: OrderCredentials,
  order: SignedOrderBytes,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<VenueOrder> {
  assertCredentialTransport(connection.baseUrl);
  const { body, timing } = await venueRequest({
    method: 'POST',
    path: '/api/v1/order',
    headers: {
      ...credentialHeaders(credentials),
      [`${credentials.headerPrefix}Signature`]: order.signature,
    },
    body: order.body,
    ...connectionOptions(connection, options.signal),
  });
  const placed = parseVenueOrder(body);
  // The venue stamps a new order with its own time, to the millisecond: a finer reading of its
  // clock than the Date header's second.
  if (timing !== undefined)
    connection.timing?.observe(createdAtSample(placed.createdAt, timing.sentAt, timing.answeredAt));
  return placed;
}

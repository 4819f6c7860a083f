import { ErrorCodes, isQuantaError } from '../../errors/index.ts';
import { venueRequest } from '../http/index.ts';
import { parseQuotes } from '../schemas/index.ts';
import type { Quote } from '../../domain/index.ts';
import { connectionOptions, type VenueConnection } from './connection.ts';

/**
 * GET /api/v1/quotes (docs/conventions.md §6 extension): books of active markets, best level first.
 *
 * @returns the quotes, or `undefined` when the venue has no quotes endpoint (404): that venue
 *   gives snapshots without prices, it is not a failure.
 * @throws VenueError for any other failed call.
 */
export async function getQuotes(
  connection: VenueConnection,
  options: { marketId?: number | undefined; signal?: AbortSignal | undefined } = {},
): Promise<Quote[] | undefined> {
  try {
    const { body } = await venueRequest({
      method: 'GET',
      path: '/api/v1/quotes',
      query: { marketId: options.marketId },
      ...connectionOptions(connection, options.signal),
    });
    return parseQuotes(body);
  } catch (error) {
    if (isQuantaError(error, ErrorCodes.VENUE_NOT_FOUND)) return undefined;
    throw error;
  }
}

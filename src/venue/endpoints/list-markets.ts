import { venueRequest } from '../http/index.ts';
import { parseMarketList } from '../schemas/index.ts';
import type { Market, MarketType } from '../../domain/index.ts';
import type { VenueConnection } from './connection.ts';

/**
 * GET /api/v1/market (docs/trading-service-api.md §4.3): the markets, parsed (bigint fields).
 *
 * @param type - `PERPETUAL` or `SPOT` to filter; all markets when absent.
 * @throws VenueError for any failed call; QuantaError `QUANTA_INVALID_MARKET` for a bad row.
 */
export async function listMarkets(
  connection: VenueConnection,
  options: { type?: MarketType | undefined; signal?: AbortSignal | undefined } = {},
): Promise<Market[]> {
  const { body } = await venueRequest({
    baseUrl: connection.baseUrl,
    method: 'GET',
    path: '/api/v1/market',
    query: { type: options.type },
    timeoutMs: connection.timeoutMs,
    maxResponseBytes: connection.maxResponseBytes,
    fetchImpl: connection.fetchImpl,
    startTimer: connection.startTimer,
    timing: connection.timing,
    signal: options.signal,
  });
  return parseMarketList(body);
}

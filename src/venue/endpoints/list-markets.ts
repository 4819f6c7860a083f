import { venueRequestDecoded, type AnswerMemo } from '../http/index.ts';
import { parseMarketList } from '../schemas/index.ts';
import type { Market, MarketType } from '../../domain/index.ts';
import { connectionOptions, type VenueConnection } from './connection.ts';

/** The last listing a client decoded (see {@link listMarkets}' `memo`). */
export type MarketListMemo = AnswerMemo<readonly Market[]>;

/** A listing memo with nothing in it yet. */
export function newMarketListMemo(): MarketListMemo {
  return { last: undefined };
}

/** The body's markets, each frozen: a memo hands the same objects out again. */
function decodeMarkets(body: unknown): readonly Market[] {
  return parseMarketList(body).map((market) => Object.freeze(market));
}

/**
 * GET /api/v1/market (docs/trading-service-api.md §4.3): the markets, parsed (bigint fields).
 *
 * @param options.memo - where the last listing is kept: an answer with exactly its text is not
 *   parsed again (a poller lists every second; the listing seldom changes). The markets are
 *   then the same frozen objects as last time, in a new array.
 * @throws VenueError for any failed call; QuantaError `QUANTA_INVALID_MARKET` for a bad row.
 */
export async function listMarkets(
  connection: VenueConnection,
  options: {
    type?: MarketType | undefined;
    signal?: AbortSignal | undefined;
    memo?: MarketListMemo | undefined;
  } = {},
): Promise<Market[]> {
  const markets = await venueRequestDecoded(
    {
      method: 'GET',
      path: '/api/v1/market',
      query: { type: options.type },
      ...connectionOptions(connection, options.signal),
    },
    decodeMarkets,
    options.memo ?? newMarketListMemo(),
  );
  return [...markets];
}

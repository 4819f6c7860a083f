import { systemClock } from '../clock/clock.ts';
import { locatedLine, type Config } from '../config/index.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { startPaperVenue, type PaperVenue } from '../paper/index.ts';
import { DEFAULT_SIM_MARKETS } from '../sim/index.ts';
import { signingDomainOf } from './signing-domain.ts';

/** The venue URLs a bot talks to, and the embedded paper venue when the config asks for one. */
export interface VenueEndpoints {
  readonly writeUrl: string;
  readonly readUrl: string;
  readonly embedded: PaperVenue | undefined;
}

/**
 * Resolves `embedded` URLs by starting the paper venue in this process on an ephemeral loopback
 * port, so even the default run goes through the real HTTP client and signing.
 */
export async function resolveVenue(config: Config): Promise<VenueEndpoints> {
  const { writeUrl, readUrl } = config.venue;
  if (writeUrl !== 'embedded' && readUrl !== 'embedded')
    return { writeUrl, readUrl, embedded: undefined };
  const startedAt = systemClock.now();
  const embedded = await startPaperVenue({
    port: 0,
    seed: config.paper.seed,
    domain: signingDomainOf(config),
    headerPrefix: config.venue.headerPrefix,
    ...(config.paper.rateLimit === undefined ? {} : { rateLimit: config.paper.rateLimit }),
    ...(config.paper.volatilityBps === undefined
      ? {}
      : { volatilityBps: config.paper.volatilityBps }),
    ...(config.paper.spreadBps === undefined ? {} : { spreadBps: config.paper.spreadBps }),
    balance: config.paper.balance,
    listings: config.paper.listings.map(({ market, activeAfterMs }, index) => {
      const listed = DEFAULT_SIM_MARKETS.find((m) => m.symbol === market);
      if (listed === undefined) {
        throw new QuantaError(
          ErrorCodes.CONFIG_INVALID,
          locatedLine(
            config.source,
            ['paper', 'listings', index, 'market'],
            `market ${JSON.stringify(market)} is not a paper venue market`,
          ),
          {
            details: [`Paper markets: ${DEFAULT_SIM_MARKETS.map((m) => m.symbol).join(', ')}`],
          },
        );
      }
      return { marketId: listed.id, activeAtMs: startedAt + activeAfterMs };
    }),
  });
  return {
    writeUrl: writeUrl === 'embedded' ? embedded.url : writeUrl,
    readUrl: readUrl === 'embedded' ? embedded.url : readUrl,
    embedded,
  };
}

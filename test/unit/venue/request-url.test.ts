/**
 * `requestUrl` (venue/http/request-url.ts) builds each request's URL without parsing a URL: it
 * must give exactly what `buildUrl`, the URL-object way, gives, for every base, path and query.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildUrl,
  knownBase,
  requestUrl,
  type VenueQuery,
} from '../../../src/venue/http/request-url.ts';

const BASES = [
  'http://127.0.0.1:9',
  'http://127.0.0.1:8080/',
  'https://venue.example',
  'https://venue.example/prefix',
  'https://venue.example/prefix//',
  'https://VENUE.example:443/a%20b/',
  'http://venue.example/x?ignored=1#frag',
];

const PATHS = [
  '/api/v1/market',
  '/api/v1/order/42',
  'api/v1/quotes',
  '/api/v1/order',
  '/a b/ü',
  '/a/../b',
  '/a/%2e%2e/b',
  '/x#y',
  '/api/v1/order?signature=0xab',
  '/q?a=b c&d=%41',
  '',
];

const queryValue = fc.oneof(
  fc.constant(undefined),
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
);

describe('requestUrl', () => {
  it('is buildUrl for fixed bases, paths and queries', () => {
    const queries: (VenueQuery | undefined)[] = [
      undefined,
      {},
      { type: undefined },
      { type: 'PERPETUAL' },
      { marketId: 7, type: undefined },
      { signature: `0x${'ab'.repeat(65)}` },
      { 'a b': 'c&d=e', '': '', ü: '#?' },
      { n: 1.5, t: true, f: false },
    ];
    for (const baseUrl of BASES) {
      const { base } = knownBase(baseUrl, 'GET /');
      for (const path of PATHS) {
        for (const query of queries) {
          expect(requestUrl(base, baseUrl, path, query), `${baseUrl} ${path}`).toBe(
            buildUrl(base, path, query),
          );
        }
      }
    }
  });

  it('is buildUrl for random queries and paths (2000 runs)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BASES),
        fc.oneof(
          fc.constantFrom(...PATHS),
          fc.string().map((s) => `/${s}`),
        ),
        fc.dictionary(fc.string(), queryValue),
        (baseUrl, path, query) => {
          const { base } = knownBase(baseUrl, 'GET /');
          expect(requestUrl(base, baseUrl, path, query)).toBe(buildUrl(base, path, query));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

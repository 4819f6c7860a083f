/**
 * `poll.quoteMarkets: traded`: a bot that trades one market asks the venue for that market's
 * quotes only (`GET /quotes?marketId=`), through every wrapper `quanta run` puts around the
 * venue client, and trades as before; the default asks for every market's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log/logger.ts';
import { startPaperVenue, type PaperVenue } from '../../../src/paper/index.ts';
import { WALLET_ENV, botConfig, runBotFor } from '../account/bot-run.ts';
import { T0, WALLET_KEY } from '../account/helpers.ts';
import { startReadFaultProxy, type ReadFaultProxy } from './read-fault-proxy.ts';

let venue: PaperVenue | undefined;
let proxy: ReadFaultProxy | undefined;
let dir: string | undefined;
afterEach(async () => {
  await proxy?.close();
  await venue?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

async function quoteQueries(quoteMarkets: 'all' | 'traded' | undefined) {
  const clock = { now: T0 };
  venue = await startPaperVenue({ port: 0, seed: 3, clock: () => clock.now });
  proxy = await startReadFaultProxy(venue.url, () => 'forward', { slowMs: 0 });
  dir = mkdtempSync(join(tmpdir(), 'quanta-quote-markets-'));
  const { rows } = await runBotFor({
    config: botConfig(dir, {
      venueUrl: proxy.url,
      stateDir: join(dir, 'state'),
      ...(quoteMarkets === undefined ? {} : { quoteMarkets }),
    }),
    env: { [WALLET_ENV]: WALLET_KEY },
    log: silentLogger,
    clock,
    polls: 6,
  });
  const queries = proxy.reads.filter((read) => read.path === '/api/v1/quotes').map((r) => r.query);
  return { queries, filled: rows.filter((row) => row.state === 'FILLED').length };
}

it('traded: after the first listing, each poll asks the quotes of ETH-USD (market 1) only', async () => {
  const { queries, filled } = await quoteQueries('traded');
  expect(queries.length).toBeGreaterThanOrEqual(6);
  // The first poll knows no market id yet: it asks for all, so ETH-USD is never without a quote.
  expect(queries[0]).toBe('');
  expect(queries.slice(1)).toEqual(queries.slice(1).map(() => '?marketId=1'));
  // dca bought ETH-USD on the scoped quotes: the position it holds is in the same market.
  expect(filled).toBeGreaterThanOrEqual(3);
}, 60_000);

it('all (the default): every poll asks every market quotes', async () => {
  const { queries, filled } = await quoteQueries(undefined);
  expect(queries.length).toBeGreaterThanOrEqual(6);
  expect(queries).toEqual(queries.map(() => ''));
  expect(filled).toBeGreaterThanOrEqual(3);
}, 60_000);

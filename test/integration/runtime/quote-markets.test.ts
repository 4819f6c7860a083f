/**
 * `poll.quoteMarkets: traded`: a bot that trades one market asks the venue for that market's
 * quotes only (`GET /quotes?marketId=`), through the wrappers `quanta run` puts around the venue
 * client (the control server's metrics among them), and trades as before; a bot that holds a
 * position in another market asks for every market's; the default asks for every market's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log/logger.ts';
import { startPaperVenue, type PaperVenue } from '../../../src/paper/index.ts';
import { WALLET_ENV, botConfig, runBotFor, type BotConfigOptions } from '../account/bot-run.ts';
import { T0, WALLET_KEY, type TestClock } from '../account/helpers.ts';
import { startReadFaultProxy, type ReadFaultProxy } from './read-fault-proxy.ts';

let venue: PaperVenue | undefined;
let proxy: ReadFaultProxy | undefined;
let dir: string | undefined;
afterEach(async () => {
  await proxy?.close();
  await venue?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  venue = proxy = dir = undefined;
});

async function startVenue(): Promise<{ clock: TestClock; proxy: ReadFaultProxy; dir: string }> {
  const clock = { now: T0 };
  venue = await startPaperVenue({ port: 0, seed: 3, clock: () => clock.now });
  proxy = await startReadFaultProxy(venue.url, () => 'forward', { slowMs: 0 });
  dir = mkdtempSync(join(tmpdir(), 'quanta-quote-markets-'));
  return { clock, proxy, dir };
}

/** Runs 6 polls of dca on the venue behind the proxy; the quote queries it made, and its fills. */
async function quoteQueries(
  setup: { clock: TestClock; proxy: ReadFaultProxy; dir: string },
  options: Pick<BotConfigOptions, 'quoteMarkets' | 'markets'>,
): Promise<{ queries: string[]; filled: number[] }> {
  const before = setup.proxy.reads.length;
  const { rows } = await runBotFor({
    config: botConfig(setup.dir, {
      venueUrl: setup.proxy.url,
      stateDir: join(setup.dir, 'state'),
      control: true,
      ...options,
    }),
    env: { [WALLET_ENV]: WALLET_KEY },
    log: silentLogger,
    clock: setup.clock,
    polls: 6,
  });
  const queries = setup.proxy.reads
    .slice(before)
    .filter((read) => read.path === '/api/v1/quotes')
    .map((read) => read.query);
  return { queries, filled: rows.filter((row) => row.state === 'FILLED').map((r) => r.marketId) };
}

it('traded: after the first listing, each poll asks the quotes of ETH-USD (market 1) only', async () => {
  const { queries, filled } = await quoteQueries(await startVenue(), { quoteMarkets: 'traded' });
  expect(queries.length).toBeGreaterThanOrEqual(6);
  // The first poll knows no market id yet: it asks for all, so ETH-USD is never without a quote.
  expect(queries[0]).toBe('');
  expect(queries.slice(1)).toEqual(queries.slice(1).map(() => '?marketId=1'));
  // dca bought ETH-USD on the scoped quotes: the position it holds is in the same market.
  expect(filled.length).toBeGreaterThanOrEqual(3);
  expect(new Set(filled)).toEqual(new Set([1]));
}, 60_000);

it('traded: a bot restarted holding SOL-USD asks every market quotes while it trades ETH-USD', async () => {
  const setup = await startVenue();
  const first = await quoteQueries(setup, { quoteMarkets: 'traded', markets: ['SOL-USD'] });
  expect(first.queries.slice(1)).toEqual(first.queries.slice(1).map(() => '?marketId=5'));
  expect(first.filled.length).toBeGreaterThanOrEqual(3);
  // The same state dir, the strategy moved to ETH-USD: the SOL-USD position (from the journal)
  // needs its mark, so no poll narrows the quotes to ETH-USD.
  const second = await quoteQueries(setup, { quoteMarkets: 'traded', markets: ['ETH-USD'] });
  expect(second.queries.length).toBeGreaterThanOrEqual(6);
  expect(second.queries).toEqual(second.queries.map(() => ''));
}, 60_000);

it('all (the default): every poll asks every market quotes', async () => {
  const { queries, filled } = await quoteQueries(await startVenue(), {});
  expect(queries.length).toBeGreaterThanOrEqual(6);
  expect(queries).toEqual(queries.map(() => ''));
  expect(filled.length).toBeGreaterThanOrEqual(3);
}, 60_000);

/**
 * What an open live page costs the order path (issue 30: "the page costs the bot nothing it can
 * notice"). The executor bench's case (b), the stack the bot builds over HTTP to an in-process
 * paper venue with an in-memory journal, one intent per snapshot, each answered before the
 * next, run twice side by side: each stack with its own BotOperations, live feed (pushes spaced
 * 250 ms, as the bot's) and control server on port 0, told about every snapshot as the bot's
 * loop tells it (`operations.traded`). On one of them a page is open: an SSE client on
 * `GET /events` reading every push. The two alternate every 25 orders, so a burst of load on
 * the machine lands on both alike.
 *
 * Figure: orders/s with the page open / without (median of the rounds, goal >= 0.9: within
 * noise). BENCH_ORDERS (per case and round, default 300), BENCH_ROUNDS (default 5).
 */
import { get, type IncomingMessage } from 'node:http';
import pino from 'pino';
import { keccak256, toHex } from 'viem';
import { parseConfig } from '../../src/config/index.ts';
import { OrderJournal } from '../../src/execution/journal.ts';
import { TradingModes } from '../../src/execution/trading-mode.ts';
import { createLogger } from '../../src/log/logger.ts';
import { createSnapshot } from '../../src/market/snapshot.ts';
import { startPaperVenue, type PaperVenue } from '../../src/paper/index.ts';
import type { CredentialManager } from '../../src/account/credential-manager.ts';
import { BotOperations } from '../../src/runtime/control/bot-operations.ts';
import { startControlServer } from '../../src/runtime/control/control-server.ts';
import { LiveFeed } from '../../src/runtime/control/live-feed.ts';
import { buildTradingStack } from '../../src/stack/trading-stack.ts';
import { createOrder, register } from '../../src/venue/endpoints/index.ts';
import { httpVenueReads, httpVenueRegistrar } from '../../src/venue/http-venue-client.ts';
import { orderSigningKey, signRegistration } from '../../src/venue/signing/index.ts';
import { DEFAULT_SIGNING_DOMAIN } from '../../src/venue/types.ts';
import { reportFigure } from './figures.ts';

const N = Number(process.env.BENCH_ORDERS ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CHUNK = 25;
const WALLET_KEY = keccak256(toHex('quanta bench wallet'));
const SIGNING_KEY = keccak256(toHex('quanta bench signing key'));
const log = createLogger({
  level: 'info',
  destination: pino.destination({ dest: '/dev/null', sync: true }),
});

/** One bot's order path with its control server; `run` sends `orders` orders. */
async function botStack(venue: PaperVenue, credentials: Awaited<ReturnType<typeof account>>) {
  const journal = OrderJournal.open(':memory:');
  const config = parseConfig(
    `venue: { writeUrl: "${venue.url}", readUrl: "${venue.url}" }\n` +
      'risk: { maxOrderNotional: "1000000", maxPositionNotional: "100000000" }\n',
    'bench.yaml',
    process.cwd(),
  );
  const key = orderSigningKey(SIGNING_KEY);
  const connection = { baseUrl: venue.url, timeoutMs: 5000 };
  const { executor, dispatcher, session } = await buildTradingStack({
    config,
    strategies: [],
    journal,
    venue: {
      ...httpVenueReads(connection),
      ...httpVenueRegistrar(connection),
      getOrder: () => Promise.resolve(undefined),
      createOrder: (request, signal) =>
        createOrder(
          connection,
          credentials.order,
          { body: request.body, signature: request.signature },
          { signal },
        ),
    },
    signer: {
      sign: (body) =>
        Promise.resolve({
          signature: key.signOrderBody(credentials.subaccountId, body, DEFAULT_SIGNING_DOMAIN),
          signer: key.address,
        }),
    },
    rate: { requests: 100_000, perMs: 1000, concurrency: 2, maxAttempts: 3 },
    killSwitchOn: () => false,
    capitalX18: 100_000n * 10n ** 18n, // the venue's starting balance: the bot knows its account
    now: Date.now,
    sleep: () => Promise.resolve(),
    log,
  });
  const operations = new BotOperations({
    config: { poll: config.poll },
    now: Date.now,
    executor,
    dispatcher,
    session,
    poller: { failures: 0, lastGoodAt: Date.now(), lastGoodAgeMs: () => 0 },
    journal,
    credentials: {
      current: () => ({
        credentials: credentials.order,
        signingPrivateKey: SIGNING_KEY,
        subaccountId: credentials.subaccountId,
        expiryTs: Date.now() + 3_600_000,
      }),
      signingRefusal: () => undefined,
      state: () => ({
        signer: credentials.order.signerAddress,
        expiryTs: Date.now() + 3_600_000,
        canSign: true,
        signingRefusal: undefined,
        refusedKeys: 0,
        newKeyInMs: undefined,
      }),
    } satisfies Pick<CredentialManager, 'current' | 'signingRefusal' | 'state'>,
    modes: new TradingModes({ now: Date.now, log }),
    symbolOf: () => 'ETH-USD',
    feed: new LiveFeed({ now: () => performance.now(), minIntervalMs: 250, log }),
  });
  operations.setRunning(true);
  const server = await startControlServer({
    host: '127.0.0.1',
    port: 0,
    tokens: undefined,
    handlers: operations.handlers(),
    log,
  });
  const engine = venue.engine;
  let seq = 0;
  const run = async (orders: number): Promise<number> => {
    let total = 0;
    for (let i = 0; i < orders; i++) {
      seq += 1;
      const snapshot = createSnapshot({
        seq,
        takenAt: Date.now(),
        markets: engine.listMarkets(),
        quotes: engine.quotes(),
      });
      const started = performance.now();
      const outcome = await executor.submit(
        'bench',
        { marketId: 1, side: seq % 2 === 0 ? 'BUY' : 'SELL', type: 'MARKET', amount: '0.01' },
        snapshot,
      );
      await executor.settle();
      // What the bot's loop does after each snapshot: the page's push (built only while open).
      operations.traded(snapshot, seq);
      total += performance.now() - started;
      if (outcome.kind !== 'sent') throw new Error(`order ${seq} refused`);
    }
    return total;
  };
  const close = async (): Promise<void> => {
    await dispatcher.drain(1000);
    await server.close();
    journal.close();
  };
  return { run, close, url: server.url };
}

async function account(venue: PaperVenue) {
  const request = await signRegistration({
    walletPrivateKey: WALLET_KEY,
    signingPrivateKey: SIGNING_KEY,
    brokerId: 1,
    subaccountIndex: 1,
    expiryTs: Date.now() + 3_600_000,
    nonce: 0,
    chainId: 42161,
    domain: DEFAULT_SIGNING_DOMAIN,
  });
  const { serviceKey, serviceSecret } = await register(
    { baseUrl: venue.url, timeoutMs: 5000 },
    1,
    request,
  );
  return {
    subaccountId: request.subaccountId,
    order: {
      brokerId: 1,
      serviceKey,
      serviceSecret,
      signerAddress: request.signingKey,
      headerPrefix: 'Service-',
    },
  };
}

/** An open page: an SSE client reading every push; resolves once the first status came. */
function openPage(url: string): Promise<{ pushes: () => number; close: () => void }> {
  return new Promise((resolve, reject) => {
    let pushes = 0;
    const req = get(`${url}/events`, (res: IncomingMessage) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const before = pushes;
        pushes += chunk.split('event: status').length - 1;
        if (before === 0 && pushes > 0)
          resolve({ pushes: () => pushes, close: () => req.destroy() });
      });
    });
    req.on('error', reject);
  });
}

async function main(): Promise<void> {
  const venue = await startPaperVenue({ port: 0, seed: 30 });
  const ratios: number[] = [];
  const chunks = Math.max(1, Math.ceil(N / CHUNK));
  try {
    const credentials = await account(venue);
    console.log(
      `${chunks * CHUNK} orders per case and round, ${ROUNDS} rounds, alternating every ${CHUNK} orders\n` +
        '  closed: the executor stack with its control server and live feed, no page open\n' +
        '  open: the same with a page open (an SSE client on GET /events reading every push)',
    );
    console.log('round  closed/s  open/s  open/closed  pushes read');
    const warm = await botStack(venue, credentials);
    await warm.run(50);
    await warm.close();
    for (let round = 0; round < ROUNDS; round++) {
      const closed = await botStack(venue, credentials);
      const open = await botStack(venue, credentials);
      const page = await openPage(open.url);
      let closedMs = 0;
      let openMs = 0;
      for (let chunk = 0; chunk < chunks; chunk++) {
        closedMs += await closed.run(CHUNK);
        openMs += await open.run(CHUNK);
      }
      page.close();
      await closed.close();
      await open.close();
      const rate = (ms: number): number => ((chunks * CHUNK) / ms) * 1000;
      ratios.push(rate(openMs) / rate(closedMs));
      console.log(
        `${String(round + 1).padStart(5)}  ${rate(closedMs).toFixed(0).padStart(8)}  ${rate(openMs).toFixed(0).padStart(6)}  ${(rate(openMs) / rate(closedMs)).toFixed(3).padStart(11)}  ${String(page.pushes()).padStart(11)}`,
      );
    }
  } finally {
    await venue.close();
  }
  reportFigure({
    name: 'executor with the live page open / closed',
    measures: `one MARKET intent per snapshot through the stack the bot builds (in-memory journal, HTTP to an in-process paper venue), with its control server and live feed, a page open (an SSE client reading every push), ${N} orders a round, orders/s`,
    baseline:
      'the same stack with its control server and live feed and no page open, alternating every 25 orders',
    goal: { atLeast: 0.9 },
    unit: 'x',
    rounds: ratios,
  });
}

await main();

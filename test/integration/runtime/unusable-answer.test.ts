/**
 * Issue 11: what a 200 with an unusable answer means, decided by the error registry. The venue
 * may have placed the order behind a proxy that mangled the answer, so the dispatcher resends
 * the identical signed bytes; the venue answers 409 "signature already used", and the journal
 * records ACCEPTED while the venue holds exactly one order (found by its signature on a later
 * poll: FILLED). Two ways to be unusable: no envelope
 * at all (an HTML page, `VENUE_BAD_RESPONSE`) and an envelope whose order does not parse
 * (`INVALID_WIRE_DATA`, which the old policy, trusting only `VenueError`s, left UNKNOWN).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { startPaperVenue } from '../../../src/paper/index.ts';
import {
  captureLogs,
  journalPath,
  readJournal,
  runBot,
  strategyModule,
  tempDir,
  venueOrders,
  waitFor,
  writeBotConfig,
} from './harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

/** An answer a venue-facing proxy might give: status, content type and text. */
interface Mangled {
  readonly type: string;
  readonly text: string;
}

/**
 * A proxy on port 0 in front of `target` that forwards everything, but answers the first order
 * request (after the venue has taken it) with `mangled` and status 200. Keeps each order
 * request's signature and body.
 */
async function mangleFirstOrderAnswer(target: string, mangled: Mangled) {
  const orders: { signature: string; body: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const isOrder = req.method === 'POST' && req.url === '/api/v1/order';
      if (isOrder) {
        const signature = req.headers['service-signature'];
        orders.push({
          signature: typeof signature === 'string' ? signature : '',
          body: body.toString('utf8'),
        });
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
          headers[name] = value;
      void (async () => {
        const upstream = await fetch(`${target}${req.url ?? '/'}`, {
          method: req.method ?? 'GET',
          headers,
          ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
        });
        const text = await upstream.text();
        const answer =
          isOrder && orders.length === 1
            ? { status: 200, ...mangled }
            : {
                status: upstream.status,
                type: upstream.headers.get('content-type') ?? 'application/json',
                text,
              };
        res.writeHead(answer.status, { 'content-type': answer.type });
        res.end(answer.text);
      })().catch(() => {
        res.writeHead(502).end();
      });
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    orders,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

it.each([
  ['an HTML page', { type: 'text/html', text: '<html><title>OK</title><body>ok</body></html>' }],
  [
    'an envelope whose order does not parse',
    {
      type: 'application/json',
      text: JSON.stringify({
        body: { id: 'x' },
        message: 'Order created successfully',
        status: 200,
      }),
    },
  ],
])(
  'a 200 with %s: the identical bytes are resent, the 409 records ACCEPTED, one order on the venue, found',
  async (_name, mangled) => {
    const venue = await startPaperVenue({ port: 0, seed: 8 });
    cleanups.push(() => venue.close());
    const proxy = await mangleFirstOrderAnswer(venue.url, mangled);
    cleanups.push(() => proxy.close());
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const path = await writeBotConfig(dir, {
      writeUrl: proxy.url,
      readUrl: venue.url,
      strategies: [
        {
          module: strategyModule('fixtures/scripted'),
          markets: ['ETH-USD'],
          params: { intents: [{ symbol: 'ETH-USD', side: 'BUY', amount: '0.012345' }] },
        },
      ],
    });
    const logs = captureLogs();
    const running = await runBot(path, logs.log);
    cleanups.push(() => running.stop());
    // ACCEPTED first, then FILLED once the lookup by signature finds the venue's order.
    await waitFor(
      'the order to be resolved',
      () => running.bot.journal.all()[0]?.state === 'FILLED',
    );
    await running.stop();
    const rows = readJournal(journalPath(dir));

    expect(proxy.orders).toHaveLength(2);
    expect(proxy.orders[1]).toEqual(proxy.orders[0]);
    const onVenue = venueOrders(venue, running.accountId);
    expect(onVenue).toHaveLength(1);
    expect(rows).toHaveLength(1);
    const accepted = logs.withMessage(`order ${rows[0]?.id} ACCEPTED`);
    expect(accepted).toHaveLength(1);
    expect(accepted[0]?.['error']).toMatch(/already seen this signature/);
    expect(rows[0]).toMatchObject({ state: 'FILLED', attempts: 2, venueOrderId: onVenue[0]?.id });
  },
);

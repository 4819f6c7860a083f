/**
 * startPaperVenue's options: refused with a message naming the option, a bound port reported,
 * an engine served as given, and a fault answered 500 in the envelope.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';
import { type PaperVenueOptions, startPaperVenue } from '../../../src/paper/index.ts';
import { SimEngine } from '../../../src/sim/index.ts';
import { NOW, startHarness } from './harness.ts';

async function refusal(options: PaperVenueOptions): Promise<QuantaError> {
  const error: unknown = await startPaperVenue(options).then(
    async (venue) => {
      await venue.close();
      return undefined;
    },
    (e: unknown) => e,
  );
  if (!(error instanceof QuantaError)) throw new Error('expected a QuantaError');
  return error;
}

describe('startPaperVenue options', () => {
  it('refuses bad values naming the option and the rule', async () => {
    const cases: [PaperVenueOptions, string][] = [
      [{ port: 70_000 }, 'paper venue option port: expected an integer from 0 to 65535, got 70000'],
      [{ port: 1.5 }, 'paper venue option port: expected an integer from 0 to 65535, got 1.5'],
      [
        { rateLimit: 0 },
        'paper venue option rateLimit: expected a positive integer of requests per second, got 0',
      ],
      [{ seed: -1 }, 'paper venue option seed: expected a non-negative safe integer, got -1'],
      [{ host: ' ' }, 'paper venue option host: expected a host name or IP address'],
      [
        { headerPrefix: 'Bad Prefix ' },
        'paper venue option headerPrefix: expected header-name characters, e.g. "Service-"',
      ],
      [
        { engine: new SimEngine({ clock: () => NOW }), markets: [], spreadBps: 5 },
        'paper venue option markets, spreadBps: configure the engine itself when passing one as engine',
      ],
    ];
    for (const [options, message] of cases) {
      const error = await refusal(options);
      expect(error.code).toBe(ErrorCodes.PAPER_INVALID_OPTION);
      expect(error.shortMessage).toBe(message);
    }
  });

  it('reports a port it cannot bind', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const error = await refusal({ port });
      expect(error.code).toBe(ErrorCodes.PAPER_LISTEN_FAILED);
      expect(error.shortMessage).toBe(
        `paper venue: cannot listen on 127.0.0.1:${port} (EADDRINUSE)`,
      );
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('serves the engine it is given, and closes twice without complaint', async () => {
    const engine = new SimEngine({ clock: () => NOW, markets: [] });
    const venue = await startPaperVenue({ engine, clock: () => NOW });
    expect(venue.engine).toBe(engine);
    const res = await fetch(`${venue.url}/api/v1/market`);
    expect(await res.json()).toStrictEqual({
      body: { markets: [] },
      message: 'Markets fetched successfully',
      status: 200,
    });
    await venue.close();
    await venue.close();
    await expect(fetch(`${venue.url}/api/v1/market`)).rejects.toThrow();
  });

  it('answers a fault inside the venue 500 in the envelope', async () => {
    const harness = await startHarness();
    try {
      harness.clock.now = Number.NaN;
      const answer = await harness.send('/api/v1/market');
      expect(answer.status).toBe(500);
      expect(answer.json).toStrictEqual({
        body: null,
        message: 'internal error: sim clock returned NaN: expected ms since the epoch',
        status: 500,
      });
    } finally {
      await harness.close();
    }
  });
});

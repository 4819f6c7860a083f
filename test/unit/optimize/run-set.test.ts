/**
 * One parameter set, as a worker thread runs it: from a recording path or from its http(s) URL
 * (a worker on another machine), the same figures; a window replays only its snapshots.
 */
import { createReadStream, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingWriter } from '../../../src/market/recording/index.ts';
import { createSnapshot } from '../../../src/market/snapshot.ts';
import { computeMetrics } from '../../../src/backtest/metrics.ts';
import { runSet, setMetricsOf, type SetTask } from '../../../src/optimize/run-set.ts';
import { realizedPath, trace as traceOf } from '../backtest/trace-fixtures.ts';
import { testMarket } from '../../helpers/markets.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';

const T0 = Date.parse('2026-03-02T10:00:00Z');
let dir: string;
let server: Server;
let url: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quanta-run-set-'));
  const writer = await RecordingWriter.open({ dir: join(dir, 'rec'), source: 'run-set test' });
  for (let i = 0; i < 40; i++) {
    const mid = 100 + (i % 7);
    writer.write(
      createSnapshot({
        seq: i + 1,
        takenAt: T0 + i * 1000,
        markets: [testMarket()],
        quotes: [
          {
            marketId: 1,
            timestamp: T0 + i * 1000,
            bids: [{ price: `${mid}`, quantity: '100' }],
            asks: [{ price: `${mid + 0.5}`, quantity: '100' }],
          },
        ],
      }),
    );
  }
  await writer.close();
  writeFileSync(
    join(dir, 'config.yaml'),
    `venue: { writeUrl: embedded, readUrl: embedded }
strategies:
  - module: ${join(ROOT, 'strategies/dca.ts')}
    markets: [ETH-USD]
`,
  );
  const file = readdirSync(join(dir, 'rec'))[0]!;
  server = createServer((request, response) => {
    if (request.url !== `/${file}`) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200);
    createReadStream(join(dir, 'rec', file)).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/${file}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

function task(data: string, overrides: Partial<SetTask> = {}): SetTask {
  return {
    key: 'all/x',
    sweep: 'test',
    setId: 'x',
    configFile: join(dir, 'config.yaml'),
    data,
    projectRoot: ROOT,
    strategyIndex: 0,
    params: { everySnapshots: 4, quoteAmount: '100' },
    window: null,
    curve: false,
    ...overrides,
  };
}

describe('runSet', () => {
  it('gives the same figures from the recording path and from its URL', async () => {
    const local = await runSet(task(join(dir, 'rec')));
    expect(local.error).toBeUndefined();
    expect(local.metrics?.orders).toBe(10);
    expect(await runSet(task(url))).toEqual(local);
  });

  it('replays only the window, and returns its equity curve when asked', async () => {
    const windowed = await runSet(
      task(join(dir, 'rec'), { window: { from: T0 + 10_000, to: T0 + 30_000 }, curve: true }),
    );
    expect(windowed.metrics?.orders).toBe(5);
    expect(windowed.equity?.t[0]).toBe(T0 + 10_000);
    expect(windowed.equity?.t.at(-1)).toBe(T0 + 29_000);
    expect(windowed.equity?.equity[0]).toBe('100000');
  });

  it('ranks a run that ends with negative equity (a loss beyond the capital), not fails it', () => {
    // Realized -150,000 on a capital of 100,000 (a liquidation's shortfall stays a negative
    // balance, docs/margin.md). Such a set was reported as failed ("final equity … is not a
    // plain non-negative decimal"), run again on every resume, and its walk-forward fold left
    // out of the stitched out-of-sample equity.
    const metrics = computeMetrics(traceOf({ samples: realizedPath(1, ['0', '-150000']) }));
    expect(metrics.total.finalEquity).toBe('-50000');
    expect(setMetricsOf(metrics, 86_400_000)).toMatchObject({ pnl: '-150000', calmar: null });
  });

  it('reports a failing set as an outcome, not a throw', async () => {
    const outcome = await runSet(task(join(dir, 'rec'), { window: { from: 0, to: 1 } }));
    expect(outcome).toEqual({
      key: 'all/x',
      setId: 'x',
      metrics: null,
      error: 'no snapshot in this window',
    });
  });
});

/**
 * Walk-forward on a hand-built recording whose trend turns every 30 seconds (up, down, up, down):
 * the in-sample winner of every window is the side of that window's trend, and it loses out of
 * sample, where the trend has turned. The known answer: each fold's winner scores above zero in
 * sample and below zero out of sample, the stitched out-of-sample equity ends below the starting
 * capital, and the holdout (the last 30 seconds, never searched) fails the overall winner too.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingWriter } from '../../../src/market/recording/index.ts';
import { createSnapshot } from '../../../src/market/snapshot.ts';
import type { OptimizeResult } from '../../../src/optimize/optimize.ts';
import { testMarket } from '../../helpers/markets.ts';
import { ROOT, runQuanta } from './helpers.ts';

const T0 = Date.parse('2026-03-02T10:00:00Z');
const SECOND = 1000;
let dir: string;

/** Mid at second s: 100 rising to 130 at second 30, back to 100 at 60, and again. */
function mid(m: number): number {
  const phase = m % 60;
  return 100 + (phase < 30 ? phase : 60 - phase);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quanta-walk-forward-'));
  const writer = await RecordingWriter.open({ dir: join(dir, 'rec'), source: 'walk-forward test' });
  for (let m = 0; m <= 120; m++) {
    const takenAt = T0 + m * SECOND;
    writer.write(
      createSnapshot({
        seq: m + 1,
        takenAt,
        markets: [testMarket()],
        quotes: [
          {
            marketId: 1,
            timestamp: takenAt,
            bids: [{ price: (mid(m) - 0.05).toFixed(2), quantity: '1000' }],
            asks: [{ price: (mid(m) + 0.05).toFixed(2), quantity: '1000' }],
          },
        ],
      }),
    );
  }
  await writer.close();
  writeFileSync(
    join(dir, 'config.yaml'),
    `venue: { writeUrl: embedded, readUrl: embedded }
risk: { maxOrderNotional: '100000', maxPositionNotional: '1000000' }
strategies:
  - module: ${join(ROOT, 'test/fixtures/strategies/hold.ts')}
    markets: [ETH-USD]
    params: { side: BUY, amount: '1' }
`,
  );
  writeFileSync(
    join(dir, 'space.yaml'),
    `objective: pnl
params:
  side: { values: [BUY, SELL] }
  amount: { values: ['1', '2'] }
`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('quanta optimize --walk-forward', () => {
  it('finds that the in-sample winner fails out of sample, fold by fold and on the holdout', async () => {
    const run = await runQuanta([
      'optimize',
      '--config',
      join(dir, 'config.yaml'),
      '--data',
      join(dir, 'rec'),
      '--space',
      join(dir, 'space.yaml'),
      '--out',
      join(dir, 'out'),
      '--walk-forward',
      'train=30s,test=30s',
      '--holdout',
      '30s',
      '--threads',
      '1',
      '--reports',
      '1',
      '--json',
    ]);
    expect(run.stderr).not.toContain('Error');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as OptimizeResult;
    const folds = result.walkForward?.folds ?? [];
    expect(
      folds.map((fold) => ({
        train: fold.train,
        test: fold.test,
        winner: fold.winner?.params,
        inSample: fold.inSample.score,
        outOfSample: fold.outOfSample.score,
      })),
    ).toMatchInlineSnapshot(`
      [
        {
          "inSample": "55.798950",
          "outOfSample": "-56.229050",
          "test": {
            "from": "2026-03-02T10:00:30.000Z",
            "to": "2026-03-02T10:01:00.000Z",
          },
          "train": {
            "from": "2026-03-02T10:00:00.000Z",
            "to": "2026-03-02T10:00:30.000Z",
          },
          "winner": {
            "amount": "2",
            "side": "BUY",
          },
        },
        {
          "inSample": "55.771050",
          "outOfSample": "-56.200950",
          "test": {
            "from": "2026-03-02T10:01:00.000Z",
            "to": "2026-03-02T10:01:30.000Z",
          },
          "train": {
            "from": "2026-03-02T10:00:30.000Z",
            "to": "2026-03-02T10:01:00.000Z",
          },
          "winner": {
            "amount": "2",
            "side": "SELL",
          },
        },
      ]
    `);
    // By hand, fold 1 out of sample: BUY 2 sent at second 30 fills at second 31's ask 129.05
    // and is marked at second 59's mid 101: 2 × (101 − 129.05) − fee 2 × 129.05 × 0.05%.
    expect(folds[0]?.outOfSample.metrics?.pnl).toBe('-56.22905');
    for (const fold of folds) {
      expect(Number(fold.inSample.score)).toBeGreaterThan(0);
      expect(Number(fold.outOfSample.score)).toBeLessThan(0);
    }
    const stitched = result.walkForward?.stitched.equity ?? [];
    expect(Number(stitched[stitched.length - 1])).toBeLessThan(100_000);
    expect({
      window: result.holdout?.window,
      winner: result.holdout?.winner?.params,
      inSample: result.holdout?.inSample.score,
      outOfSample: result.holdout?.outOfSample.score,
    }).toMatchInlineSnapshot(`
      {
        "inSample": "57.798950",
        "outOfSample": "-56.228050",
        "window": {
          "from": "2026-03-02T10:01:30.001Z",
          "to": "2026-03-02T10:02:00.001Z",
        },
        "winner": {
          "amount": "2",
          "side": "BUY",
        },
      }
    `);
    expect(Number(result.holdout?.inSample.score)).toBeGreaterThan(0);
    expect(Number(result.holdout?.outOfSample.score)).toBeLessThan(0);

    // The page: heatmap, scatter (two folds and the holdout) and a link to the best run's report.
    const best = result.ranking[0]!;
    const link = `runs/1-${best.id}/report.html`;
    const page = readFileSync(join(dir, 'out', 'optimize.html'), 'utf8');
    expect(page).toContain(`<a href="${link}">`);
    expect(page.match(/<circle /g)).toHaveLength(3);
    expect(page).toContain('Heatmap: best pnl by side and amount');
    expect(existsSync(join(dir, 'out', link))).toBe(true);
  }, 60_000);
});

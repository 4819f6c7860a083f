import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { isQuantaError } from '../../../src/errors/index.ts';
import { expandSpace, paramSetOf } from '../../../src/optimize/expand-space.ts';
import { parseObjective, type SetMetrics } from '../../../src/optimize/objective.ts';
import { runOptimize } from '../../../src/optimize/optimize.ts';
import { rankSets } from '../../../src/optimize/rank.ts';
import { runSet } from '../../../src/optimize/run-set.ts';
import { parseSpace } from '../../../src/optimize/space.ts';
import { stitchEquity, sweepWindows } from '../../../src/optimize/walk-forward.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'quanta-optimize-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function metrics(overrides: Partial<SetMetrics> = {}): SetMetrics {
  return {
    pnl: '0',
    returnPct: '0',
    sharpe: null,
    sortino: null,
    calmar: null,
    maxDrawdown: '0',
    maxDrawdownPct: '0',
    trades: 0,
    winRate: null,
    fees: '0',
    turnover: '0',
    orders: 0,
    ...overrides,
  };
}

function problems(text: string): string[] {
  try {
    parseSpace(text, 'space.yaml');
  } catch (error) {
    if (isQuantaError(error)) return [error.shortMessage, ...error.details];
    throw error;
  }
  return [];
}

describe('space files', () => {
  it('name the file, line and column of every problem', () => {
    expect(
      problems(`objective: sharpe + profit
constraints: { minTrades: -1, maxLoss: 3 }
params:
  window: { from: 10, to: 5, step: 1 }
  side: { normal: [0, 1] }
  entryZ: { uniform: [1, 3] }
seeds: 4
`),
    ).toMatchInlineSnapshot(`
      [
        "space file space.yaml: 7 problems",
        "space.yaml:7:1 seeds: unknown key (allowed: objective, constraints, strategy, params, samples, seed)",
        "space.yaml:1:1 objective: unknown name "profit" (known: sharpe, sortino, pnl, calmar, returnPct, maxDrawdown, maxDrawdownPct, trades, winRate, fees, turnover, orders, min, max, abs)",
        "space.yaml:2:16 constraints.minTrades: expected a whole number >= 0",
        "space.yaml:2:31 constraints.maxLoss: unknown constraint (allowed: minTrades, maxDrawdownPct)",
        "space.yaml:4:3 params.window: expected step > 0 and to >= from",
        "space.yaml:5:3 params.side: unknown spec keys normal (one of: values; from, to, step; uniform; loguniform; int; choice)",
        "space.yaml:3:1 params: a distribution (uniform, loguniform, int, choice) needs samples: N",
      ]
    `);
  });

  it('expand a grid in order, the last param fastest, ranges exact in decimals', () => {
    const space = parseSpace(
      `params:\n  a: { from: 0.1, to: 0.3, step: 0.1 }\n  b: { from: '1', to: '1.5', step: '0.25' }\n`,
      's.yaml',
    );
    expect(expandSpace(space).map((set) => set.params)).toEqual([
      { a: 0.1, b: '1' },
      { a: 0.1, b: '1.25' },
      { a: 0.1, b: '1.5' },
      { a: 0.2, b: '1' },
      { a: 0.2, b: '1.25' },
      { a: 0.2, b: '1.5' },
      { a: 0.3, b: '1' },
      { a: 0.3, b: '1.25' },
      { a: 0.3, b: '1.5' },
    ]);
  });

  it('draw the same random sets for a seed, other sets for another', () => {
    const text = (seed: number): string =>
      `samples: 25\nseed: ${seed}\nparams:\n  x: { uniform: [0, 1] }\n  n: { int: [1, 5] }\n  s: { choice: [a, b] }\n  k: { values: [1, 2] }\n`;
    const first = expandSpace(parseSpace(text(7), 's.yaml'));
    expect(first).toHaveLength(25);
    expect(expandSpace(parseSpace(text(7), 's.yaml'))).toEqual(first);
    expect(expandSpace(parseSpace(text(8), 's.yaml'))).not.toEqual(first);
    for (const { params } of first) {
      expect(params['x']).toBeGreaterThanOrEqual(0);
      expect(params['x']).toBeLessThan(1);
      expect([1, 2, 3, 4, 5]).toContain(params['n']);
      expect(['a', 'b']).toContain(params['s']);
    }
  });
});

describe('objectives and ranking', () => {
  it('evaluate expressions exactly; undefined figures give no score', () => {
    const objective = parseObjective('sharpe - 0.1 * maxDrawdownPct + min(trades, 3) / 3');
    expect(
      objective.score(metrics({ sharpe: '2', maxDrawdownPct: '5', trades: 7 }))?.toFixed(),
    ).toBe('2.5');
    expect(objective.score(metrics({ sharpe: null }))).toBeNull();
    expect(parseObjective('pnl / trades').score(metrics({ pnl: '5' }))).toBeNull();
    expect(() => parseObjective('sharpe *')).toThrow('unexpected end of the expression');
  });

  it('rank sets meeting the constraints first, then by score, ties by set id', () => {
    const sets = [{ a: 1 }, { a: 2 }, { a: 3 }, { a: 4 }, { a: 5 }].map(paramSetOf);
    const byA: Record<number, SetMetrics> = {
      1: metrics({ pnl: '5', trades: 1 }),
      2: metrics({ pnl: '9', trades: 0 }),
      3: metrics({ pnl: '5', trades: 4 }),
      4: metrics({ pnl: '7', trades: 4 }),
      5: metrics({ pnl: '5', trades: 4 }),
    };
    const ranking = rankSets(
      sets,
      (set) => ({ key: set.id, setId: set.id, metrics: byA[set.params['a'] as number]! }),
      parseObjective('pnl'),
      { minTrades: 1 },
    );
    const tied = [sets[0]!, sets[2]!, sets[4]!].map((set) => set.id).sort();
    expect(ranking.ranked.map((row) => row.id)).toEqual([sets[3]!.id, ...tied, sets[1]!.id]);
    expect(ranking.ranked[4]).toMatchObject({
      passed: false,
      violations: ['trades 0 < minTrades 1'],
      score: '9.000000',
    });
  });
});

describe('walk-forward windows', () => {
  it('roll train and test windows through the span before the holdout', () => {
    const h = 3_600_000;
    const windows = sweepWindows(0, 10 * h - 1, { trainMs: 4 * h, testMs: h }, { ms: 2 * h });
    expect(windows.search).toEqual({ from: 0, to: 8 * h });
    expect(windows.holdout).toEqual({ from: 8 * h, to: 10 * h });
    expect(windows.folds.map((f) => [f.train.from / h, f.train.to / h, f.test.to / h])).toEqual([
      [0, 4, 5],
      [1, 5, 6],
      [2, 6, 7],
      [3, 7, 8],
    ]);
    expect(sweepWindows(0, 899, { folds: 2 }, { percent: 10 }).folds).toEqual([
      { train: { from: 0, to: 270 }, test: { from: 270, to: 540 } },
      { train: { from: 270, to: 540 }, test: { from: 540, to: 810 } },
    ]);
    expect(() => sweepWindows(0, 10, { trainMs: 10, testMs: 5 }, undefined)).toThrow(
      'no walk-forward fold fits',
    );
  });

  it('stitch out-of-sample curves, each continuing where the last ended', () => {
    expect(
      stitchEquity(
        [
          { t: [1, 2], equity: ['100', '110'] },
          { t: [3, 4], equity: ['100', '90'] },
        ],
        '100',
      ),
    ).toEqual({ t: [1, 2, 3, 4], equity: ['100.000000', '110.000000', '110.000000', '99.000000'] });
  });
});

describe('runOptimize resuming', () => {
  it('reuses no result once the recording or the strategy changed (recorded again, edited)', async () => {
    // The sweep id hashed the recording's path and not its files, and not the strategy's
    // source: a resumed sweep ran nothing and ranked the old recording's figures.
    // Inside the repository (.quanta/, ignored by git), where a strategy resolves 'quanta'.
    mkdirSync(join(ROOT, '.quanta'), { recursive: true });
    const work = mkdtempSync(join(ROOT, '.quanta', 'optimize-resume-'));
    onTestFinished(() => rmSync(work, { recursive: true, force: true }));
    const recording = join(work, 'rec');
    mkdirSync(recording);
    const file = join(recording, 'recording-2026-11-23T04-03-16-618Z.jsonl.gz');
    copyFileSync(join(ROOT, 'test/fixtures/recording', basename(file)), file);
    const strategy = join(work, 'dca.ts');
    copyFileSync(join(ROOT, 'strategies/dca.ts'), strategy);
    const config = join(work, 'bot.yaml');
    writeFileSync(
      config,
      `venue: { writeUrl: embedded, readUrl: embedded }\nrisk: { maxOrderNotional: '5000', maxPositionNotional: '20000' }\nstrategies:\n  - module: ${strategy}\n    markets: [ETH-USD]\n`,
    );
    const space = join(work, 'space.yaml');
    writeFileSync(space, 'objective: pnl\nparams:\n  everySnapshots: { values: [5, 9] }\n');
    const runner = { capacity: 2, run: runSet, close: () => Promise.resolve() };
    /** How many of its sets a run found done already. */
    const resumed = async (): Promise<number> => {
      let done = -1;
      await runOptimize({
        configFile: config,
        data: recording,
        spaceFile: space,
        outDir: join(work, 'out'),
        projectRoot: ROOT,
        runner,
        onStart: (_total, already) => {
          done = already;
        },
      });
      return done;
    };
    expect(await resumed()).toBe(0);
    expect(await resumed()).toBe(2);
    // Recorded again: the same path, a new file.
    utimesSync(file, new Date(), new Date(Date.now() + 60_000));
    expect(await resumed()).toBe(0);
    // The other sweep's results are kept beside, not overwritten (a copy changes only times).
    const aside = readdirSync(join(work, 'out')).filter((name) =>
      /^results\..+\.jsonl$/.test(name),
    );
    expect(aside).toHaveLength(1);
    expect(
      readFileSync(join(work, 'out', aside[0] ?? ''), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(3);
    expect(await resumed()).toBe(2);
    // The strategy edited.
    appendFileSync(strategy, '\n// edited\n');
    expect(await resumed()).toBe(0);
  }, 120_000);
});

describe('runOptimize', () => {
  it('points at the space file line of a param the strategy does not have, running nothing', async () => {
    const space = join(dir, 'space.yaml');
    writeFileSync(space, 'objective: sharpe\nparams:\n  everySnapshot: { values: [1, 2] }\n');
    const runner = {
      capacity: 1,
      run: () => Promise.reject(new Error('nothing should run')),
      close: () => Promise.resolve(),
    };
    const error: unknown = await runOptimize({
      configFile: join(ROOT, 'test/fixtures/configs/dca.yaml'),
      data: join(ROOT, 'test/fixtures/recording'),
      spaceFile: space,
      outDir: join(dir, 'out'),
      projectRoot: ROOT,
      runner,
    }).catch((caught: unknown) => caught);
    expect(
      isQuantaError(error)
        ? [error.code, error.shortMessage, ...error.details].map((line) =>
            line.replaceAll(dir, '<dir>'),
          )
        : error,
    ).toMatchInlineSnapshot(`
      [
        "QUANTA_STRATEGY_PARAMS",
        "invalid params for strategy dca (1 problem):",
        "<dir>/space.yaml:3:3 params.everySnapshot: unknown param of strategy dca; did you mean "everySnapshots"? (allowed: quoteAmount, everySnapshots)",
      ]
    `);
  });
});

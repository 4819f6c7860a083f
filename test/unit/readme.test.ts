import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandReferenceOf } from '../../src/cli/command-spec.ts';
import { COMMANDS } from '../../src/cli/commands.ts';
import { ExitCode } from '../../src/cli/exit-codes.ts';
import { createSnapshot } from '../../src/market/snapshot.ts';
import { hostStrategy, quoteAt, ROOT } from '../helpers/strategy-harness.ts';
import { testMarket } from '../helpers/markets.ts';
import {
  formatReadmeBlock,
  LAST_RUN_FILE,
  meetsGoal,
  NO_RUN_BLOCK,
  readmeBlock,
  type BenchFigure,
  type RecordedRun,
} from '../bench/figures.ts';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('README', () => {
  it('lists exactly the exit codes the CLI uses', () => {
    const table = README.slice(README.indexOf('Exit codes:'));
    const documented = [...table.matchAll(/^\| (\d+) +\|/gm)].map((m) => Number(m[1]));
    expect(documented.sort((a, b) => a - b)).toEqual(Object.values(ExitCode).sort((a, b) => a - b));
  });

  it("holds the CLI's own help: every command, every flag with its default", () => {
    const begin = '<!-- commands: begin -->\n\n';
    const block = README.slice(
      README.indexOf(begin) + begin.length,
      README.indexOf('\n\n<!-- commands: end -->'),
    );
    // On a change to src/cli/commands.ts, paste the expected text between the markers.
    expect(block).toBe(commandReferenceOf(COMMANDS));
    // Issue 24: compare's fill model flags were missing from its usage and the README.
    const compareUsage = block.split('\n').find((line) => line.startsWith('Usage: quanta compare'));
    for (const flag of ['--latency-ms', '--slippage-bps', '--maker-fee-bps', '--taker-fee-bps'])
      expect(compareUsage).toContain(`[${flag} N]`);
  });

  it("the strategy walkthrough's example loads and trades", async () => {
    const code = /```ts\n(\/\/ strategies\/buy-the-dip\.ts\n[\s\S]*?)```/.exec(README)?.[1];
    expect(code).toBeDefined();
    // Inside the project so that `import ... from 'quanta'` resolves; .quanta is git-ignored.
    const dir = join(ROOT, '.quanta', 'readme-test');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'buy-the-dip.ts'), code ?? '');
    const { host } = await hostStrategy(join(dir, 'buy-the-dip.ts'), { dropPct: 0.5 }, ['ETH-USD']);
    const eth = testMarket();
    const at = (seq: number, bid: string) =>
      createSnapshot({ seq, takenAt: seq, markets: [eth], quotes: [quoteAt(1, bid, bid)] });
    expect(await host.onSnapshot(at(1, '3000'))).toEqual([]);
    expect(await host.onSnapshot(at(2, '2990'))).toEqual([]);
    expect(await host.onSnapshot(at(3, '2980'))).toEqual([
      { marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.01' },
    ]);
  });

  describe('Benchmarks', () => {
    const section = README.slice(
      README.indexOf('## Benchmarks'),
      README.indexOf('\n## ', README.indexOf('## Benchmarks') + 1),
    );
    const block = readmeBlock(README);
    const lastRun = join(ROOT, 'test', 'bench', LAST_RUN_FILE);
    const recorded = existsSync(lastRun)
      ? (JSON.parse(readFileSync(lastRun, 'utf8')) as RecordedRun)
      : undefined;

    it('holds the block npm run bench wrote, byte for byte from its recorded run', () => {
      // Regenerated from the rounds the run kept: a figure edited by hand, or a table taken from
      // another run than the one recorded, differs. Until a whole run is recorded, the block says so.
      if (recorded === undefined) {
        expect(block).toBe(NO_RUN_BLOCK);
        return;
      }
      expect(block).toBe(formatReadmeBlock(recorded.figures, recorded.run));
      const names = recorded.figures.map((figure) => figure.name);
      // Every benchmark the README names: backtests, reader, executor, soak and heap, optimize.
      for (const name of [
        'best bid+ask of all',
        'every level of all',
        'recording reader building every level',
        'shipped mean-reversion',
        'do-nothing',
        'executor (disk journal) / bare loop',
        'live loop heap growth',
        'backtest heap growth',
        'optimize per-set time',
      ])
        expect(names.some((figure) => figure.includes(name))).toBe(true);
      // A ratio is a median over at least five paired rounds (sizes are deterministic: one).
      for (const figure of recorded.figures)
        if (figure.unit === 'x' && !figure.name.startsWith('recording gzip'))
          expect(figure.rounds.length).toBeGreaterThanOrEqual(5);
    });

    it('generates a table of every figure with goal, min, median, max, rounds and met', () => {
      const figures: BenchFigure[] = [
        {
          name: 'a ratio that misses',
          measures: 'what the case does',
          baseline: 'what the baseline does',
          goal: { atLeast: 10 },
          unit: 'x',
          rounds: [0.9, 0.7, 1.2, 0.8, 1],
        },
        {
          name: 'a memory figure that meets',
          measures: 'heap after GC',
          baseline: 'heap before',
          goal: { atMost: 16 },
          unit: 'MB',
          rounds: [0.25],
        },
      ];
      const run = {
        at: '2026-11-26 21:00',
        node: '20.20.2',
        cpus: 2,
        loadBefore: 1,
        loadAfter: 2,
        seconds: 1500,
      };
      const generated = formatReadmeBlock(recorded?.figures ?? figures, recorded?.run ?? run);
      const rows = generated
        .split('\n')
        .filter((line) => line.startsWith('|'))
        .map((line) =>
          line
            .slice(1, -1)
            .split('|')
            .map((cell) => cell.trim()),
        );
      expect(rows[0]).toEqual(['figure', 'goal', 'min', 'median', 'max', 'rounds', 'met']);
      (recorded?.figures ?? figures).forEach((figure, i) => {
        const row = rows[i + 2];
        expect(row?.[0]).toBe(figure.name);
        expect(row?.[5]).toBe(String(figure.rounds.length));
        expect(row?.[6]).toBe(meetsGoal(figure) ? 'yes' : 'NO');
        expect(generated).toContain(
          `- **${figure.name}**: ${figure.measures}. Baseline: ${figure.baseline}.`,
        );
      });
      expect(rows.length).toBe((recorded?.figures ?? figures).length + 2);
      if (recorded === undefined) {
        expect(rows[2]).toEqual([
          'a ratio that misses',
          '>= 10x',
          '0.70x',
          '0.90x',
          '1.20x',
          '5',
          'NO',
        ]);
        expect(generated).toMatch(
          /^Generated by `npm run bench` on 2026-11-26 21:00 UTC .* 1 of 2 goals met\./,
        );
      }
    });

    it('quotes no figure outside the generated block', () => {
      const prose = section.replace(block, '');
      // No "3.98x", "0.27 ms", "12.5 MB" written by hand beside the table.
      expect(prose).not.toMatch(/\d(?:\.\d+)?\s?(?:x|ms|MB)\b/);
    });
  });
});

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/exit-codes.ts';
import { createSnapshot } from '../../src/market/snapshot.ts';
import { hostStrategy, quoteAt, ROOT } from '../helpers/strategy-harness.ts';
import { testMarket } from '../helpers/markets.ts';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('README', () => {
  it('lists exactly the exit codes the CLI uses', () => {
    const table = README.slice(README.indexOf('Exit codes:'));
    const documented = [...table.matchAll(/^\| (\d+) +\|/gm)].map((m) => Number(m[1]));
    expect(documented.sort((a, b) => a - b)).toEqual(Object.values(ExitCode).sort((a, b) => a - b));
  });

  it('documents every quanta command the CLI has', () => {
    const help = readFileSync(join(ROOT, 'src/cli/main.ts'), 'utf8');
    const commands = [...help.matchAll(/synopsis: '(quanta [a-z]+)/g)].map((m) => m[1]);
    expect(commands.length).toBeGreaterThanOrEqual(6);
    for (const command of commands) expect(README).toContain(`\`${command ?? ''} `);
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
});

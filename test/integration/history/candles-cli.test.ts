/**
 * README "Bring your own history", the candles example, run as written (issue 28): a day of
 * ETH-USD 1-minute candles imported, backtested with the example strategy (ema-cross), and
 * exported as bars to Parquet.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { duckRows } from '../../helpers/duck-rows.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const tempDir = tempDirs('quanta-candles-cli-');

function quanta(args: string[]) {
  return spawnSync(process.execPath, ['bin/quanta.js', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
}

describe("the README's candles example", () => {
  it('imports, backtests with ema-cross and exports bars, as the README says', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = /```sh\n(quanta import --kind candles[\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    // The README's commands, with its .quanta/history folder moved to a temporary one.
    const dir = relative(ROOT, tempDir());
    const commands = (block ?? '')
      .replaceAll('\\\n', ' ')
      .replaceAll('.quanta/history', dir)
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => line.trim().split(/\s+/).slice(1));
    expect(commands.map((c) => c[0])).toEqual(['import', 'backtest', 'export']);
    const [imported, backtest, exported] = commands.map(quanta);
    expect(imported?.status).toBe(0);
    expect(imported?.stdout).toMatch(
      /^imported 1440 1m candles from 1440 rows of 1 file \(layout candles\)\n/,
    );
    expect(backtest?.status).toBe(0);
    expect(backtest?.stdout).toMatch(/^Backtest: 1440 snapshots, every 60000 ms/m);
    expect(backtest?.stdout).toMatch(/^Data: candles \(1m\): orders made at a candle's close/m);
    expect(backtest?.stdout).toMatch(/^ema-cross .* (\d+) +0$/m);
    expect(backtest?.stdout).toMatch(/^Orders \(\d+\): FILLED \d+/m);
    expect(exported?.status).toBe(0);
    const { rows } = await duckRows(join(ROOT, dir, 'bars.parquet'));
    expect(rows).toHaveLength(1440);
    expect(rows[0]?.slice(3, 5)).toEqual(['ETH-USD', '1m']);
  }, 300_000);
});

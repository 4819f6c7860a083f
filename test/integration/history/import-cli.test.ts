/**
 * `quanta import` as a user runs it: a gzip CSV into a recording, the market from a rules file
 * or from the venue's listing by symbol, then `quanta backtest` on what it wrote.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { listRecordingFiles } from '../../../src/market/recording/index.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';
import { waitFor } from '../runtime/harness.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const tempDir = tempDirs('quanta-import-cli-');

function quanta(...args: string[]) {
  return spawnSync(process.execPath, ['bin/quanta.js', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 90_000,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
}

/** A gzip quotes CSV: a slow wave around 2500, one row a second. */
function quotesFile(dir: string, rows: number): string {
  const lines = ['timestamp,bid,bid_size,ask,ask_size'];
  for (let i = 0; i < rows; i++) {
    const cents = 250_000 + Math.round(500 * Math.sin(i / 7));
    const bid = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
    const ask = `${Math.floor((cents + 10) / 100)}.${String((cents + 10) % 100).padStart(2, '0')}`;
    lines.push(`${1767571200 + i},${bid},5.000,${ask},5.000`);
  }
  const path = join(dir, 'eth-quotes.csv.gz');
  writeFileSync(path, gzipSync(`${lines.join('\n')}\n`));
  return path;
}

describe('quanta import', () => {
  it('imports a gzip CSV with a rules file, and quanta backtest trades on it', () => {
    const dir = tempDir();
    const file = quotesFile(dir, 60);
    const out = join(dir, 'history');
    const imported = quanta(
      'import',
      '--kind',
      'quotes',
      '--market',
      'test/fixtures/history/eth-usd.yaml',
      '--in',
      file,
      '--out',
      out,
    );
    expect(imported.stderr).not.toMatch(/error/i);
    expect(imported.status).toBe(0);
    expect(imported.stdout).toMatch(
      /^imported 60 snapshots from 60 rows of 1 file \(layout quotes\)\ntime 2026-01-05T00:00:00\.000Z to 2026-01-05T00:00:59\.000Z\nrecording: .*history\/recording-.*\.jsonl\.gz\n$/,
    );
    const backtest = quanta(
      'backtest',
      '--config',
      'test/fixtures/configs/dca.yaml',
      '--data',
      out,
    );
    expect(backtest.status).toBe(0);
    expect(backtest.stdout).toMatch(/^Backtest: 60 snapshots/m);
    // dca buys every 5 snapshots: its orders filled at the imported asks.
    expect(backtest.stdout).toMatch(/fills?\b/i);
  }, 120_000);

  it("takes the market from the venue's listing by symbol (--market SYMBOL --config)", () => {
    const dir = tempDir();
    const out = join(dir, 'history');
    const result = quanta(
      'import',
      '--kind',
      'quotes',
      '--market',
      'ETH-USD',
      '--config',
      'test/fixtures/configs/dca.yaml',
      '--in',
      quotesFile(dir, 5),
      '--out',
      out,
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^imported 5 snapshots/);
  }, 120_000);

  it('an import killed midway leaves nothing in --out to backtest; the next import clears what it left', async () => {
    const dir = tempDir();
    const file = quotesFile(dir, 400_000);
    const out = join(dir, 'history');
    const args = ['import', '--kind', 'quotes', '--market', 'test/fixtures/history/eth-usd.yaml'];
    const importing = spawn(
      process.execPath,
      ['bin/quanta.js', ...args, '--in', file, '--out', out],
      {
        cwd: ROOT,
        stdio: 'ignore',
        env: { ...process.env, NODE_OPTIONS: '' },
      },
    );
    const exited = new Promise((done) => importing.once('exit', done));
    // Killed once it has written part of the recording, in --out or a folder of it.
    const started = () =>
      existsSync(out) &&
      readdirSync(out, { recursive: true, encoding: 'utf8' }).some((name) =>
        name.endsWith('.jsonl.gz'),
      );
    await waitFor('the import to start writing', started, 60_000);
    importing.kill('SIGKILL');
    await exited;
    // A backtest of --out finds no recording (the cut one would have run as the whole history).
    expect(await listRecordingFiles(out)).toEqual([]);
    const backtest = quanta(
      'backtest',
      '--config',
      'test/fixtures/configs/dca.yaml',
      '--data',
      out,
    );
    expect(backtest.status).not.toBe(0);
    expect(backtest.stderr).toMatch(/no recording files/);
    // The next import into the same folder clears the killed one's files and imports whole.
    const again = quanta(...args, '--in', quotesFile(dir, 60), '--out', out);
    expect(again.status, again.stderr).toBe(0);
    expect(readdirSync(out, { withFileTypes: true }).map((entry) => entry.isFile())).toEqual([
      true,
    ]);
  }, 180_000);

  it('a bad row: exit 2 naming file:line; --on-bad skip counts it', () => {
    const dir = tempDir();
    const file = join(dir, 'q.csv');
    writeFileSync(
      file,
      'timestamp,bid,bid_size,ask,ask_size\n1767571200,2500.10,1,2500.20,1\n1767571201,2500.105,1,2500.20,1\n',
    );
    const args = ['import', '--kind', 'quotes', '--market', 'test/fixtures/history/eth-usd.yaml'];
    const failed = quanta(...args, '--in', file, '--out', join(dir, 'a'));
    expect(failed.status).toBe(2);
    expect(failed.stderr).toContain(
      `${file}:3: bid price 2500.105 is not on the market's price tick 0.01`,
    );
    const skipped = quanta(...args, '--in', file, '--out', join(dir, 'b'), '--on-bad', 'skip');
    expect(skipped.status).toBe(0);
    expect(skipped.stdout).toContain(
      `skipped 1 rows: 1 off-grid\n  ${file}:3: bid price 2500.105 is not on the market's price tick 0.01\n`,
    );
    const usage = quanta(...args, '--in', file, '--out', join(dir, 'c'), '--on-bad', 'maybe');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('--on-bad must be fail or skip, got "maybe"');
  }, 120_000);
});

/**
 * `quanta export --what bars` (issue 28): imported candles written as Parquet are read back by
 * DuckDB with every value equal (decimals exact as DECIMAL(38,18), times as UTC timestamps),
 * and as CSV with the same values as text; a recording of quotes holds no candles and is
 * refused saying what to export instead.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importHistory, readMarketRules } from '../../../src/market/history/index.ts';
import { parseDecimalToX18 } from '../../../src/money/index.ts';
import { duckRows } from '../../helpers/duck-rows.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const tempDir = tempDirs('quanta-export-bars-');
const T0 = Date.UTC(2026, 0, 5);

// Volumes with 18 fraction digits: a double would not keep them.
const CANDLES = [
  [T0, '2500.01', '2504.50', '2498.00', '2503.00', '12.123456789012345678'],
  [T0 + 60_000, '2503.00', '2506.00', '2501.00', '2505.55', '0.000000000000000001'],
  [T0 + 120_000, '2505.55', '2507.00', '2499.50', '2500.00', '98765432.1'],
];

function quanta(...args: string[]) {
  return spawnSync(process.execPath, ['bin/quanta.js', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
}

async function imported(): Promise<string> {
  const dir = tempDir();
  const csv = ['timestamp,open,high,low,close,volume', ...CANDLES.map((c) => c.join(','))];
  writeFileSync(join(dir, 'c.csv'), `${csv.join('\n')}\n`);
  const { market } = await readMarketRules(join(ROOT, 'test/fixtures/history/eth-usd.yaml'));
  const out = join(dir, 'candles');
  await importHistory({ kind: 'candles', market, files: [join(dir, 'c.csv')], out, now: () => T0 });
  return out;
}

describe('quanta export --what bars', () => {
  it('Parquet read back by DuckDB: every value equal, decimals exact, times UTC', async () => {
    const data = await imported();
    const out = join(tempDir(), 'bars.parquet');
    const result = quanta(
      'export',
      '--data',
      data,
      '--what',
      'bars',
      '--format',
      'parquet',
      '--out',
      out,
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`exported 3 bars rows to ${out} (parquet)\n`);
    const { types, rows } = await duckRows(out);
    expect(types).toEqual([
      'TIMESTAMP WITH TIME ZONE',
      'TIMESTAMP WITH TIME ZONE',
      'BIGINT',
      'VARCHAR',
      'VARCHAR',
      ...Array<string>(5).fill('DECIMAL(38,18)'),
    ]);
    const decimal = (text: string | number | undefined) => ({
      decimal: parseDecimalToX18(String(text)),
      scale: 18,
      width: 38,
    });
    expect(rows).toEqual(
      CANDLES.map(([t, ...ohlcv]) => [
        { utcMicros: BigInt(t as number) * 1000n },
        { utcMicros: BigInt((t as number) + 60_000) * 1000n },
        1n,
        'ETH-USD',
        '1m',
        ...ohlcv.map(decimal),
      ]),
    );
  }, 120_000);

  it('CSV: UTC ISO times and exact decimal text', async () => {
    const data = await imported();
    const out = join(tempDir(), 'bars.csv');
    const result = quanta('export', '--data', data, '--what', 'bars', '--out', out);
    expect(result.status).toBe(0);
    expect(readFileSync(out, 'utf8').split('\n')).toEqual([
      'start,end,market_id,symbol,timeframe,open,high,low,close,volume',
      '2026-01-05T00:00:00.000Z,2026-01-05T00:01:00.000Z,1,ETH-USD,1m,2500.01,2504.5,2498,2503,12.123456789012345678',
      '2026-01-05T00:01:00.000Z,2026-01-05T00:02:00.000Z,1,ETH-USD,1m,2503,2506,2501,2505.55,0.000000000000000001',
      '2026-01-05T00:02:00.000Z,2026-01-05T00:03:00.000Z,1,ETH-USD,1m,2505.55,2507,2499.5,2500,98765432.1',
      '',
    ]);
  }, 120_000);

  it('a recording of quotes has no candles: refused, saying what to export', () => {
    const recording = join(ROOT, 'test/fixtures/recording');
    const result = quanta(
      'export',
      '--data',
      recording,
      '--what',
      'bars',
      '--out',
      join(tempDir(), 'x.csv'),
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      `--data ${recording}: no candle history (.candles.gz) there; --what bars exports imported candles (quanta import --kind candles), a recording's quotes export with --what snapshots`,
    );
  }, 120_000);
});

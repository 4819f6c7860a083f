import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importHistory, readMarketRules } from '../../src/market/history/index.ts';
import { ROOT } from './strategy-harness.ts';

/**
 * Writes `csv` (a candle CSV with its header) as `dir/eth.csv` and imports it for the ETH-USD
 * fixture market (test/fixtures/history/eth-usd.yaml) into `dir/candles`, as
 * `quanta import --kind candles` does; `now` is the import's clock. Returns the data folder.
 */
export async function importEthCandles(dir: string, csv: string, now: number): Promise<string> {
  writeFileSync(join(dir, 'eth.csv'), csv);
  const { market } = await readMarketRules(join(ROOT, 'test/fixtures/history/eth-usd.yaml'));
  const data = join(dir, 'candles');
  await importHistory({
    kind: 'candles',
    market,
    files: [join(dir, 'eth.csv')],
    out: data,
    now: () => now,
  });
  return data;
}

/**
 * Runs every `*.bench.ts` of this folder one after the other, each in its own Node process (so
 * one benchmark's heap does not colour the next one's memory figures), with `--expose-gc` for
 * heap deltas measured from a collected heap.
 *
 *   npm run bench                 # all of them
 *   npm run bench -- recording    # only those whose file name contains "recording"
 *
 * Exits non-zero if any benchmark fails. Benchmarks print ratios; nothing here asserts a time.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIGURES_FILE_ENV, formatFigureTable, type BenchFigure } from './figures.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const filters = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => filters.length === 0 || filters.some((filter) => name.includes(filter)))
  .sort();

if (benches.length === 0) {
  console.error(
    `no *.bench.ts in ${here}${filters.length > 0 ? ` matching ${filters.join(', ')}` : ''}`,
  );
  process.exit(1);
}

const figuresDir = mkdtempSync(join(tmpdir(), 'quanta-bench-'));
const figuresFile = join(figuresDir, 'figures.jsonl');
let failed = 0;
for (const name of benches) {
  console.log(`\n=== ${name}`);
  // The quanta-source condition, as `npm run bench` gives this process: a strategy's
  // `import 'quanta'` then reaches src/, the code the bench measures, not a stale dist/.
  const args = ['--expose-gc', '--conditions=quanta-source', '--import', 'tsx', join(here, name)];
  const result = spawnSync(process.execPath, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, [FIGURES_FILE_ENV]: figuresFile },
  });
  if (result.status !== 0) {
    failed++;
    console.error(
      `=== ${name} failed (${result.error?.message ?? `exit ${String(result.status ?? result.signal)}`})`,
    );
  }
}
let figures: BenchFigure[] = [];
try {
  figures = readFileSync(figuresFile, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as BenchFigure);
} catch {
  // no benchmark reported a figure
}
rmSync(figuresDir, { recursive: true, force: true });
if (figures.length > 0) {
  console.log(
    '\n=== figures (median of the rounds against its goal; a missed goal is not a failure)',
  );
  console.log(formatFigureTable(figures));
}
process.exit(failed === 0 ? 0 : 1);

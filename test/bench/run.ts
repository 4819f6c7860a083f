/**
 * Runs every `*.bench.ts` of this folder one after the other, each in its own Node process (so
 * one benchmark's heap does not colour the next one's memory figures), with `--expose-gc` for
 * heap deltas measured from a collected heap.
 *
 *   npm run bench                 # all of them; writes the table into README.md
 *   npm run bench -- recording    # only those whose file name contains "recording"
 *
 * Exits non-zero if any benchmark fails. Benchmarks print ratios; nothing here asserts a time.
 * README.md's Benchmarks table is written only by a whole run (no name given, no BENCH_* size
 * knob set) in which every benchmark finished: the table is then one run's figures, all of them,
 * met or not, never a selection.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import {
  FIGURES_FILE_ENV,
  formatFigureTable,
  formatReadmeBlock,
  LAST_RUN_FILE,
  replaceReadmeBlock,
  type BenchFigure,
  type RecordedRun,
} from './figures.ts';

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

const startedAt = Date.now();
const loadBefore = loadavg()[0] ?? 0;
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
const seconds = (Date.now() - startedAt) / 1000;
console.log(`\n=== ${String(benches.length)} benchmarks in ${(seconds / 60).toFixed(1)} minutes`);
const knobs = Object.keys(process.env).filter((name) => name.startsWith('BENCH_'));
if (filters.length > 0 || knobs.length > 0 || failed > 0 || figures.length === 0) {
  const why =
    failed > 0
      ? `${String(failed)} benchmark(s) failed`
      : filters.length > 0
        ? 'not every benchmark ran'
        : knobs.length > 0
          ? `size knobs set (${knobs.join(', ')})`
          : 'no figures';
  console.log(`README.md not updated: ${why}`);
} else {
  const readmePath = join(root, 'README.md');
  const now = new Date();
  const recorded: RecordedRun = {
    run: {
      at: now.toISOString().slice(0, 16).replace('T', ' '),
      node: process.versions.node,
      cpus: cpus().length,
      loadBefore,
      loadAfter: loadavg()[0] ?? 0,
      seconds,
    },
    figures,
  };
  // The rounds themselves, kept: the README test regenerates the block from them, so a table
  // edited by hand (or from another run) fails it.
  // Formatted as `npm run lint` checks it (prettier's JSON layout, not JSON.stringify's).
  const lastRun = join(here, LAST_RUN_FILE);
  const prettierOptions = (await resolveConfig(lastRun)) ?? {};
  writeFileSync(
    lastRun,
    await format(JSON.stringify(recorded), { ...prettierOptions, parser: 'json' }),
  );
  const block = formatReadmeBlock(recorded.figures, recorded.run);
  writeFileSync(readmePath, replaceReadmeBlock(readFileSync(readmePath, 'utf8'), block));
  console.log(
    `README.md: Benchmarks table written from this run (its rounds in test/bench/${LAST_RUN_FILE})`,
  );
}
process.exit(failed === 0 ? 0 : 1);

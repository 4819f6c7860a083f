import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// `import ... from 'quanta'` (strategies, tests) resolves to src/index.ts through the package's
// `quanta-source` export condition, as under tsc (tsconfig customConditions) and bin/quanta.js;
// without it, it would resolve to the build in dist/. The other names are Vite's defaults.
const SOURCE_CONDITIONS = ['quanta-source', 'module', 'node', 'development|production'];

/**
 * Tests that measure a rate against the wall clock with several real processes. They run after
 * all the others, alone on the machine: beside the rest of the suite on two cores (a sweep's
 * worker threads, an npm pack and install) their bots were starved of CPU, each answer came late
 * and held its rate slot longer, and a 10-s window fell to 0.85 R for want of CPU, not of
 * budget. What they check is the budget, so they get the machine to themselves.
 */
const ALONE = ['test/integration/runtime/shared-rate-budget.test.ts'];
/**
 * The simulator's seed range (issue 31): it keeps both cores busy for minutes, so it runs last,
 * after `ALONE` (in a group of its own: beside the rate test it would starve that one too).
 */
const SIM_RANGE = ['test/integration/simulation/seed-range.test.ts'];

export default defineConfig({
  ssr: { resolve: { conditions: SOURCE_CONDITIONS } },
  test: {
    // A test run never writes a snapshot or golden file (test/fixtures/golden): a missing one
    // fails, as in CI. `npm run golden:update` (UPDATE_GOLDEN=1) rewrites them, a decision that
    // then shows in review.
    update: process.env.UPDATE_GOLDEN === '1' ? 'all' : 'none',
    // Vitest's default in run mode is one core fewer than the machine has: one worker on the
    // 2-core machines CI runs on, so every file ran after the other and most tests, which wait
    // on child processes and sockets, left a core idle.
    maxWorkers: availableParallelism(),
    // The default summary, then one plain line "tests: N passed, N failed, N skipped" for tools
    // that read a run's closing line (test/reporters/closing-line.ts).
    reporters: ['default', './test/reporters/closing-line.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts'],
          exclude: [...ALONE, ...SIM_RANGE],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'alone', include: ALONE, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: { name: 'sim-range', include: SIM_RANGE, sequence: { groupOrder: 2 } },
      },
    ],
  },
});

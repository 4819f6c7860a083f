import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one plain closing line after vitest's own summary:
 *
 *     tests: 2228 passed, 0 failed, 0 skipped in 489.1s
 *
 * Vitest's summary ("Tests  2228 passed (2228)", coloured when `CI` is set) is not a format that
 * tools reading a run's last lines know; "N passed, N failed" alone on a line is. A test file that
 * failed to load has no test to count, so it counts as one failed test: the line never says
 * "0 failed" for a run that failed; nor does an error outside every test (a failed `beforeAll`, an
 * unhandled rejection), counted once each. The time ("in 489.1s", the wall time since vitest
 * started this run) makes it the shape of pytest's closing line too, and the last such line of the output.
 */
export default class ClosingLineReporter implements Reporter {
  #startedMs = performance.now();

  onTestRunStart(): void {
    this.#startedMs = performance.now();
  }

  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<unknown>,
  ): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // An error outside every test: the file did not load, or a hook failed (a failed
      // `beforeAll` leaves its suite's tests skipped, the error on the suite).
      if (testModule.errors().length > 0) failed++;
      for (const suite of testModule.children.allSuites()) if (suite.errors().length > 0) failed++;
    }
    // After the default reporter's summary: vitest calls reporters in the order configured, and
    // both write synchronously here.
    const seconds = ((performance.now() - this.#startedMs) / 1000).toFixed(1);
    process.stdout.write(
      `tests: ${passed} passed, ${failed} failed, ${skipped} skipped in ${seconds}s\n`,
    );
  }
}

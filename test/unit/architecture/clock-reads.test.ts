/**
 * Time comes from the injected clock (docs/style.md §24, docs/clock.md, issue 25): no file of
 * src/ reads the wall clock or the process's own clocks but src/clock/clock.ts, whose
 * `systemClock` is what a bot is given when a test gives it nothing else. Timers and random
 * draws are not behind an injected source yet: the files that start timers or draw randomness
 * are listed with their count, so that none is added unnoticed (and one moved behind the clock
 * or the seeded source shows here as a list to shorten).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The code of a file without its comments (a doc comment may name `Date.now`). */
function code(file: string): string {
  return readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

const FILES = sourceFiles(SRC).map((file) => ({ name: relative(SRC, file), text: code(file) }));

const CLOCK_READS = [
  /\bDate\.now\b/,
  /\bnew Date\(\s*\)/,
  /(^|[^.\w])Date\(\s*\)/,
  /\bperformance\.now\b/,
  /\bprocess\.hrtime\b/,
  /\bprocess\.uptime\b/,
];

const TIMERS = /\b(setTimeout|setInterval|setImmediate|AbortSignal\.timeout)\b|'node:timers/g;

/** Calls that draw randomness (seeded simulations use src/sim/random.ts, which draws none). */
const RANDOM_DRAWS =
  /\b(Math\.random|randomBytes|randomUUID|getRandomValues|randomInt|randomFill(Sync)?|generatePrivateKey)\s*\(/g;

/** Files of src/ and how many times `pattern` matches in their code, when it does. */
function countsOf(pattern: RegExp): Record<string, number> {
  return Object.fromEntries(
    FILES.map(({ name, text }) => [name, text.match(pattern)?.length ?? 0] as const).filter(
      ([, count]) => count > 0,
    ),
  );
}

it('reads the wall clock and the monotonic clock only in src/clock/clock.ts', () => {
  const readers = FILES.filter(({ text }) => CLOCK_READS.some((read) => read.test(text))).map(
    ({ name }) => name,
  );
  expect(readers).toEqual(['clock/clock.ts']);
});

it('starts timers only where it did when the clock came (none added)', () => {
  expect(countsOf(TIMERS)).toEqual({
    'account/credential-manager.ts': 2,
    'cli/markets-command.ts': 1,
    'cli/record-command.ts': 1,
    'cli/register-command.ts': 1,
    'execution/dispatcher.ts': 1,
    'execution/sqlite-journal-sync.ts': 1,
    'optimize/queue.ts': 1,
    'optimize/run-set.ts': 1,
    'runtime/bot-credentials.ts': 1,
    'runtime/bot.ts': 1,
    'runtime/control/control-server.ts': 1,
    'runtime/control/notifier.ts': 2,
    'runtime/first-listing.ts': 3,
    'runtime/sleep.ts': 1,
    // The simulator's macrotask boundary (setImmediate), never a wait: src/simulation/scheduler.ts.
    'simulation/scheduler.ts': 1,
    'strategy/strategy-timer.ts': 1,
    'venue/http/request.ts': 1,
  });
});

it('draws randomness only where it did when the clock came (none added)', () => {
  // Each is a secret or a token that must not repeat across processes: drawn from the OS, not a
  // seed (the paper venue's credentials, a generated wallet or signing key, a Redis lock token).
  expect(countsOf(RANDOM_DRAWS)).toEqual({
    'account/wallet-key.ts': 1,
    'execution/rate-budget/redis-rate-budget.ts': 1,
    'paper/credential-generator.ts': 2,
    'venue/signing/private-key.ts': 1,
  });
});

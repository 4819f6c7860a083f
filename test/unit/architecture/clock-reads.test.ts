/**
 * Time comes from the injected clock (docs/style.md §24, docs/clock.md, issue 25): no file of
 * src/ reads the wall clock or the process's own clocks but src/clock/clock.ts, whose
 * `systemClock` is what a bot is given when a test gives it nothing else. Timers and random draws
 * likewise: src/clock/timers.ts is the one file that starts real timers (or queues a tick, which
 * the simulator's scheduler drains with) and src/clock/entropy.ts
 * the one that draws randomness; every other part takes them injected (the whole-bot simulation
 * gives its virtual timers and seeded keys) or uses those as its default.
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

const TIMERS =
  /\b(setTimeout|setInterval|setImmediate|AbortSignal\.timeout|nextTick)\b|'node:timers/g;

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

it('starts timers only in src/clock/timers.ts (every other file takes them injected or from there)', () => {
  expect(Object.keys(countsOf(TIMERS))).toEqual(['clock/timers.ts']);
});

it('draws randomness only in src/clock/entropy.ts (secrets and tokens from the OS, injected where a seed must decide)', () => {
  expect(Object.keys(countsOf(RANDOM_DRAWS))).toEqual(['clock/entropy.ts']);
});

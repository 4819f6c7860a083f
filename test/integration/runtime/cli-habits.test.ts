/**
 * CLI habits a newcomer relies on: `--version`, `<command> --help` for every command, and
 * `quanta markets` / `quanta register` on a config without strategies (they need none).
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startPaperVenue } from '../../../src/paper/index.ts';
import { ROOT, spawnQuanta, tempDir, WALLET_ENV } from './harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

const out = (p: { stdout: { line: string }[] }) => p.stdout.map((l) => l.line).join('\n');

it('--version prints the package version; every command answers --help with its usage', async () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    version: string;
  };
  const v = spawnQuanta(['--version'], process.env);
  expect((await v.exited).code).toBe(0);
  expect(out(v)).toBe(`quanta ${version}`);
  const commands = ['run', 'markets', 'register', 'record', 'backtest', 'init', 'paper'];
  const helps = commands.map((command) => spawnQuanta([command, '--help'], process.env));
  for (const [i, help] of helps.entries()) {
    expect((await help.exited).code, commands[i]).toBe(0);
    expect(out(help), commands[i]).toMatch(new RegExp(`quanta ${commands[i] ?? ''}`));
  }
}, 120_000);

it('quanta markets and quanta register take a config without strategies', async () => {
  const venue = await startPaperVenue({ port: 0 });
  cleanups.push(() => venue.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const config = join(dir, 'bot.yaml');
  await writeFile(
    config,
    `venue: { writeUrl: ${venue.url}, readUrl: ${venue.url} }\nwallet: { privateKeyEnv: ${WALLET_ENV} }\nstate: { dir: state }\n`,
  );
  const env = { ...process.env, [WALLET_ENV]: `0x${'2'.repeat(64)}` };
  const markets = spawnQuanta(['markets', '--config', config, '--json'], env);
  expect((await markets.exited).code, markets.tail()).toBe(0);
  expect(out(markets)).toContain('ETH-USD');
  const register = spawnQuanta(['register', '--config', config], env);
  expect((await register.exited).code, register.tail()).toBe(0);
  expect(venue.requestCount('/api/v1/auth')).toBe(1);
  // `run` on the same file says what is missing (exit 2) before contacting the venue again.
  const run = spawnQuanta(['run', '--config', config], env);
  expect((await run.exited).code).toBe(2);
  expect(run.stderr.map((l) => l.line).join('\n')).toMatch(/no strategies to run/);
  expect(venue.requestCount('/api/v1/auth')).toBe(1);
}, 120_000);

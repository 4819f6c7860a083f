/**
 * CLI habits a newcomer relies on: `--version`, `<command> --help` for every command, and
 * `quanta markets` / `quanta register` on a config without strategies (they need none).
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { helpOf, synopsisOf } from '../../../src/cli/command-spec.ts';
import { COMMANDS, type CommandName } from '../../../src/cli/commands.ts';
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
  // Each the text of its entry in the command table (pinned in test/unit/cli/commands.test.ts).
  const commands = Object.keys(COMMANDS) as CommandName[];
  const helps = commands.map((command) => spawnQuanta([command, '--help'], process.env));
  for (const [i, help] of helps.entries()) {
    const name = commands[i] as CommandName;
    expect((await help.exited).code, name).toBe(0);
    expect(`${out(help)}\n`, name).toBe(helpOf(name, COMMANDS[name]));
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

it("a bad fill model value to quanta compare names the flag typed and prints compare's usage", async () => {
  // Each flag by the name the user typed (the message named the config key: "backtest
  // latencyMs"), with compare's usage line, not backtest's.
  for (const [flag, value, expected] of [
    ['--latency-ms', 'soon', 'an integer ≥ 0 \\(milliseconds\\)'],
    ['--slippage-bps', '1e3', 'a plain decimal number of basis points ≥ 0, like 2\\.5'],
    ['--maker-fee-bps', 'x', 'a plain decimal number of basis points ≥ 0, like 2\\.5'],
    ['--taker-fee-bps', '10000', 'less than 10000 basis points'],
  ] as const) {
    const compare = spawnQuanta(
      ['compare', '--journal', 'nowhere', '--data', 'nowhere', flag, value],
      process.env,
    );
    expect((await compare.exited).code).toBe(2);
    const text = compare.stderr.map((l) => l.line).join('\n');
    expect(text).toMatch(
      new RegExp(`^quanta compare: ${flag}: expected ${expected}, got "${value}"$`, 'm'),
    );
    expect(text).toContain(`usage: ${synopsisOf('compare', COMMANDS.compare)}`);
    expect(text).not.toContain('quanta backtest');
    expect(text).not.toMatch(/latencyMs|slippageBps|makerFeeBps|takerFeeBps/);
  }
}, 120_000);

/**
 * `quanta init DIR` output runs as written: a bot on the embedded paper venue fills an order
 * within 10 s of its first line, and the same config backtests unchanged on a recording. DIR is
 * a temporary folder outside the repository with nothing installed: the strategy's
 * `import ... from 'quanta'` resolves to the quanta that runs it.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ROOT, spawnQuanta, tempDir, waitFor } from './harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

const RECORDING = join(ROOT, 'test/fixtures/recording');

it('quanta init scaffolds a bot that fills a paper order within 10 s and backtests unchanged', async () => {
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const env: NodeJS.ProcessEnv = { ...process.env, QUANTA_LOG_FORMAT: 'json' };
  delete env.QUANTA_WALLET_KEY;

  const init = spawnQuanta(['init', join(dir, 'bot')], env);
  expect((await init.exited).code, init.tail()).toBe(0);
  for (const file of ['quanta.yaml', 'strategies/my-strategy.ts', 'package.json'])
    expect(existsSync(join(dir, 'bot', file)), file).toBe(true);
  // A second init into the same folder refuses to overwrite anything.
  const again = spawnQuanta(['init', join(dir, 'bot')], env);
  expect((await again.exited).code).toBe(2);
  expect(again.stderr.map((l) => l.line).join('\n')).toMatch(/would overwrite .*quanta\.yaml/);

  const config = join(dir, 'bot', 'quanta.yaml');
  const bot = spawnQuanta(['run', '--config', config], env);
  cleanups.push(async () => {
    if (bot.child.exitCode === null && bot.child.signalCode === null) bot.child.kill('SIGKILL');
    await bot.exited;
  });
  const filled = await waitFor(
    'a FILLED order',
    () =>
      bot.child.exitCode === null
        ? bot.stdout.find((l) => / FILLED: filled /.test(l.line))
        : { at: -1, line: `exited early\n${bot.tail()}` },
    45_000,
  );
  expect(filled.at, filled.line).toBeGreaterThan(0);
  const firstLine = bot.stdout[0] ?? bot.stderr[0];
  expect(filled.at - (firstLine?.at ?? bot.spawnedAt), bot.tail()).toBeLessThan(10_000);
  bot.child.kill('SIGINT');
  expect((await bot.exited).code, bot.tail()).toBe(130);
  // Its state stayed next to its config.
  expect(existsSync(join(dir, 'bot', '.quanta'))).toBe(true);

  const backtest = spawnQuanta(
    ['backtest', '--config', config, '--data', RECORDING, '--json'],
    env,
  );
  expect((await backtest.exited).code, backtest.tail()).toBe(0);
  const report = JSON.parse(backtest.stdout.map((l) => l.line).join('\n')) as {
    orders: unknown[];
  };
  expect(report.orders.length).toBeGreaterThan(0);
  expect(await readFile(config, 'utf8')).toContain('./strategies/my-strategy.ts');
}, 120_000);

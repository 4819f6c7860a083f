/**
 * Issue 27: `quanta init my-bot && cd my-bot && <the printed commands>`, in a temp folder outside
 * the checkout, runs the example strategy on the embedded paper venue with nothing but the
 * checkout and Node. The commands `init` prints are run as printed: `npm install` under
 * `npm_config_offline=true` (no registry may be reached: the dependency is a `file:` link to this
 * checkout), then `npx quanta run` from the project folder (its node_modules/.bin), stopped like
 * Ctrl-C (SIGINT to its process group) once its first status line shows it polling; and the
 * printed backtest, on the fixture recording.
 */
import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { ROOT, spawnCommand, spawnQuanta, tempDir, waitFor } from './harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

const RECORDING = join(ROOT, 'test/fixtures/recording');

/** This environment without npm's and vitest's own variables (they would steer the children). */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!name.startsWith('npm_') && name !== 'NODE_OPTIONS' && !name.startsWith('VITEST'))
      env[name] = value;
  delete env.QUANTA_WALLET_KEY;
  return { ...env, QUANTA_LOG_FORMAT: 'json', npm_config_offline: 'true' };
}

it('quanta init my-bot, then the printed commands, run the example strategy on the paper venue', async () => {
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const env = userEnv();

  const init = spawnCommand(
    process.execPath,
    [join(ROOT, 'bin/quanta.js'), 'init', 'my-bot'],
    env,
    dir,
  );
  expect((await init.exited).code, init.tail()).toBe(0);
  const project = join(dir, 'my-bot');
  expect(await readFile(join(project, 'strategies/my-strategy.ts'), 'utf8')).toBe(
    await readFile(join(ROOT, 'strategies/ema-cross.ts'), 'utf8'),
  );
  // A second init into the same folder refuses to overwrite anything.
  const again = spawnQuanta(['init', project], env);
  expect((await again.exited).code).toBe(2);
  expect(again.stderr.map((l) => l.line).join('\n')).toMatch(/would overwrite .*quanta\.yaml/);

  const lines = init.stdout.map((l) => l.line);
  const printed = lines
    .slice(lines.indexOf('Next:') + 1)
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line !== '');
  expect(printed.slice(0, 3)).toEqual([
    'cd my-bot',
    'npm install --ignore-scripts',
    'npx quanta run --config quanta.yaml',
  ]);
  const words = (line: string) => line.split(/\s+/);
  const install = words(printed[1] ?? '');
  await promisify(execFile)(install[0] ?? '', install.slice(1), { cwd: project, env });
  // The dependency is this checkout itself, linked: nothing was downloaded.
  expect(realpathSync(join(project, 'node_modules/quanta'))).toBe(realpathSync(ROOT));

  const run = words(printed[2] ?? '');
  // detached: its own process group, so SIGINT reaches npx and the bot as Ctrl-C would.
  const bot = spawnCommand(run[0] ?? '', run.slice(1), env, project, { detached: true });
  cleanups.push(async () => {
    const { pid, exitCode, signalCode } = bot.child;
    if (exitCode === null && signalCode === null && pid !== undefined)
      process.kill(-pid, 'SIGKILL');
    await bot.exited;
  });
  const starting = await waitFor(
    'the starting line',
    () => bot.stdout.find((l) => l.line.includes('"msg":"starting"')),
    90_000,
  );
  expect(starting.line).toContain('"name":"ema-cross"');
  // The first status line comes a minute after the start: the loop has polled all along.
  const status = await waitFor(
    'a status line',
    () =>
      bot.child.exitCode === null
        ? bot.stdout.find((l) => /"snapshots":\d+/.test(l.line))
        : { at: -1, line: `exited early\n${bot.tail()}` },
    150_000,
  );
  expect(status.at, status.line).toBeGreaterThan(0);
  expect(status.line).toMatch(/"pollFailures":0/);
  process.kill(-(bot.child.pid ?? 0), 'SIGINT');
  await bot.exited;
  const stderr = bot.stderr.map((l) => l.line).join('\n');
  expect(stderr, bot.tail()).toMatch(/^quanta: stopped after [1-9]\d+ snapshots$/m);
  expect(stderr).not.toMatch(/paused|error/i);
  expect(existsSync(join(project, '.quanta'))).toBe(true);

  const backtest = spawnCommand(
    'npx',
    ['quanta', 'backtest', '--config', 'quanta.yaml', '--data', RECORDING, '--json'],
    env,
    project,
  );
  expect((await backtest.exited).code, backtest.tail()).toBe(0);
  const report = JSON.parse(backtest.stdout.map((l) => l.line).join('\n')) as object;
  expect(JSON.stringify(report)).toContain('ema-cross');
}, 300_000);

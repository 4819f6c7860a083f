/**
 * The package as others install it: `npm pack` of this repository (its `prepare` script builds
 * dist/), installed with `npm install <tarball>` into a fresh project next to typescript. There,
 * a strategy importing `defineStrategy` from 'quanta' type-checks (strict) and compiles to .js;
 * `startBot` from 'quanta/runtime' and `runBacktest` from 'quanta/backtest' type-check there and
 * every entry ('quanta', 'quanta/indicators', 'quanta/runtime', 'quanta/backtest') resolves to
 * the compiled dist/ under plain node, the embedder functions in their own entries only; the installed `quanta paper` serves a venue and the installed `quanta run --config
 * bot.yaml` runs the project's strategy under plain node (no tsx) until its MARKET order is
 * FILLED; `quanta record` + `quanta backtest --report` write the HTML report, whose chart
 * library is read from the installed uplot at run time.
 *
 * Speed: better-sqlite3 has no reachable prebuilt binary here and would compile from source
 * (two minutes on two cores). The binary this repository's node_modules already built for this
 * very node is offered to prebuild-install as a local prebuild (its documented
 * `<package>_local_prebuilds` setting); if the versions differ it compiles as a user's would.
 */
import { execFile, spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, expect, it } from 'vitest';
import { WALLET_KEY } from '../account/helpers.ts';
import { journalPath, readJournal, ROOT, waitFor, WALLET_ENV } from '../runtime/harness.ts';

const TIMEOUT_MS = 300_000;

/** The version of a package installed in this repository. */
function installedVersion(name: string): string {
  const text = readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

/**
 * This process's environment without what would change how the children behave: the npm_*
 * variables `npm test` sets for its script (npm_config_prefix would redirect `npm install`),
 * NODE_OPTIONS and vitest's own.
 */
function cleanEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith('npm_') || name === 'NODE_OPTIONS' || name.startsWith('VITEST')) continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

/** Runs a command to completion; rejects with its output when it fails. */
function run(
  file: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = cleanEnv(),
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      [...args],
      { cwd, env, timeout: TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error === null) resolve(stdout);
        else
          reject(
            new Error(`${file} ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`),
          );
      },
    );
  });
}

type Child = ChildProcessByStdio<null, Readable, Readable>;

/** A spawned process with its output collected line by line. */
interface Spawned {
  readonly child: Child;
  readonly stdout: string[];
  readonly stderr: string[];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  tail(): string;
}

const children: Child[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function lines(stream: Readable, into: string[]): void {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      into.push(pending.slice(0, end));
      pending = pending.slice(end + 1);
    }
  });
}

/** Starts the project's installed `quanta` (node_modules/.bin/quanta) under plain node. */
function quanta(project: string, args: readonly string[], env: NodeJS.ProcessEnv): Spawned {
  const child = spawn(process.execPath, [join(project, 'node_modules/.bin/quanta'), ...args], {
    cwd: project,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const stdout: string[] = [];
  const stderr: string[] = [];
  lines(child.stdout, stdout);
  lines(child.stderr, stderr);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const tail = (): string =>
    ['--- stdout', ...stdout.slice(-20), '--- stderr', ...stderr.slice(-20)].join('\n');
  return { child, stdout, stderr, exited, tail };
}

/** The project's strategy: one small MARKET buy on its first snapshot, and where it ran. */
const STRATEGY_TS = `import { writeFileSync } from 'node:fs';
import { defineStrategy, type OrderIntent } from 'quanta';

let sent = false;

export default defineStrategy({
  name: 'first-snapshot-buy',
  onSnapshot(_snapshot, ctx): OrderIntent[] {
    const marketId = ctx.marketIds[0];
    if (sent || marketId === undefined) return [];
    sent = true;
    writeFileSync(
      new URL('./probe.json', import.meta.url),
      JSON.stringify({
        self: import.meta.url,
        quanta: import.meta.resolve('quanta'),
        execArgv: process.execArgv,
        sourceMapsEnabled: process.sourceMapsEnabled,
      }),
    );
    return [{ marketId, side: 'BUY', type: 'MARKET', amount: '0.01' }];
  },
});
`;

/** Programmatic use, type-checked only: the types a user needs for startBot and runBacktest. */
const EMBED_TS = `import { defineStrategy } from 'quanta';
import { runBacktest } from 'quanta/backtest';
import {
  createLogger,
  loadConfig,
  startBot,
  type RunSummary,
  type TradingMode,
} from 'quanta/runtime';

export async function runFor(ms: number): Promise<RunSummary> {
  const config = await loadConfig('bot.yaml');
  const bot = await startBot({ config, env: process.env, log: createLogger(), projectRoot: '.' });
  const mode: TradingMode = bot.setMode('halt-entries', 'control');
  console.log(mode, bot.mode, bot.status(), bot.controlUrl);
  // @ts-expect-error: the handle is narrow: the journal stays inside the runtime
  void bot.journal;
  await bot.run(AbortSignal.timeout(ms));
  return bot.shutdown();
}

export async function ordersIn(data: string): Promise<number> {
  const config = await loadConfig('bot.yaml');
  const trace = await runBacktest({ config, data, projectRoot: '.' });
  return trace.orders.length;
}

// The declarations are real types, not \`any\`: these misuses must be errors.
// @ts-expect-error: the embedder functions are in quanta/runtime and quanta/backtest, not quanta
export { startBot as fromMain } from 'quanta';
// @ts-expect-error: startBot needs config, env, log and projectRoot
void startBot({});
// @ts-expect-error: a strategy needs onSnapshot or onBar
defineStrategy({ name: 'incomplete' });
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    skipLibCheck: true, // as `tsc --init` writes it; EMBED_TS shows the types are not `any`
    types: ['node'],
  },
  files: ['strategy.ts', 'embed.ts'],
};

/**
 * better-sqlite3's binary from this repository, packed the way prebuild-install names a
 * download; returns the directory to offer it from (undefined without a binary or `tar`).
 */
async function localPrebuild(work: string): Promise<string | undefined> {
  const addon = join(ROOT, 'node_modules/better-sqlite3');
  if (!existsSync(join(addon, 'build/Release/better_sqlite3.node'))) return undefined;
  const dir = join(work, 'prebuilds');
  await mkdir(dir);
  const { modules } = process.versions;
  const name = `better-sqlite3-v${installedVersion('better-sqlite3')}-node-v${modules}-${process.platform}-${process.arch}.tar.gz`;
  try {
    await run(
      'tar',
      ['-czf', join(dir, name), '-C', addon, 'build/Release/better_sqlite3.node'],
      work,
    );
    return dir;
  } catch {
    return undefined;
  }
}

it(
  'npm pack → npm install in a fresh project: types, plain-node imports, quanta paper + quanta run trade, backtest report',
  async () => {
    const startedAt = Date.now();
    const step = (name: string): void =>
      console.info(`pack-install: ${name} at ${Math.round((Date.now() - startedAt) / 1000)} s`);
    const work = await mkdtemp(join(tmpdir(), 'quanta-package-'));
    dirs.push(work);

    // The tarball, built by `prepare`: compiled JS, declarations and the bin; no sources.
    const packed = JSON.parse(
      await run('npm', ['pack', '--json', '--pack-destination', work], ROOT),
    ) as { filename: string; files: { path: string }[] }[];
    step('npm pack');
    const shipped = (packed[0]?.files ?? []).map((file) => file.path);
    expect(shipped).toEqual(
      expect.arrayContaining([
        'bin/quanta.js',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/cli/main.js',
        'dist/backtest/report-html.js',
        'package.json',
      ]),
    );
    // No sources or tests; of the strategies only the example `quanta init` copies into a new
    // project (src/cli/init-command.ts), as TypeScript source by design.
    expect(shipped.filter((path) => /^(src|test|strategies)\//.test(path))).toEqual([
      'strategies/ema-cross.ts',
    ]);
    const tarball = join(work, packed[0]?.filename ?? 'missing.tgz');

    // A fresh project that installs the tarball.
    const project = join(work, 'project');
    await mkdir(project);
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'quanta-user', private: true, type: 'module' }, null, 2),
    );
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    await writeFile(join(project, 'strategy.ts'), STRATEGY_TS);
    await writeFile(join(project, 'embed.ts'), EMBED_TS);
    const prebuilds = await localPrebuild(work);
    await run(
      'npm',
      [
        'install',
        tarball,
        `typescript@${installedVersion('typescript')}`,
        `@types/node@${installedVersion('@types/node')}`,
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
      ],
      project,
      cleanEnv(
        prebuilds === undefined ? {} : { npm_config_better_sqlite3_local_prebuilds: prebuilds },
      ),
    );
    step('npm install');
    expect(existsSync(join(project, 'node_modules/quanta/src'))).toBe(false);

    // The project's tsc type-checks the strategy against dist/*.d.ts and compiles it.
    await run(
      process.execPath,
      [join(project, 'node_modules/typescript/bin/tsc'), '-p', '.'],
      project,
    );
    step('tsc');
    expect(existsSync(join(project, 'strategy.js'))).toBe(true);

    // Each package entry under plain node: its compiled file, and what it exports.
    const imported = JSON.parse(
      await run(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          "const entries = ['quanta', 'quanta/indicators', 'quanta/runtime', 'quanta/backtest'];" +
            'const out = {};' +
            'for (const name of entries) {' +
            '  const entry = await import(name);' +
            '  out[name] = { url: import.meta.resolve(name), kinds: Object.fromEntries(' +
            "    ['defineStrategy', 'ema', 'startBot', 'runBacktest', 'loadConfig']" +
            '      .map((key) => [key, typeof entry[key]])) };' +
            '}' +
            'console.log(JSON.stringify(out));',
        ],
        project,
      ),
    ) as Record<string, unknown>;
    const entry = (file: string, ...functions: string[]) => ({
      url: expect.stringMatching(new RegExp(`/node_modules/quanta/dist/${file}\\.js$`)) as unknown,
      kinds: Object.fromEntries(
        ['defineStrategy', 'ema', 'startBot', 'runBacktest', 'loadConfig'].map((key) => [
          key,
          functions.includes(key) ? 'function' : 'undefined',
        ]),
      ),
    });
    expect(imported).toEqual({
      quanta: entry('index', 'defineStrategy'),
      'quanta/indicators': entry('indicators', 'ema'),
      'quanta/runtime': entry('runtime-entry', 'startBot', 'loadConfig'),
      'quanta/backtest': entry('backtest-entry', 'runBacktest', 'loadConfig'),
    });

    // The installed CLI: a paper venue, then a bot trading the project's compiled strategy.
    const env = cleanEnv({ [WALLET_ENV]: WALLET_KEY });
    const paper = quanta(project, ['paper', '--port', '0', '--seed', '5'], env);
    const paperLine = await waitFor(
      'the paper venue URL',
      () =>
        paper.child.exitCode === null
          ? paper.stdout[0]
          : `{"error": ${JSON.stringify(paper.tail())}}`,
      60_000,
    );
    const url = (JSON.parse(paperLine) as { url?: string }).url;
    expect(url, paperLine).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await writeFile(
      join(project, 'bot.yaml'),
      [
        'venue:',
        `  writeUrl: ${url}`,
        `  readUrl: ${url}`,
        'wallet:',
        `  privateKeyEnv: ${WALLET_ENV}`,
        'state:',
        '  dir: ./state',
        'poll:',
        '  intervalMs: 200',
        'risk:',
        "  capital: '100000'", // the paper venue's balance: the bot knows its account
        'strategies:',
        '  - module: ./strategy.js',
        '    markets: [ETH-USD]',
        '',
      ].join('\n'),
    );
    const bot = quanta(project, ['run', '--config', 'bot.yaml'], env);
    await waitFor(
      'a FILLED order line',
      () =>
        bot.child.exitCode === null
          ? bot.stdout.some((line) => /order \d+ FILLED: filled 0\.01 ETH-USD/.test(line))
          : expect.fail(`quanta run exited early\n${bot.tail()}`),
      60_000,
    );
    step('FILLED');
    bot.child.kill('SIGINT');
    expect(await bot.exited, bot.tail()).toEqual({ code: 130, signal: null });
    expect(bot.stderr.join('\n')).toMatch(/^ {2}orders: FILLED 1$/m);
    expect(readJournal(journalPath(project))).toMatchObject([
      { state: 'FILLED', side: 'BUY', type: 'MARKET', symbol: 'ETH-USD', filledX18: 10n ** 16n },
    ]);
    // Plain node: the strategy is the compiled .js, 'quanta' is dist/, and no tsx loader ran
    // (tsx's register() turns source maps on; plain node leaves them off).
    const probe = JSON.parse(await readFile(join(project, 'probe.json'), 'utf8')) as {
      self: string;
      quanta: string;
      execArgv: string[];
      sourceMapsEnabled: boolean;
    };
    expect(probe.self).toMatch(/\/strategy\.js$/);
    expect(probe.quanta).toMatch(/\/node_modules\/quanta\/dist\/index\.js$/);
    expect(probe.execArgv).toEqual([]);
    expect(probe.sourceMapsEnabled).toBe(false);

    // A short recording, then a backtest of the same strategy with the HTML report.
    await run(
      process.execPath,
      [
        'node_modules/.bin/quanta',
        'record',
        '--config',
        'bot.yaml',
        '--out',
        'rec',
        '--duration',
        '1s',
      ],
      project,
      env,
    );
    await run(
      process.execPath,
      [
        'node_modules/.bin/quanta',
        'backtest',
        '--config',
        'bot.yaml',
        '--data',
        'rec',
        '--report',
        'report',
      ],
      project,
      env,
    );
    expect(await readdir(join(project, 'report'))).toEqual(
      expect.arrayContaining(['report.html', 'report.json']),
    );
    expect(await readFile(join(project, 'report/report.html'), 'utf8')).toContain('uPlot');
    step('backtest report');

    paper.child.kill('SIGTERM');
    expect(await paper.exited, paper.tail()).toEqual({ code: 0, signal: null });
  },
  TIMEOUT_MS,
);

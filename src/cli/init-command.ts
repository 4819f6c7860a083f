import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stdout } from 'node:process';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { CommandInput } from './command-spec.ts';
import type { COMMANDS } from './commands.ts';
import { ExitCode } from './exit-codes.ts';
import { initConfig, initPackageJson } from './init-templates.ts';

/** The quanta package this command runs from (src/cli/ in the checkout, dist/cli/ installed). */
const QUANTA_ROOT = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
/** The shipped example strategy, written as the project's first strategy. */
const EXAMPLE_STRATEGY = join(QUANTA_ROOT, 'strategies', 'ema-cross.ts');

/**
 * `quanta init [DIR]`: writes `quanta.yaml` and `strategies/my-strategy.ts` (the shipped example,
 * strategies/ema-cross.ts) into DIR (default the working directory), and a package.json naming
 * this quanta as a `file:` dependency where there is none. It prints the commands that install
 * it (a link to this checkout or package: nothing is downloaded) and run the bot on the embedded
 * paper venue. Never overwrites a file: an existing one is a usage error (exit 2) naming it.
 */
export async function run({ positional }: CommandInput<typeof COMMANDS.init>): Promise<number> {
  const dir = resolve(positional ?? '.');
  // The strategy is an ES module: as `.ts` inside a `"type": "module"` package (written here
  // when the folder has no package.json), else as `.mts`, which is ESM whatever the package says.
  const packageJson = join(dir, 'package.json');
  const hasPackageJson = existsSync(packageJson);
  const esmPackage = !hasPackageJson || isModulePackage(await readFile(packageJson, 'utf8'));
  const strategyFile = `my-strategy.${esmPackage ? 'ts' : 'mts'}`;
  const files = [
    { path: join(dir, 'quanta.yaml'), text: initConfig(`./strategies/${strategyFile}`) },
    { path: join(dir, 'strategies', strategyFile), text: await readFile(EXAMPLE_STRATEGY, 'utf8') },
    ...(hasPackageJson ? [] : [{ path: packageJson, text: initPackageJson(QUANTA_ROOT) }]),
  ];
  const existing = files.filter((file) => existsSync(file.path)).map((file) => file.path);
  if (existing.length > 0) {
    throw new QuantaError(ErrorCodes.USAGE, `would overwrite ${existing.join(', ')}`, {
      details: ['Pick an empty directory: quanta init DIR'],
    });
  }
  await mkdir(join(dir, 'strategies'), { recursive: true });
  for (const file of files) await writeFile(file.path, file.text, { encoding: 'utf8', flag: 'wx' });
  const fromCwd = relative(process.cwd(), dir);
  const shown = fromCwd === '' ? '.' : fromCwd.startsWith('..') ? dir : fromCwd;
  // --ignore-scripts: the linked quanta's own `prepare` would rebuild its dist/, which its
  // `npm ci` already built; the link itself needs no script.
  const install = hasPackageJson
    ? `npm install --ignore-scripts ${QUANTA_ROOT}`
    : 'npm install --ignore-scripts';
  stdout.write(
    [
      `quanta: wrote ${files.map((file) => relative(dir, file.path)).join(', ')} in ${shown}`,
      '',
      'Next:',
      ...(shown === '.' ? [] : [`  cd ${shown}`]),
      `  ${install}      # links quanta from ${QUANTA_ROOT}; downloads nothing`,
      '  npx quanta run --config quanta.yaml      # trade on the embedded paper venue; Ctrl-C stops',
      '  npx quanta record --config quanta.yaml --out recordings --duration 2m',
      '  npx quanta backtest --config quanta.yaml --data recordings --report report',
      '',
    ].join('\n'),
  );
  return ExitCode.OK;
}

function isModulePackage(text: string): boolean {
  try {
    return (JSON.parse(text) as { type?: unknown }).type === 'module';
  } catch {
    return false;
  }
}

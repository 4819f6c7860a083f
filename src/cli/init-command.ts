import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { stdout } from 'node:process';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { CommandInput } from './command-spec.ts';
import type { COMMANDS } from './commands.ts';
import { ExitCode } from './exit-codes.ts';
import { INIT_PACKAGE_JSON, INIT_STRATEGY, initConfig } from './init-templates.ts';

/**
 * `quanta init [DIR]`: writes `quanta.yaml` and `strategies/my-strategy.ts` into DIR (default the
 * working directory). They run at once against the embedded paper venue (`quanta run --config
 * DIR/quanta.yaml`) and backtest unchanged. Never overwrites a file: an existing one is a usage
 * error (exit 2) naming it.
 */
export async function run({ positional }: CommandInput<typeof COMMANDS.init>): Promise<number> {
  const dir = resolve(positional ?? '.');
  // The strategy is an ES module: as `.ts` inside a `"type": "module"` package (written here
  // when the folder has no package.json), else as `.mts`, which is ESM whatever the package says.
  const packageJson = join(dir, 'package.json');
  const esmPackage =
    !existsSync(packageJson) || isModulePackage(await readFile(packageJson, 'utf8'));
  const strategyFile = `my-strategy.${esmPackage ? 'ts' : 'mts'}`;
  const files = [
    { path: join(dir, 'quanta.yaml'), text: initConfig(`./strategies/${strategyFile}`) },
    { path: join(dir, 'strategies', strategyFile), text: INIT_STRATEGY },
    ...(existsSync(packageJson) ? [] : [{ path: packageJson, text: INIT_PACKAGE_JSON }]),
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
  stdout.write(
    [
      `quanta: wrote ${files.map((file) => relative(dir, file.path)).join(', ')} in ${shown}`,
      '',
      'Next:',
      `  quanta run --config ${join(shown, 'quanta.yaml')}      # trade on the embedded paper venue; Ctrl-C stops`,
      `  quanta record --config ${join(shown, 'quanta.yaml')} --out ${join(shown, 'recordings')} --duration 2m`,
      `  quanta backtest --config ${join(shown, 'quanta.yaml')} --data ${join(shown, 'recordings')} --report ${join(shown, 'report')}`,
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

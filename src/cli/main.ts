/**
 * The `quanta` command: a dispatcher over the table in commands.ts. Each command lives in its
 * own file, `NAME-command.ts`, loaded only when named, so `quanta paper` does not pay for the
 * runtime and the runtime not for the venue. A command resolves to its exit code
 * (docs/design.md §5: 0 ok, 1 runtime failure, 2 usage or config error, 3 venue refused
 * credentials, 4 journal damaged, 130 interrupted).
 */
import { readFileSync } from 'node:fs';
import { argv, stderr, stdout } from 'node:process';
import { isQuantaError, ErrorCodes } from '../errors/index.ts';
import {
  asksForHelp,
  helpOf,
  mainHelpOf,
  parseCommandArgs,
  usageErrorText,
  type CommandInput,
  type CommandSpec,
} from './command-spec.ts';
import { COMMANDS, isCommandName, type CommandName } from './commands.ts';
import { describeError, exitCodeFor } from './exit-codes.ts';

/** What every `NAME-command.ts` exports. */
type CommandRunner = (input: CommandInput<CommandSpec>) => Promise<number>;

/**
 * The module of a command, by the table's naming rule (commands.ts). The extension follows this
 * file's: `.ts` from the sources, `.js` from the compiled package.
 */
async function loadCommand(name: CommandName): Promise<CommandRunner> {
  const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  const module = (await import(
    new URL(`./${name}-command.${extension}`, import.meta.url).href
  )) as {
    run?: unknown;
  };
  if (typeof module.run !== 'function')
    throw new Error(`src/cli/${name}-command.${extension} does not export run()`);
  return module.run as CommandRunner;
}

/** The package's version, from its package.json (two levels up from src/cli or dist/cli). */
function readVersion(): string {
  const path = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}

async function main(args: readonly string[]): Promise<number> {
  const [command, ...rest] = args;
  const help = mainHelpOf(COMMANDS);
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    stdout.write(help);
    return 0;
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    stdout.write(`quanta ${readVersion()}\n`);
    return 0;
  }
  if (!isCommandName(command)) {
    stderr.write(`quanta: unknown command ${JSON.stringify(command)}\n\n${help}`);
    return 2;
  }
  const spec: CommandSpec = COMMANDS[command];
  if (asksForHelp(rest)) {
    stdout.write(helpOf(command, spec));
    return 0;
  }
  try {
    // Parsed before the module loads: a usage error answers without loading the command.
    const input = parseCommandArgs(spec, rest);
    return await (
      await loadCommand(command)
    )(input);
  } catch (error) {
    if (!isQuantaError(error, ErrorCodes.USAGE)) throw error;
    stderr.write(usageErrorText(command, spec, error));
    return exitCodeFor(error);
  }
}

try {
  // exitCode, not exit(): pending output is written before the process ends.
  process.exitCode = await main(argv.slice(2));
} catch (error) {
  stderr.write(`quanta: ${describeError(error)}\n`);
  process.exitCode = exitCodeFor(error);
}

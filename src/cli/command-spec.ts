import { parseArgs } from 'node:util';
import { ErrorCodes, EXIT_CODE_SUMMARIES, QuantaError } from '../errors/index.ts';

/** One flag of a command, as its help shows it and its parser reads it. */
export interface FlagSpec {
  /**
   * The placeholder of the flag's value in the usage (`FILE`, `N`, `D`); a flag without one is a
   * switch (`--json`).
   */
  readonly value?: string;
  /** What the flag sets, one line (lower case, no final stop). */
  readonly help: string;
  /** Must be given; the command is not run without it (a usage error, exit 2). */
  readonly required?: boolean;
  /** The value used when the flag is not given; the help shows it. */
  readonly default?: string;
  /** What happens without the flag when no single value says it (`every core`); help only. */
  readonly otherwise?: string;
}

/** One positional argument (`quanta init [DIR]`). */
export interface PositionalSpec {
  readonly name: string;
  readonly help: string;
  readonly default?: string;
  /** Takes more than one argument (`quanta params set dca amount=1`): the rest are `rest`. */
  readonly many?: true;
}

/** One command: everything its help, its usage errors and its flag parser need. */
export interface CommandSpec {
  /** One line in `quanta --help`. */
  readonly summary: string;
  /** A paragraph for `quanta NAME --help`, after the usage line. */
  readonly about: string;
  readonly flags: Readonly<Record<string, FlagSpec>>;
  /** At most one, optional (with `many`, it takes every argument left). */
  readonly positional?: PositionalSpec;
}

type ValueOf<F extends FlagSpec> = F extends { readonly value: string }
  ? F extends { readonly required: true } | { readonly default: string }
    ? string
    : string | undefined
  : boolean;

/** The parsed flags of a command: a value flag as a string, a switch as a boolean. */
export type FlagValues<Flags extends Readonly<Record<string, FlagSpec>>> = {
  readonly [K in keyof Flags]: ValueOf<Flags[K]>;
};

/** What a command's runner is given: its flags, parsed and checked against its table entry. */
export interface CommandInput<Spec extends CommandSpec> {
  readonly flags: FlagValues<Spec['flags']>;
  /** The positional argument, or its default; undefined for a command without one. */
  readonly positional: string | undefined;
  /** The arguments after the first, for a positional that takes `many`. */
  readonly rest?: readonly string[];
}

/** A command's usage line, e.g. `quanta record --out DIR [--config FILE] [--duration D] [--gzip]`. */
export function synopsisOf(name: string, spec: CommandSpec): string {
  const flag = (flagName: string, f: FlagSpec): string =>
    `--${flagName}${f.value === undefined ? '' : ` ${f.value}`}`;
  const entries = Object.entries(spec.flags);
  const required = entries.filter(([, f]) => f.required === true).map(([n, f]) => flag(n, f));
  const optional = entries
    .filter(([, f]) => f.required !== true)
    .map(([n, f]) => `[${flag(n, f)}]`);
  const positional =
    spec.positional === undefined
      ? []
      : [`[${spec.positional.name}${spec.positional.many === true ? '...' : ''}]`];
  return ['quanta', name, ...required, ...optional, ...positional].join(' ');
}

/** `quanta NAME --help`: the usage line, the paragraph, then every flag with its default. */
export function helpOf(name: string, spec: CommandSpec): string {
  const rows: [string, string][] = [];
  if (spec.positional !== undefined) {
    const p = spec.positional;
    rows.push([p.name, `${p.help}${p.default === undefined ? '' : ` (default ${p.default})`}`]);
  }
  for (const [flagName, f] of Object.entries(spec.flags)) {
    const left = `--${flagName}${f.value === undefined ? '' : ` ${f.value}`}`;
    const note =
      f.required === true
        ? ' (required)'
        : f.default !== undefined
          ? ` (default ${f.default})`
          : f.otherwise !== undefined
            ? ` (default: ${f.otherwise})`
            : '';
    rows.push([left, `${f.help}${note}`]);
  }
  rows.push(['-h, --help', 'show this help']);
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return [
    `Usage: ${synopsisOf(name, spec)}`,
    '',
    spec.about,
    '',
    'Options:',
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`),
    '',
  ].join('\n');
}

/** `quanta --help`: every command's usage line and summary, in table order. */
export function mainHelpOf(commands: Readonly<Record<string, CommandSpec>>): string {
  return `quanta — trading bot framework

Usage:
${Object.entries(commands)
  .map(([name, spec]) => `  ${synopsisOf(name, spec)}\n      ${spec.summary}\n`)
  .join('')}  quanta <command> --help
      show one command's flags, each with its default
  quanta --version
      print the version

${exitCodesHelp()}
`;
}

/** The help's last lines: every exit code and its meaning, wrapped before 92 columns. */
function exitCodesHelp(): string {
  const lines: string[] = [];
  let line = 'Exit codes:';
  const entries = Object.entries(EXIT_CODE_SUMMARIES).sort(([a], [b]) => Number(a) - Number(b));
  entries.forEach(([code, summary], index) => {
    const item = `${code} ${summary}${index === entries.length - 1 ? '.' : ','}`;
    if (line.length + 1 + item.length > 92) {
      lines.push(line);
      line = item;
    } else line += ` ${item}`;
  });
  lines.push(line);
  return lines.join('\n');
}

/** Whether the arguments ask for the command's help (`-h` or `--help` anywhere). */
export function asksForHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

/**
 * Parses a command's arguments by its table entry: unknown flags, stray or extra arguments,
 * missing required flags and a value given to a switch are usage errors. Defaults are applied.
 *
 * @throws QuantaError `QUANTA_USAGE` saying what is wrong (the caller adds the usage).
 */
export function parseCommandArgs<Spec extends CommandSpec>(
  spec: Spec,
  args: readonly string[],
): CommandInput<Spec> {
  const options: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const [name, f] of Object.entries(spec.flags))
    options[name] = { type: f.value === undefined ? 'boolean' : 'string' };
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: [...args],
      options,
      allowPositionals: spec.positional !== undefined,
      strict: true,
    });
  } catch (cause) {
    throw new QuantaError(ErrorCodes.USAGE, cause instanceof Error ? cause.message : String(cause));
  }
  const many = spec.positional?.many === true;
  if (parsed.positionals.length > 1 && !many)
    throw new QuantaError(
      ErrorCodes.USAGE,
      `takes at most one ${spec.positional?.name ?? 'argument'}, got ${parsed.positionals.length}`,
    );
  const values: Record<string, string | boolean | undefined> = {};
  for (const [name, f] of Object.entries(spec.flags)) {
    const given = parsed.values[name];
    if (f.value === undefined) {
      values[name] = given === true;
      continue;
    }
    if (given === undefined && f.required === true)
      throw new QuantaError(ErrorCodes.USAGE, `--${name} ${f.value} is required (${f.help})`);
    values[name] = given ?? f.default;
  }
  return {
    flags: values as FlagValues<Spec['flags']>,
    positional: parsed.positionals[0] ?? spec.positional?.default,
    ...(many ? { rest: parsed.positionals.slice(1) } : {}),
  };
}

/** The lines a usage error prints: what is wrong, the usage, where the flags are described. */
export function usageErrorText(name: string, spec: CommandSpec, error: QuantaError): string {
  return [
    `quanta ${name}: ${error.message}`,
    `usage: ${synopsisOf(name, spec)}`,
    `(quanta ${name} --help describes every flag)`,
    '',
  ].join('\n');
}

/**
 * The README's command reference: `quanta --help`, then every command's `--help`, as text
 * blocks (test/unit/readme.test.ts checks that the README holds exactly this).
 */
export function commandReferenceOf(commands: Readonly<Record<string, CommandSpec>>): string {
  const fence = '```';
  return [
    `${fence}text`,
    mainHelpOf(commands).trimEnd(),
    fence,
    '',
    "Each command's flags, with their defaults (`quanta NAME --help`):",
    '',
    `${fence}text`,
    Object.entries(commands)
      .map(([name, spec]) => helpOf(name, spec).trimEnd())
      .join('\n\n'),
    fence,
  ].join('\n');
}

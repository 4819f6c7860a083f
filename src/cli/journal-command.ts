import { stdout } from 'node:process';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { backupJournal } from '../runtime/journal-backup.ts';
import {
  inspectJournal,
  isSound,
  JOURNAL_SCHEMA_VERSION,
  type JournalContents,
} from '../runtime/journal-inspect.ts';
import { salvageJournal } from '../runtime/journal-salvage.ts';
import { journalPathOf } from '../runtime/state-paths.ts';
import type { CommandInput } from './command-spec.ts';
import type { COMMANDS } from './commands.ts';
import { loadConfigFlag } from './common.ts';
import { ExitCode } from './exit-codes.ts';

/** At most this many lost ids and problems are listed in the text output (--json has all). */
const LISTED = 50;

/**
 * `quanta journal check|salvage|backup`: what is wrong with a bot's order journal, a copy of what
 * can be read out of a damaged one, and a consistent online backup of a live one. None of them
 * writes the journal; `check` exits 4 when it finds damage.
 */
export async function run({
  flags,
  positional: action,
}: CommandInput<typeof COMMANDS.journal>): Promise<number> {
  if (action !== 'check' && action !== 'salvage' && action !== 'backup')
    throw usage(`quanta journal expects check, salvage or backup, got ${JSON.stringify(action)}`);
  const path = flags.journal ?? (await configJournal(flags.config));
  if (action === 'check') {
    const contents = inspectJournal(path);
    write(flags.json === true, { journal: path, ...summary(contents) }, checkText(path, contents));
    return isSound(contents) ? ExitCode.OK : ExitCode.JOURNAL_DAMAGED;
  }
  if (flags.out === undefined) throw usage(`quanta journal ${action} needs --out FILE`);
  if (action === 'salvage') {
    const contents = salvageJournal(path, flags.out);
    write(
      flags.json === true,
      { journal: path, out: flags.out, ...summary(contents) },
      salvageText(path, flags.out, contents),
    );
    return ExitCode.OK;
  }
  const pages = await backupJournal(path, flags.out);
  write(
    flags.json === true,
    { journal: path, out: flags.out, pages },
    `backed up ${path} to ${flags.out} (${pages} pages, one consistent snapshot)\n`,
  );
  return ExitCode.OK;
}

function usage(message: string): QuantaError {
  // main.ts adds the usage line from the command table.
  return new QuantaError(ErrorCodes.USAGE, message);
}

async function configJournal(configPath: string): Promise<string> {
  const config = await loadConfigFlag(configPath, process.env);
  return journalPathOf(config.state.dir, config.venue);
}

function write(json: boolean, value: object, text: string): void {
  stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : text);
}

function summary(contents: JournalContents) {
  return {
    sound: isSound(contents),
    schemaVersion: contents.schemaVersion,
    orders: contents.orders.length,
    values: contents.kv.length,
    pageProblems: contents.pageProblems,
    rowProblems: contents.rowProblems,
    lostOrderIds: contents.lostOrderIds,
  };
}

function problemLines(contents: JournalContents): string[] {
  const lines = [...contents.pageProblems, ...contents.rowProblems].map((p) => `  ${p}`);
  const lost = contents.lostOrderIds;
  if (lost.length > 0)
    lines.push(
      `  orders not readable or not valid: ${lost.slice(0, LISTED).join(', ')}${lost.length > LISTED ? ` (and ${lost.length - LISTED} more)` : ''}`,
    );
  return lines.length > LISTED
    ? [...lines.slice(0, LISTED), `  (and ${lines.length - LISTED} more lines: --json lists all)`]
    : lines;
}

function checkText(path: string, contents: JournalContents): string {
  const head = `journal ${path}: ${contents.orders.length} valid orders, ${contents.kv.length} stored values, schema version ${contents.schemaVersion ?? 'unreadable'} (this quanta writes ${JOURNAL_SCHEMA_VERSION})`;
  if (isSound(contents))
    return `${head}\nok: SQLite finds every page sound and every row holds values quanta writes\n`;
  return [
    head,
    'DAMAGED:',
    ...problemLines(contents),
    'The bot refuses to trade on it. Restore it from a backup (quanta journal backup makes one), or copy what can be read into a new journal with quanta journal salvage --out NEW_FILE, then check the venue for orders the journal no longer shows.',
    '',
  ].join('\n');
}

function salvageText(from: string, to: string, contents: JournalContents): string {
  const lines = [
    `salvaged ${contents.orders.length} orders and ${contents.kv.length} stored values from ${from} into ${to} (the original is unchanged)`,
  ];
  if (isSound(contents)) lines.push('nothing was lost: the journal was sound');
  else lines.push('lost:', ...problemLines(contents));
  lines.push(
    `To use it: stop the bot, keep the damaged journal aside, move ${to} to the journal's place, and check the venue for the orders listed as lost.`,
    '',
  );
  return lines.join('\n');
}

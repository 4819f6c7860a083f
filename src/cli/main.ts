/**
 * The `quanta` command: a dispatcher. Each subcommand lives in its own file and is loaded only
 * when named, so `quanta paper` does not pay for the runtime and the runtime not for the venue.
 * A subcommand returns its exit code (docs/design.md §5: 0 ok, 1 runtime failure, 2 usage or config error,
 * 3 venue refused credentials, 130 interrupted).
 */
import { readFileSync } from 'node:fs';
import { argv, stderr, stdout } from 'node:process';
import { describeError, exitCodeFor } from './exit-codes.ts';

/** Runs a subcommand with the arguments after its name; resolves to the exit code. */
type CommandRunner = (args: readonly string[]) => Promise<number>;

interface CommandEntry {
  /** One line for the help: the synopsis. */
  readonly synopsis: string;
  readonly summary: string;
  readonly load: () => Promise<CommandRunner>;
}

const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  run: {
    synopsis: 'quanta run [--config FILE]',
    summary: 'run a bot (default config/paper.yaml: embedded paper venue)',
    load: async () => (await import('./run-command.ts')).runRunCommand,
  },
  markets: {
    synopsis: 'quanta markets [--config FILE] [--type PERPETUAL|SPOT] [--json]',
    summary: "list the venue's markets (a table, or the parsed markets as JSON)",
    load: async () => (await import('./markets-command.ts')).runMarketsCommand,
  },
  register: {
    synopsis: 'quanta register [--config FILE]',
    summary:
      'register the subaccount (or reuse valid credentials); prints the key, never the secret',
    load: async () => (await import('./register-command.ts')).runRegisterCommand,
  },
  record: {
    synopsis: 'quanta record --config FILE --out DIR [--duration D] [--gzip]',
    summary: 'record snapshots (D like 90s, 10m, 2h; without it, until interrupted)',
    load: async () => (await import('./record-command.ts')).runRecordCommand,
  },
  backtest: {
    synopsis:
      'quanta backtest --config FILE --data PATH [--report DIR] [--json] [--repair] [--latency-ms N] [--slippage-bps N] [--maker-fee-bps N] [--taker-fee-bps N] [--starting-capital X]',
    summary: "backtest the config's strategies on a recording; summary, JSON and an HTML report",
    load: async () => (await import('./backtest-command.ts')).runBacktestCommand,
  },
  optimize: {
    synopsis:
      'quanta optimize --config FILE --data PATH --space FILE [--out DIR] [--json] [--walk-forward train=D,test=D|folds=N] [--holdout D|P%] [--threads N] [--queue redis://HOST:PORT] [--reports N] [--heatmap A,B]',
    summary:
      'sweep strategy params over a recording on every core (or on quanta worker processes through a queue); ranking, walk-forward, holdout',
    load: async () => (await import('./optimize-command.ts')).runOptimizeCommand,
  },
  worker: {
    synopsis: 'quanta worker --queue redis://HOST:PORT [--threads N] [--lock-ms N]',
    summary: 'run the parameter sets that quanta optimize --queue puts on the queue',
    load: async () => (await import('./worker-command.ts')).runWorkerCommand,
  },
  compare: {
    synopsis:
      'quanta compare --journal STATE_DIR --data PATH [--config FILE] [--report DIR] [--json]',
    summary:
      "pair every order of a live run (its journal) with its backtest on the run's recording; per-order divergence and the PnL gap by cause",
    load: async () => (await import('./compare-command.ts')).runCompareCommand,
  },
  status: {
    synopsis: 'quanta status --config FILE [--json] [--last N]',
    summary:
      "a running or stopped bot's mode, positions, open, unresolved and last orders, read from its journal",
    load: async () => (await import('./status-command.ts')).runStatusCommand,
  },
  init: {
    synopsis: 'quanta init [DIR]',
    summary:
      'scaffold a strategy and a config in DIR (default .) that run at once on the embedded paper venue',
    load: async () => (await import('./init-command.ts')).runInitCommand,
  },
  paper: {
    synopsis: 'quanta paper [--host 127.0.0.1] [--port N] [--seed N] [--rate-limit N]',
    summary: 'serve the paper venue; prints one JSON line with "url" once listening',
    load: async () => (await import('./paper-command.ts')).runPaperCommand,
  },
};

const HELP = `quanta — trading bot framework

Usage:
${Object.values(COMMANDS)
  .map((entry) => `  ${entry.synopsis}\n      ${entry.summary}\n`)
  .join('')}  quanta <command> --help
      show one command's usage
  quanta --version
      print the version

Exit codes: 0 ok, 1 runtime failure, 2 usage or config error, 3 venue refused credentials,
130 interrupted.
`;

/** The package's version, from its package.json (two levels up from src/cli or dist/cli). */
function readVersion(): string {
  const path = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}

async function main(args: readonly string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    stdout.write(HELP);
    return 0;
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    stdout.write(`quanta ${readVersion()}\n`);
    return 0;
  }
  const entry = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (entry === undefined) {
    stderr.write(`quanta: unknown command ${JSON.stringify(command)}\n\n${HELP}`);
    return 2;
  }
  // `paper` prints its own, longer help (every flag with its default).
  if (command !== 'paper' && (rest.includes('--help') || rest.includes('-h'))) {
    stdout.write(`usage: ${entry.synopsis}\n\n${entry.summary}\n`);
    return 0;
  }
  const run = await entry.load();
  return run(rest);
}

try {
  // exitCode, not exit(): pending output is written before the process ends.
  process.exitCode = await main(argv.slice(2));
} catch (error) {
  stderr.write(`quanta: ${describeError(error)}\n`);
  process.exitCode = exitCodeFor(error);
}

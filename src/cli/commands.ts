/**
 * Every `quanta` command in one table: its summary, its paragraph and its flags (placeholder,
 * description, default). `quanta --help`, `quanta NAME --help`, the usage line of every usage
 * error, the flag parser of every command and the README's command reference (checked by
 * test/unit/readme.test.ts) all come from here, so a flag is described once.
 *
 * To add a command `NAME`: add its entry below (the position is its place in `quanta --help`),
 * and write `src/cli/NAME-command.ts` exporting `run(input: CommandInput<typeof COMMANDS.NAME>)`
 * that resolves to the exit code. main.ts loads that module by its name, only when it is run;
 * test/unit/cli/commands.test.ts checks that every entry has its module. Nothing else to edit
 * (paste the new `quanta --help` into the README when the README test says so).
 */
import { DEFAULT_CONFIG_PATH } from '../config/index.ts';
import type { CommandSpec } from './command-spec.ts';
import { SIM_MIX_HELP } from '../simulation/sim-mix.ts';

const config = {
  value: 'FILE',
  help: 'the config file',
  default: DEFAULT_CONFIG_PATH,
} as const;

/** The fill model flags; each replaces the config's `backtest:` value for this run. */
const fillModel = {
  'latency-ms': {
    value: 'N',
    help: 'an order meets the book of the first snapshot at or after send + N ms',
    otherwise: "the config's backtest.latencyMs, else one snapshot later",
  },
  'slippage-bps': {
    value: 'N',
    help: 'extra slippage in basis points: asks met N bps higher, bids N bps lower',
    otherwise: "the config's backtest.slippageBps, else 0",
  },
  'maker-fee-bps': {
    value: 'N',
    help: "maker fee in basis points in place of every market's own",
    otherwise: "the config's backtest.makerFeeBps, else the market's",
  },
  'taker-fee-bps': {
    value: 'N',
    help: "taker fee in basis points in place of every market's own",
    otherwise: "the config's backtest.takerFeeBps, else the market's",
  },
} as const;

export const COMMANDS = {
  run: {
    summary: 'run a bot (default config/paper.yaml: embedded paper venue)',
    about:
      "Runs the config's strategies until SIGINT (exit 130) or SIGTERM (exit 0), draining in-flight\norders first; a second signal exits at once. SIGUSR2 halts entries (POST /resume undoes it).\nOn stop it prints the orders by state, the positions and the PnL since the journal began.\nWith --warmup, the strategies' bars and indicators are pre-loaded from history first, so a\nstrategy that needs 21 bars trades from its first live bar (the history must reach the start).",
    flags: {
      config,
      warmup: {
        value: 'DIR',
        help: "a recording or imported candles to pre-load the strategies' bars from",
        otherwise: 'none, strategies warm up live',
      },
    },
  },
  markets: {
    summary: "list the venue's markets (a table, or the parsed markets as JSON)",
    about:
      "Lists the venue's markets: ids, symbols, minimum amount, steps, fees and margins, in human\ndecimals (or exactly, as JSON).",
    flags: {
      config,
      type: { value: 'PERPETUAL|SPOT', help: 'only markets of this type', otherwise: 'all' },
      json: { help: 'print the parsed markets as JSON (x18 integers as strings)' },
    },
  },
  register: {
    summary:
      'register the subaccount (or reuse valid credentials); prints the key, never the secret',
    about:
      'Registers the subaccount (or reuses valid stored credentials) and prints the service key\nand its expiry. The secret stays in the 0600 credential file of the state dir.',
    flags: { config },
  },
  record: {
    summary: 'record snapshots (D like 90s, 10m, 2h; without it, until interrupted)',
    about:
      'Polls the venue like a bot does (market data only: no credentials, no orders) and writes\nevery snapshot to a recording in --out. Stops after --duration (exit 0), on SIGINT (exit 130)\nor SIGTERM (exit 0), closing the file cleanly.',
    flags: {
      config,
      out: { value: 'DIR', help: 'the folder the recording files go to', required: true },
      duration: {
        value: 'D',
        help: 'how long to record, like 90s, 10m, 2h or 1d',
        otherwise: 'until interrupted',
      },
      gzip: { help: 'write gzip-compressed files (.jsonl.gz)' },
    },
  },
  import: {
    summary:
      'import CSV history (candles, quotes or book snapshots) into data quanta backtest reads',
    about:
      "Reads CSV files (plain or .gz, streamed) of one market's history, checks every row (fields,\ntime order, symbol, the market's price and amount grids) and writes a recording (candles: a\ncandle file) to --out. A bad row stops the import naming file:line, or with --on-bad skip is dropped and counted. Layouts:\ngeneric headers, exchange kline and book-ticker dumps, Tardis quotes and book_snapshot_N.",
    flags: {
      kind: { value: 'candles|quotes|book', help: 'what the files hold', required: true },
      market: {
        value: 'FILE|SYMBOL',
        help: "the market's rules file (YAML/JSON), or a symbol the venue of --config lists",
        required: true,
      },
      in: {
        value: 'PATHS',
        help: 'CSV files (.csv, .csv.gz), comma-separated, or a folder of them, in time order',
        required: true,
      },
      out: { value: 'DIR', help: 'the folder the recording goes to (empty)', required: true },
      columns: {
        value: 'ROLE=NAME,…',
        help: 'header names of columns the layouts do not know, like time=ts,bid=b',
      },
      'on-bad': {
        value: 'fail|skip',
        help: 'a bad row stops the import (fail) or is dropped and counted (skip)',
        default: 'fail',
      },
      config: {
        value: 'FILE',
        help: 'the config whose venue lists --market SYMBOL',
        default: DEFAULT_CONFIG_PATH,
      },
    },
  },
  export: {
    summary:
      "export a recording's snapshots, imported candles, or a backtest report's orders, fills or equity, as CSV or Parquet",
    about:
      "Writes one table for analysis (pandas, Polars, DuckDB): a recording's snapshots (one row per\nmarket per snapshot, best bid and ask), imported candles' bars (quanta import --kind candles),\nor the orders, fills or equity of a backtest report\n(quanta backtest --report DIR). Times are UTC timestamps; prices, sizes and money exact\ndecimals (CSV: decimal text; Parquet: DECIMAL(38,18)), never floats.",
    flags: {
      data: {
        value: 'PATH',
        help: 'a recording (snapshots), imported candles (bars), or a backtest --report folder (orders, fills, equity)',
        required: true,
      },
      what: { value: 'snapshots|bars|orders|fills|equity', help: 'the table', required: true },
      format: { value: 'csv|parquet', help: 'the file format', default: 'csv' },
      out: { value: 'FILE', help: 'the file to write', required: true },
    },
  },
  backtest: {
    summary: "backtest the config's strategies on a recording; summary, JSON and an HTML report",
    about:
      "Replays a recording through the config's strategies, sizing and checks against the\nsimulation, prints a summary (or the JSON report) and writes report.json and report.html with\n--report. A progress bar goes to stderr.",
    flags: {
      config,
      data: {
        value: 'PATH',
        help: 'the recording: a file, or a folder of rotated files',
        required: true,
      },
      report: { value: 'DIR', help: 'write report.json and report.html there' },
      json: { help: 'print the JSON report instead of the summary' },
      repair: {
        help: 'drop (and count) snapshots whose seq or takenAt does not increase instead of failing',
      },
      ...fillModel,
      'starting-capital': {
        value: 'X',
        help: 'equity before the first snapshot, quote units',
        otherwise: "the config's backtest.startingCapital, else 100000",
      },
    },
  },
  optimize: {
    summary:
      'sweep strategy params over a recording on every core (or on quanta worker processes through a queue); ranking, walk-forward, holdout',
    about:
      "Backtests every parameter set of --space (a grid, or random draws) with the config's\nstrategy over a recording, on worker threads or on `quanta worker` processes through a queue.\nPrints a ranking (or the result JSON) and writes results.jsonl, optimize.json, optimize.html\nand the best runs' reports into --out. Started again with the same inputs it resumes.",
    flags: {
      config: { value: 'FILE', help: 'the config file', required: true },
      data: {
        value: 'PATH',
        help: 'the recording: a file, a folder of rotated files, or its URL',
        required: true,
      },
      space: { value: 'FILE', help: 'the params to search (YAML)', required: true },
      out: { value: 'DIR', help: 'where the results go', default: 'optimize' },
      json: { help: 'print only the result JSON (the same bytes for the same inputs)' },
      'walk-forward': {
        value: 'train=D,test=D|folds=N',
        help: 'rank on rolling train windows, score on the test window after each',
      },
      holdout: {
        value: 'D|P%',
        help: 'keep the last D (or P%) of the recording out of the search',
      },
      threads: { value: 'N', help: 'worker threads', otherwise: 'every core' },
      queue: {
        value: 'redis://HOST:PORT',
        help: 'put the sets on this queue for quanta worker processes',
      },
      reports: { value: 'N', help: 'write the HTML report of the best N sets', default: '3' },
      heatmap: { value: 'A,B', help: 'the two params of the heatmap in optimize.html' },
    },
  },
  worker: {
    summary: 'run the parameter sets that quanta optimize --queue puts on the queue',
    about:
      "Takes the parameter sets of `quanta optimize --queue` sweeps from the queue and runs them on\nworker threads until SIGINT or SIGTERM, which let the sets in progress finish. It reads the\nsweep's config, strategies and recording at the same paths (or the recording's URL).",
    flags: {
      queue: { value: 'redis://HOST:PORT', help: 'the queue to take sets from', required: true },
      threads: { value: 'N', help: 'worker threads', otherwise: 'every core' },
      'lock-ms': {
        value: 'N',
        help: 'how long a set stays locked to this worker without a heartbeat',
        default: '30000',
      },
    },
  },
  compare: {
    summary:
      "pair every order of a live run (its journal) with its backtest on the run's recording; per-order divergence and the PnL gap by cause",
    about:
      "Backtests the recording a live run made (record: { dir }) with the same config, each order\narriving after the latency the live run measured for it, pairs every live order of the run's\njournal with its backtest twin, and prints the PnL gap split into slippage, fees, missed and\nextra fills (or the JSON); --report writes compare.json and compare.html.",
    flags: {
      journal: {
        value: 'STATE_DIR',
        help: "the live run's state.dir (or its paper/ folder, or the journal.sqlite)",
        required: true,
      },
      data: { value: 'PATH', help: "the live run's recording", required: true },
      config,
      report: { value: 'DIR', help: 'write compare.json and compare.html there' },
      json: { help: 'print the JSON instead of the summary' },
      ...fillModel,
      'latency-ms': {
        value: 'N',
        help: "one latency for every backtest order instead of the live run's own: the book of the first snapshot at or after send + N ms",
        otherwise: "each order's latency as the live journal measured it",
      },
    },
  },
  status: {
    summary:
      "a running or stopped bot's mode, positions, open, unresolved and last orders, read from its journal, and its signing keys",
    about:
      "Reads a running or stopped bot's journal (read-only, safe beside the bot): trading mode,\npositions, open and unresolved orders, the last orders; and from its credential file the\nsigning keys it keeps, which the venue refused (addresses and times, never a secret).",
    flags: {
      config,
      json: { help: 'print the status as JSON' },
      last: { value: 'N', help: 'how many of the last orders to list', default: '10' },
    },
  },
  journal: {
    summary:
      "check a bot's order journal (exit 4 if damaged), salvage what can be read, or back a live one up",
    about:
      "check: SQLite's integrity check and every row validated; lists what cannot be read and exits 4\nwhen the journal is damaged. salvage: copies every readable, valid row into a new journal\n(--out) and lists what was lost. backup: a consistent online copy (SQLite's backup API), safe\nbeside a running bot. None of them writes the journal.",
    flags: {
      config,
      journal: { value: 'FILE', help: 'the journal file itself', otherwise: "the config's" },
      out: { value: 'FILE', help: 'where salvage or backup writes the new journal' },
      json: { help: 'print the result as JSON' },
    },
    positional: { name: 'ACTION', help: 'check, salvage or backup' },
  },
  params: {
    summary: "change a running bot's strategy params without a restart (validated, audited, kept)",
    about:
      "set STRATEGY KEY=VALUE...: sends the change to the running bot's control server (the\nconfig's control.host and control.port, with the token of control.tokenEnv), which checks it\nwith the strategy's own schema, applies it between two snapshots with the strategy's state\nkept, journals who and when with the old and new params, and keeps it over a restart. A\nchange the schema refuses changes nothing; its message is printed (exit 2). list: the params\nin effect and every change.",
    flags: {
      config,
      json: { help: 'print the answer as JSON' },
    },
    positional: {
      name: 'ACTION',
      help: 'set STRATEGY KEY=VALUE... (a VALUE the schema refuses as text is read as JSON: 30, true), or list',
      many: true,
    },
  },
  init: {
    summary:
      'scaffold a strategy and a config in DIR (default .) that run at once on the embedded paper venue',
    about:
      'Writes quanta.yaml and strategies/my-strategy.ts (and a package.json where there is none)\ninto DIR. They run at once on the embedded paper venue. Never overwrites a file.',
    flags: {},
    positional: { name: 'DIR', help: 'the folder to write into', default: '.' },
  },
  paper: {
    summary: 'serve the paper venue; prints one JSON line with "url" once listening',
    about:
      'Serves the paper venue (write and read API on one port) until SIGINT or SIGTERM.\nOnce listening it prints one JSON line to stdout: {"url":"http://127.0.0.1:PORT",...}',
    flags: {
      host: { value: 'HOST', help: 'address to listen on', default: '127.0.0.1' },
      port: { value: 'N', help: 'port, 0 for any free one', default: '0' },
      seed: {
        value: 'N',
        help: 'seed of the price walks; also makes credentials deterministic',
        otherwise: "the engine's default walk, random credentials",
      },
      'rate-limit': {
        value: 'N',
        help: 'requests per second per client; beyond it 429 with Retry-After',
        otherwise: 'none',
      },
    },
  },
  sim: {
    summary:
      'simulate the whole bot on virtual time under seeded faults and check its invariants (exit 1 on a violation)',
    about:
      'Runs schedules of a whole bot against the in-process paper venue, each named by its seed:\nnetwork faults, a crash and a restart, then healing; the invariants are checked throughout.\n--seed N replays one (its trace hash); --seeds A-B runs a range on every core.',
    flags: {
      seed: { value: 'N', help: 'run (replay) one schedule and print its trace hash' },
      seeds: { value: 'A-B', help: 'run the schedules of seeds A to B on a worker pool' },
      minutes: {
        value: 'N',
        help: 'virtual minutes per schedule (the last fifth without faults)',
        default: '10',
      },
      threads: { value: 'N', help: 'worker threads for --seeds', otherwise: 'one per core' },
      mix: {
        value: 'NAME',
        help: SIM_MIX_HELP,
        default: 'default',
      },
    },
  },
} as const satisfies Readonly<Record<string, CommandSpec>>;

/** A command's name. */
export type CommandName = keyof typeof COMMANDS;

/** Whether `name` is a command of the table. */
export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}

// The command table (src/cli/commands.ts) is where every command's help, usage line and flag
// parser come from: the texts people read are pinned here, so a change to them is a decision.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  helpOf,
  mainHelpOf,
  parseCommandArgs,
  synopsisOf,
  usageErrorText,
} from '../../../src/cli/command-spec.ts';
import { COMMANDS } from '../../../src/cli/commands.ts';
import { ErrorCodes, ExitCode, QuantaError } from '../../../src/errors/index.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';

const usageMessage = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof QuantaError && error.code === ErrorCodes.USAGE) return error.message;
    throw error;
  }
  throw new Error('no usage error');
};

describe('the command table', () => {
  it('has a module exporting run() for every command (the naming rule main.ts loads by)', async () => {
    for (const name of Object.keys(COMMANDS)) {
      const file = join(ROOT, 'src/cli', `${name}-command.ts`);
      expect(existsSync(file), file).toBe(true);
      const module = (await import(file)) as { run?: unknown };
      expect(typeof module.run, name).toBe('function');
    }
  });

  it('quanta --help lists every command with its usage line', () => {
    expect(mainHelpOf(COMMANDS)).toMatchInlineSnapshot(`
      "quanta — trading bot framework

      Usage:
        quanta run [--config FILE] [--warmup DIR]
            run a bot (default config/paper.yaml: embedded paper venue)
        quanta markets [--config FILE] [--type PERPETUAL|SPOT] [--json]
            list the venue's markets (a table, or the parsed markets as JSON)
        quanta register [--config FILE]
            register the subaccount (or reuse valid credentials); prints the key, never the secret
        quanta record --out DIR [--config FILE] [--duration D] [--gzip]
            record snapshots (D like 90s, 10m, 2h; without it, until interrupted)
        quanta import --kind candles|quotes|book --market FILE|SYMBOL --in PATHS --out DIR [--columns ROLE=NAME,…] [--on-bad fail|skip] [--config FILE]
            import CSV history (candles, quotes or book snapshots) into data quanta backtest reads
        quanta export --data PATH --what snapshots|bars|orders|fills|equity --out FILE [--format csv|parquet]
            export a recording's snapshots, imported candles, or a backtest report's orders, fills or equity, as CSV or Parquet
        quanta backtest --data PATH [--config FILE] [--report DIR] [--json] [--repair] [--latency-ms N] [--slippage-bps N] [--maker-fee-bps N] [--taker-fee-bps N] [--starting-capital X]
            backtest the config's strategies on a recording; summary, JSON and an HTML report
        quanta optimize --config FILE --data PATH --space FILE [--out DIR] [--json] [--walk-forward train=D,test=D|folds=N] [--holdout D|P%] [--threads N] [--queue redis://HOST:PORT] [--reports N] [--heatmap A,B]
            sweep strategy params over a recording on every core (or on quanta worker processes through a queue); ranking, walk-forward, holdout
        quanta worker --queue redis://HOST:PORT [--threads N] [--lock-ms N]
            run the parameter sets that quanta optimize --queue puts on the queue
        quanta compare --journal STATE_DIR --data PATH [--config FILE] [--report DIR] [--json] [--latency-ms N] [--slippage-bps N] [--maker-fee-bps N] [--taker-fee-bps N]
            pair every order of a live run (its journal) with its backtest on the run's recording; per-order divergence and the PnL gap by cause
        quanta status [--config FILE] [--json] [--last N]
            a running or stopped bot's mode, positions, open, unresolved and last orders, read from its journal, and its signing keys
        quanta journal [--config FILE] [--journal FILE] [--out FILE] [--json] [ACTION]
            check a bot's order journal (exit 4 if damaged), salvage what can be read, or back a live one up
        quanta params [--config FILE] [--json] [ACTION...]
            change a running bot's strategy params without a restart (validated, audited, kept)
        quanta init [DIR]
            scaffold a strategy and a config in DIR (default .) that run at once on the embedded paper venue
        quanta paper [--host HOST] [--port N] [--seed N] [--rate-limit N]
            serve the paper venue; prints one JSON line with "url" once listening
        quanta sim [--seed N] [--seeds A-B] [--minutes N] [--threads N] [--mix NAME]
            simulate the whole bot on virtual time under seeded faults and check its invariants (exit 1 on a violation)
        quanta <command> --help
            show one command's flags, each with its default
        quanta --version
            print the version

      Exit codes: 0 ok, 1 runtime failure, 2 usage or config error, 3 venue refused credentials,
      4 order journal damaged, 130 interrupted.
      "
    `);
  });

  it('quanta --help names every exit code the process can end with', () => {
    const listed = (mainHelpOf(COMMANDS).split('Exit codes:')[1] ?? '').replace(/\s+/g, ' ').trim();
    const codes = [...listed.matchAll(/(?:^|, )(\d+) [a-z]/g)].map((match) => Number(match[1]));
    expect(codes).toEqual(Object.values(ExitCode));
  });

  it('quanta compare --help lists its fill model flags, each with its default', () => {
    expect(helpOf('compare', COMMANDS.compare)).toMatchInlineSnapshot(`
      "Usage: quanta compare --journal STATE_DIR --data PATH [--config FILE] [--report DIR] [--json] [--latency-ms N] [--slippage-bps N] [--maker-fee-bps N] [--taker-fee-bps N]

      Backtests the recording a live run made (record: { dir }) with the same config, each order
      arriving after the latency the live run measured for it, pairs every live order of the run's
      journal with its backtest twin, and prints the PnL gap split into slippage, fees, missed and
      extra fills (or the JSON); --report writes compare.json and compare.html.

      Options:
        --journal STATE_DIR  the live run's state.dir (or its paper/ folder, or the journal.sqlite) (required)
        --data PATH          the live run's recording (required)
        --config FILE        the config file (default config/paper.yaml)
        --report DIR         write compare.json and compare.html there
        --json               print the JSON instead of the summary
        --latency-ms N       one latency for every backtest order instead of the live run's own: the book of the first snapshot at or after send + N ms (default: each order's latency as the live journal measured it)
        --slippage-bps N     extra slippage in basis points: asks met N bps higher, bids N bps lower (default: the config's backtest.slippageBps, else 0)
        --maker-fee-bps N    maker fee in basis points in place of every market's own (default: the config's backtest.makerFeeBps, else the market's)
        --taker-fee-bps N    taker fee in basis points in place of every market's own (default: the config's backtest.takerFeeBps, else the market's)
        -h, --help           show this help
      "
    `);
  });

  it('quanta init --help describes its positional argument', () => {
    expect(helpOf('init', COMMANDS.init)).toMatchInlineSnapshot(`
      "Usage: quanta init [DIR]

      Writes quanta.yaml and strategies/my-strategy.ts (and a package.json where there is none)
      into DIR. They run at once on the embedded paper venue. Never overwrites a file.

      Options:
        DIR         the folder to write into (default .)
        -h, --help  show this help
      "
    `);
  });
});

describe('parseCommandArgs', () => {
  it('applies defaults, reads switches as booleans and values as strings', () => {
    expect(parseCommandArgs(COMMANDS.status, ['--json'])).toEqual({
      flags: { config: 'config/paper.yaml', json: true, last: '10' },
      positional: undefined,
    });
    expect(
      parseCommandArgs(COMMANDS.compare, ['--journal', 's', '--data', 'd', '--latency-ms', '5'])
        .flags,
    ).toMatchObject({ journal: 's', data: 'd', 'latency-ms': '5', json: false });
    expect(parseCommandArgs(COMMANDS.init, []).positional).toBe('.');
    expect(parseCommandArgs(COMMANDS.init, ['bot']).positional).toBe('bot');
    // A positional that takes many: the first, then the rest.
    expect(parseCommandArgs(COMMANDS.params, ['set', 'dca', 'a=1', 'b=2'])).toMatchObject({
      positional: 'set',
      rest: ['dca', 'a=1', 'b=2'],
    });
    expect(() => parseCommandArgs(COMMANDS.init, ['a', 'b'])).toThrow(/at most one DIR/);
  });

  it('refuses what the table does not allow, saying what is wrong', () => {
    expect(usageMessage(() => parseCommandArgs(COMMANDS.backtest, []))).toMatchInlineSnapshot(
      `"--data PATH is required (the recording: a file, or a folder of rotated files)"`,
    );
    expect(usageMessage(() => parseCommandArgs(COMMANDS.run, ['--bogus']))).toMatchInlineSnapshot(
      `"Unknown option '--bogus'"`,
    );
    expect(usageMessage(() => parseCommandArgs(COMMANDS.run, ['extra']))).toMatch(
      /Unexpected argument 'extra'/,
    );
    expect(usageMessage(() => parseCommandArgs(COMMANDS.init, ['a', 'b']))).toBe(
      'takes at most one DIR, got 2',
    );
  });

  it("a usage error prints the command's own usage line", () => {
    const error = new QuantaError(ErrorCodes.USAGE, 'backtest latencyMs: expected an integer');
    expect(usageErrorText('compare', COMMANDS.compare, error)).toMatchInlineSnapshot(`
      "quanta compare: backtest latencyMs: expected an integer
      usage: quanta compare --journal STATE_DIR --data PATH [--config FILE] [--report DIR] [--json] [--latency-ms N] [--slippage-bps N] [--maker-fee-bps N] [--taker-fee-bps N]
      (quanta compare --help describes every flag)
      "
    `);
    expect(synopsisOf('compare', COMMANDS.compare)).not.toBe(
      synopsisOf('backtest', COMMANDS.backtest),
    );
  });
});

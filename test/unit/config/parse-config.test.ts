import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/index.ts';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';

const BASE = '/srv/bot/config';
const MINIMAL = `venue:
  writeUrl: embedded
  readUrl: embedded
strategies:
  - module: /srv/bot/strategies/dca.ts
    markets: [ETH-USD]
`;
const KEY = `0x${'ab12'.repeat(16)}`;

function parse(text: string, env: NodeJS.ProcessEnv = {}) {
  return parseConfig(text, 'bot.yaml', BASE, { env });
}

/** The QuantaError `parse` throws; fails the test when it does not throw one. */
function configError(text: string): QuantaError {
  try {
    parse(text);
  } catch (error) {
    expect(error).toBeInstanceOf(QuantaError);
    expect((error as QuantaError).code).toBe(ErrorCodes.CONFIG_INVALID);
    return error as QuantaError;
  }
  throw new Error('expected parseConfig to throw');
}

describe('parseConfig: valid files', () => {
  it('fills in every default and resolves state.dir against the config directory', () => {
    const { source, ...config } = parse(MINIMAL);
    expect(source?.file).toBe('bot.yaml');
    expect(config).toEqual({
      venue: {
        writeUrl: 'embedded',
        readUrl: 'embedded',
        brokerId: 1,
        subaccount: 1,
        chainId: 42161,
        timeoutMs: 5000,
        headerPrefix: 'Service-',
        signing: {
          name: 'TradingService',
          version: '1',
          registerVerifyingContract: '0x0000000000000000000000000000000000000001',
          orderVerifyingContract: '0x0000000000000000000000000000000000000002',
          orderChainId: 1,
        },
        renewMarginMs: 86_400_000,
        credentialTtlMs: 604_800_000,
      },
      wallet: { privateKeyEnv: 'QUANTA_WALLET_KEY' },
      state: { dir: '/srv/bot/config/.quanta' },
      poll: {
        intervalMs: 1000,
        quotes: true,
        quoteMarkets: 'all',
        staleAfterMs: 3000,
        maxBackoffMs: 30_000,
      },
      execution: {
        rateLimit: { requests: 10, perMs: 1000 },
        rateBudget: 'local',
        countPolls: true,
        leaseMarginMs: 1000,
        concurrency: 2,
        orderTtlMs: 60_000,
        maxAttempts: 5,
        drainTimeoutMs: 10_000,
      },
      risk: { maxOrderNotional: '5000', maxPositionNotional: '20000' },
      paper: { seed: 1, balance: '100000', listings: [] },
      log: { level: 'info', format: 'auto' },
      backtest: { slippageBps: 0, startingCapital: '100000' },
      notify: [],
      strategies: [
        {
          module: '/srv/bot/strategies/dca.ts',
          markets: ['ETH-USD'],
          params: {},
          timeoutMs: 500,
          searched: ['/srv/bot/strategies/dca.ts'],
        },
      ],
    });
  });

  it('derives staleAfterMs from intervalMs unless given, keeps decimals as written', () => {
    const config = parse(
      `${MINIMAL}poll: { intervalMs: 250 }\nrisk: { maxOrderNotional: "0.5", dailyLossLimit: "100.25" }\n`,
    );
    expect(config.poll.staleAfterMs).toBe(750);
    expect(config.risk).toEqual({
      maxOrderNotional: '0.5',
      maxPositionNotional: '20000',
      dailyLossLimit: '100.25',
    });
    expect(
      parse(`${MINIMAL}poll: { intervalMs: 250, staleAfterMs: 400 }\n`).poll.staleAfterMs,
    ).toBe(400);
  });

  it('strategies[].timeoutMs: half of poll.intervalMs unless given, a positive integer', () => {
    expect(parse(`${MINIMAL}poll: { intervalMs: 250 }\n`).strategies[0]?.timeoutMs).toBe(125);
    expect(parse(`${MINIMAL}    timeoutMs: 3000\n`).strategies[0]?.timeoutMs).toBe(3000);
    expect(configError(`${MINIMAL}    timeoutMs: 0\n`).message).toMatchInlineSnapshot(`
      "invalid config bot.yaml (1 problem):
      bot.yaml:7:16 strategies[0].timeoutMs: expected a positive integer (milliseconds), got 0"
    `);
  });

  it('strategies[].isolate: worker takes a heap limit (default 256 MB); without it, a heap limit is an error', () => {
    expect(parse(MINIMAL).strategies[0]).not.toHaveProperty('heapLimitMb');
    expect(parse(`${MINIMAL}    isolate: worker\n`).strategies[0]).toMatchObject({
      isolate: 'worker',
      heapLimitMb: 256,
    });
    expect(
      parse(`${MINIMAL}    isolate: worker\n    heapLimitMb: 64\n`).strategies[0]?.heapLimitMb,
    ).toBe(64);
    expect(configError(`${MINIMAL}    heapLimitMb: 64\n`).message).toMatchInlineSnapshot(`
      "invalid config bot.yaml (1 problem):
      bot.yaml:7:18 strategies[0].heapLimitMb: applies only with isolate: worker, got 64"
    `);
    expect(configError(`${MINIMAL}    isolate: thread\n`).message).toMatchInlineSnapshot(`
      "invalid config bot.yaml (1 problem):
      bot.yaml:7:14 strategies[0].isolate: expected one of none, worker, got "thread""
    `);
    expect(configError(`${MINIMAL}    isolate: worker\n    heapLimitMb: 8\n`).message)
      .toMatchInlineSnapshot(`
      "invalid config bot.yaml (1 problem):
      bot.yaml:8:18 strategies[0].heapLimitMb: expected an integer number of MB from 16 to 65536, got 8"
    `);
  });

  it('refuses plain http for the write API except on loopback', () => {
    const withWrite = (url: string) =>
      MINIMAL.replace('writeUrl: embedded', `writeUrl: ${url}`).replace(
        'readUrl: embedded',
        'readUrl: https://read.example.com',
      );
    expect(parse(withWrite('http://127.0.0.1:8080')).venue.writeUrl).toBe('http://127.0.0.1:8080');
    expect(parse(withWrite('http://localhost:8080/')).venue.writeUrl).toBe('http://localhost:8080');
    expect(() => parse(withWrite('http://venue.example.com'))).toThrowErrorMatchingInlineSnapshot(`
      [QuantaError: invalid config bot.yaml (1 problem):
      bot.yaml:2:13 venue.writeUrl: expected https (plain http only to localhost: credentials travel on it), got "http://venue.example.com"]
    `);
    expect(
      parse(
        withWrite('https://venue.example.com').replace(
          'readUrl: https://read.example.com',
          'readUrl: http://venue.example.com',
        ),
      ).venue.readUrl,
    ).toBe('http://venue.example.com');
  });

  it('drops trailing slashes from venue URLs', () => {
    const config = parse(
      MINIMAL.replace('readUrl: embedded', 'readUrl: https://read.example.com/prefix/').replace(
        'writeUrl: embedded',
        'writeUrl: https://write.example.com',
      ),
    );
    expect(config.venue.readUrl).toBe('https://read.example.com/prefix');
  });

  it('expands a leading ~ in paths from env.HOME and rejects it without HOME', () => {
    const text = `${MINIMAL}state: { dir: ~/quanta-state }\n`;
    expect(parse(text, { HOME: '/home/q' }).state.dir).toBe('/home/q/quanta-state');
    expect(() => parse(text, {})).toThrowErrorMatchingInlineSnapshot(`
      [QuantaError: invalid config bot.yaml (1 problem):
      bot.yaml:7:15 state.dir: expected HOME in the environment to expand "~", got "~/quanta-state"]
    `);
  });
});

describe('parseConfig: strategy module paths', () => {
  const root = mkdtempSync(join(tmpdir(), 'quanta-config-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  writeFileSync(join(root, 'package.json'), '{}');
  mkdirSync(join(root, 'config', 'local'), { recursive: true });
  mkdirSync(join(root, 'strategies'));
  writeFileSync(join(root, 'strategies', 'dca.ts'), '');
  writeFileSync(join(root, 'config', 'local', 'mine.ts'), '');
  const configDir = join(root, 'config');

  const cwd = join(root, 'elsewhere');
  mkdirSync(join(cwd, 'mine'), { recursive: true });
  writeFileSync(join(cwd, 'mine', 'only-here.ts'), '');
  const entryFor = (module: string) =>
    parseConfig(MINIMAL.replace('/srv/bot/strategies/dca.ts', module), 'bot.yaml', configDir, {
      cwd,
    }).strategies[0];
  const moduleFor = (module: string) => entryFor(module)?.module;

  it('finds a bare path in the config directory, then the working directory, then the project root', () => {
    expect(moduleFor('local/mine.ts')).toBe(join(configDir, 'local', 'mine.ts'));
    expect(moduleFor('mine/only-here.ts')).toBe(join(cwd, 'mine', 'only-here.ts'));
    expect(moduleFor('strategies/dca.ts')).toBe(join(root, 'strategies', 'dca.ts'));
  });

  it('takes ./ paths from the config directory only, and keeps every place it looked', () => {
    expect(moduleFor('./strategies/dca.ts')).toBe(join(configDir, 'strategies', 'dca.ts'));
    expect(entryFor('strategies/none.ts')?.searched).toEqual([
      join(configDir, 'strategies', 'none.ts'),
      join(cwd, 'strategies', 'none.ts'),
      join(root, 'strategies', 'none.ts'),
    ]);
  });
});

describe('parseConfig: errors name the key path and line:col', () => {
  it('negative rateLimit.requests', () => {
    expect(configError(`${MINIMAL}execution:\n  rateLimit:\n    requests: -1\n`).message)
      .toMatchInlineSnapshot(`
      "invalid config bot.yaml (1 problem):
      bot.yaml:9:15 execution.rateLimit.requests: expected a positive integer, got -1"
    `);
  });

  it('execution.rateBudget: local or a redis URL, and a Redis budget needs expectedProcesses', () => {
    expect(configError(`${MINIMAL}execution:\n  rateBudget: http://x:6379\n`).message)
      .toMatchInlineSnapshot(`
        "invalid config bot.yaml (1 problem):
        bot.yaml:8:15 execution.rateBudget: expected local or a redis://HOST:PORT URL, got "http://x:6379""
      `);
    expect(configError(`${MINIMAL}execution:\n  rateBudget: redis://127.0.0.1:6379/0\n`).message)
      .toMatchInlineSnapshot(`
        "invalid config bot.yaml (1 problem):
        bot.yaml:8:3 execution.expectedProcesses: expected the number of processes sharing the Redis rate budget (each keeps to rateLimit.requests / expectedProcesses while Redis is unreachable), got undefined"
      `);
  });

  it('unknown key at a nested level points at the key and lists the allowed ones', () => {
    const text = `${MINIMAL}venue2: {}\nexecution:\n  rateLimit:\n    requests: 5\n    burst: 3\n`;
    expect(configError(text).message).toMatchInlineSnapshot(`
      "invalid config bot.yaml (2 problems):
      bot.yaml:7:1 venue2: unknown key "venue2" (allowed: venue, wallet, state, poll, execution, risk, paper, log, backtest, record, control, notify, strategies)
      bot.yaml:11:5 execution.rateLimit.burst: unknown key "burst" (allowed: requests, perMs)"
    `);
  });

  it('wrong types, each on its own line in file order', () => {
    const text = `venue:
  writeUrl: ftp://example.com
  readUrl: embedded
  timeoutMs: soon
  signing: { version: 1 }
poll: { quotes: "yes", intervalMs: 10, quoteMarkets: held }
log: { level: verbose }
strategies:
  - module: strategies/dca.ts
    markets: ETH-USD
    params: [1]
`;
    expect(configError(text).message).toMatchInlineSnapshot(`
      "invalid config bot.yaml (9 problems):
      bot.yaml:2:13 venue.writeUrl: expected "embedded" or an http(s) URL, got "ftp://example.com"
      bot.yaml:4:14 venue.timeoutMs: expected a positive integer (milliseconds), got "soon"
      bot.yaml:5:23 venue.signing.version: expected a non-empty string (quote numbers: "1"), got 1
      bot.yaml:6:17 poll.quotes: expected true or false, got "yes"
      bot.yaml:6:36 poll.intervalMs: expected an integer ≥ 50 (milliseconds), got 10
      bot.yaml:6:54 poll.quoteMarkets: expected one of all, traded, got "held"
      bot.yaml:7:15 log.level: expected one of fatal, error, warn, info, debug, trace, silent, got "verbose"
      bot.yaml:10:14 strategies[0].markets: expected a non-empty list of market symbols like [ETH-USD], got "ETH-USD"
      bot.yaml:11:13 strategies[0].params: expected a mapping of strategy parameters, got a list of 1"
    `);
  });

  it('missing keys point at the mapping that lacks them', () => {
    const text = `# comment\nlog: { level: info }\nvenue:\n  readUrl: embedded\nstrategies:\n  - markets: [ETH-USD]\n`;
    expect(configError(text).message).toMatchInlineSnapshot(`
      "invalid config bot.yaml (2 problems):
      bot.yaml:4:3 venue.writeUrl: is required
      bot.yaml:6:5 strategies[0].module: is required"
    `);
    expect(configError('log: { level: info }\n').message).toMatchInlineSnapshot(`
      "invalid config bot.yaml (1 problem):
      bot.yaml:1:1 venue: is required"
    `);
  });

  it('bad decimals: exponent, too many digits, zero, unquoted number', () => {
    const text = `${MINIMAL}risk:
  maxOrderNotional: "1e3"
  maxPositionNotional: "0.1234567890123456789"
  dailyLossLimit: "0"
paper: { seed: -1 }
`;
    expect(configError(text).message).toMatchInlineSnapshot(`
      "invalid config bot.yaml (4 problems):
      bot.yaml:8:21 risk.maxOrderNotional: expected a plain decimal like "5000" or "0.25" (digits, optional fraction of at most 18 digits, no sign or exponent), got "1e3"
      bot.yaml:9:24 risk.maxPositionNotional: expected a plain decimal like "5000" or "0.25" (digits, optional fraction of at most 18 digits, no sign or exponent), got "0.1234567890123456789"
      bot.yaml:10:19 risk.dailyLossLimit: expected a decimal string greater than 0 in quotes, like "5000" or "0.25", got "0"
      bot.yaml:11:16 paper.seed: expected a non-negative integer, got -1"
    `);
    expect(configError(`${MINIMAL}risk: { maxOrderNotional: 5000 }\n`).message)
      .toMatchInlineSnapshot(`
        "invalid config bot.yaml (1 problem):
        bot.yaml:7:27 risk.maxOrderNotional: expected a decimal string greater than 0 in quotes, like "5000" or "0.25", got 5000"
      `);
  });

  it('cross-field rules', () => {
    const text = `${MINIMAL}poll: { intervalMs: 1000, staleAfterMs: 500 }\nvenue2: 1\n`.replace(
      'readUrl: embedded',
      'readUrl: embedded\n  renewMarginMs: 604800000',
    );
    expect(configError(text).message).toMatchInlineSnapshot(`
      "invalid config bot.yaml (3 problems):
      bot.yaml:4:18 venue.renewMarginMs: expected less than venue.credentialTtlMs (604800000), got 604800000
      bot.yaml:8:41 poll.staleAfterMs: expected at least poll.intervalMs (1000), got 500
      bot.yaml:9:1 venue2: unknown key "venue2" (allowed: venue, wallet, state, poll, execution, risk, paper, log, backtest, record, control, notify, strategies)"
    `);
  });

  it('YAML syntax errors carry line:col', () => {
    const error = configError(
      `venue:\n  writeUrl: embedded\n  writeUrl: embedded\nstrategies: [\n`,
    );
    expect(error.message).toMatchInlineSnapshot(`
      "invalid config bot.yaml (2 problems):
      bot.yaml:3:3 venue.writeUrl: duplicate key "writeUrl": each key may appear once in a mapping
      bot.yaml:5:1 YAML syntax: Flow sequence in block collection must be sufficiently indented and end with a ]"
    `);
  });

  it('an empty file', () => {
    expect(configError('# nothing\n').message).toMatchInlineSnapshot(`
      "invalid config bot.yaml (1 problem):
      bot.yaml:1:1 (top level): the file is empty; expected a mapping with at least venue and strategies"
    `);
  });
});

describe('parseConfig: secrets are never echoed', () => {
  const cases = {
    'quoted 0x key': `"${KEY}"`,
    'unquoted 0x key (YAML reads a number)': KEY,
    'key without 0x': KEY.slice(2),
  };
  it.each(Object.entries(cases))('a %s in privateKeyEnv is refused', (_, written) => {
    const error = configError(`${MINIMAL}wallet:\n  privateKeyEnv: ${written}\n`);
    expect(error.message).not.toContain(KEY.slice(2, 20));
    expect(error.message).toContain(
      'bot.yaml:8:18 wallet.privateKeyEnv: looks like a private key pasted into the config (value not shown); ' +
        'a key must go into an environment variable',
    );
    expect(error.details).toHaveLength(1);
  });

  it('a key under another wallet key is flagged as a key and as unknown', () => {
    const message = configError(`${MINIMAL}wallet:\n  privateKey: ${KEY}\n`).message;
    expect(message).not.toContain(KEY.slice(2, 20));
    expect(message).toMatchInlineSnapshot(`
      "invalid config bot.yaml (2 problems):
      bot.yaml:8:3 wallet.privateKey: unknown key "privateKey" (allowed: privateKeyEnv)
      bot.yaml:8:15 wallet.privateKey: looks like a private key pasted into the config (value not shown); a key must go into an environment variable, and wallet.privateKeyEnv holds that variable’s NAME (default QUANTA_WALLET_KEY)"
    `);
  });

  it('other bad wallet values are described, not shown', () => {
    const message = configError(`${MINIMAL}wallet:\n  privateKeyEnv: my-secret-word\n`).message;
    expect(message).not.toContain('my-secret-word');
    expect(message).toMatchInlineSnapshot(`
      "invalid config bot.yaml (1 problem):
      bot.yaml:8:18 wallet.privateKeyEnv: expected the NAME of an environment variable, like QUANTA_WALLET_KEY (A-Z, 0-9, _), got a string (value not shown)"
    `);
  });

  it('keys and URL credentials written elsewhere are not shown either', () => {
    const text = MINIMAL.replace('writeUrl: embedded', `writeUrl: "${KEY}"`).replace(
      'readUrl: embedded',
      'readUrl: https://user:hunter2@example.com',
    );
    const message = configError(text).message;
    expect(message).not.toContain(KEY.slice(2, 20));
    expect(message).not.toContain('hunter2');
    expect(message).toMatchInlineSnapshot(`
      "invalid config bot.yaml (2 problems):
      bot.yaml:2:13 venue.writeUrl: looks like a private key pasted into the config (value not shown); secrets go into environment variables, never into the config: the wallet key’s variable is named by wallet.privateKeyEnv, a webhook URL’s by notify[].urlEnv, the control token’s by control.tokenEnv
      bot.yaml:3:12 venue.readUrl: expected an http(s) URL without user:password (credentials never go here), got a URL with credentials (not shown)"
    `);
  });

  it('a YAML syntax error on a line holding a key does not quote the line', () => {
    const message = configError(`${MINIMAL}wallet:\n  privateKeyEnv: [${KEY}\n`).message;
    expect(message).not.toContain(KEY.slice(2, 20));
  });
});

describe('parseConfig: paper listings', () => {
  it('accepts new listings of the embedded venue and rejects a bad entry with its line', () => {
    const base =
      'venue: { writeUrl: embedded, readUrl: embedded }\nstrategies:\n  - { module: strategies/dca.ts, markets: [ETH-USD] }\n';
    const ok = parseConfig(
      `${base}paper:\n  listings:\n    - { market: TSLA-USD, activeAfterMs: 5000 }\n`,
      'p.yaml',
      '/tmp',
    );
    expect(ok.paper.listings).toEqual([{ market: 'TSLA-USD', activeAfterMs: 5000 }]);
    expect(() =>
      parseConfig(
        `${base}paper:\n  listings:\n    - { market: TSLA-USD, after: 5 }\n`,
        'p.yaml',
        '/tmp',
      ),
    ).toThrow(/p\.yaml:6:27 paper\.listings\[0\]\.after: unknown key "after"/);
  });
});

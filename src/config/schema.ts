import { z } from 'zod';
import {
  address,
  bool,
  durationMs,
  envVarName,
  integer,
  mapping,
  marketSymbol,
  nonNegativeNumber,
  oneOf,
  positiveDecimal,
  positiveInt,
  text,
  venueUrl,
} from './fields.ts';
import { type StrategyConfig, strategySchema, withStrategyDefaults } from './strategy-schema.ts';

const MAX_48_BITS = 2 ** 48 - 1;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
// docs/conventions.md §3: a registration's expiryTs lies in (now, now + 7 days].
const MAX_CREDENTIAL_TTL_MS = 7 * DAY_MS;
// docs/conventions.md §4.4: expiryTs more than 30 days ahead is refused.
const MAX_ORDER_TTL_MS = 30 * DAY_MS;

/** pino's level names, most to least severe, plus `silent`. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const signingSchema = mapping({
  name: text().default('TradingService'),
  version: text('expected a non-empty string (quote numbers: "1")').default('1'),
  registerVerifyingContract: address().default('0x0000000000000000000000000000000000000001'),
  orderVerifyingContract: address().default('0x0000000000000000000000000000000000000002'),
  orderChainId: positiveInt().default(1),
});

const venueSchema = mapping({
  writeUrl: venueUrl(true),
  readUrl: venueUrl(),
  brokerId: integer('expected an integer from 0 to 2^48-1', 0, MAX_48_BITS).default(1),
  subaccount: integer('expected an integer from 1 to 2^48-1', 1, MAX_48_BITS).default(1),
  chainId: positiveInt().default(42161),
  timeoutMs: durationMs().default(5000),
  headerPrefix: text('expected an HTTP header name prefix like "Service-" (letters, digits, -)')
    .regex(/^[A-Za-z0-9-]+$/, {
      error: 'expected an HTTP header name prefix like "Service-" (letters, digits, -)',
    })
    .default('Service-'),
  signing: signingSchema.prefault({}),
  renewMarginMs: durationMs().default(DAY_MS),
  credentialTtlMs: durationMs(1, MAX_CREDENTIAL_TTL_MS).default(MAX_CREDENTIAL_TTL_MS),
}).superRefine((venue, ctx) => {
  if (venue.renewMarginMs >= venue.credentialTtlMs) {
    ctx.addIssue({
      code: 'custom',
      path: ['renewMarginMs'],
      message: `expected less than venue.credentialTtlMs (${venue.credentialTtlMs})`,
    });
  }
});

const walletSchema = mapping({
  privateKeyEnv: envVarName(
    'expected the NAME of an environment variable, like QUANTA_WALLET_KEY',
  ).default('QUANTA_WALLET_KEY'),
});

const stateSchema = mapping({
  dir: text('expected a directory path').default('.quanta'),
});

/**
 * `poll.quoteMarkets`: `all` asks every market's quotes; `traded` asks only the market the bot
 * trades when that is one market (the strategies' markets and those it holds or has orders in;
 * runtime/quote-scope.ts), every market's otherwise.
 */
export const QUOTE_MARKETS = ['all', 'traded'] as const;

const pollSchema = mapping({
  intervalMs: durationMs(50).default(1000),
  quotes: bool().default(true),
  quoteMarkets: oneOf(QUOTE_MARKETS).default('all'),
  staleAfterMs: durationMs().optional(),
  maxBackoffMs: durationMs().default(30_000),
})
  .superRefine((poll, ctx) => {
    for (const key of ['staleAfterMs', 'maxBackoffMs'] as const) {
      const value = poll[key];
      if (value !== undefined && value < poll.intervalMs) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `expected at least poll.intervalMs (${poll.intervalMs})`,
        });
      }
    }
  })
  .transform(({ staleAfterMs, ...poll }) => ({
    ...poll,
    staleAfterMs: staleAfterMs ?? 3 * poll.intervalMs,
  }));

/**
 * `execution.rateBudget`: `local` (this process alone) or a `redis://` / `rediss://` URL whose
 * Redis keeps one budget for every process trading with the same venue and wallet (issue 15).
 */
const rateBudgetField = z
  .string({ error: 'expected local or a redis://HOST:PORT URL' })
  .refine(
    (value) =>
      value === 'local' ||
      (URL.canParse(value) && ['redis:', 'rediss:'].includes(new URL(value).protocol)),
    { error: 'expected local or a redis://HOST:PORT URL' },
  );

const executionSchema = mapping({
  rateLimit: mapping({
    requests: positiveInt().default(10),
    perMs: positiveInt().default(1000),
  }).prefault({}),
  rateBudget: rateBudgetField.default('local'),
  /** Polls (markets, quotes) take permits of the budget too; false: only orders and lookups. */
  countPolls: bool().default(true),
  /** Processes sharing a Redis budget: each keeps to requests / this while Redis is unreachable. */
  expectedProcesses: positiveInt().optional(),
  /** A killed process's in-flight slots return within perMs + this (Redis budget). */
  leaseMarginMs: durationMs().default(1000),
  concurrency: positiveInt().default(2),
  orderTtlMs: durationMs(1, MAX_ORDER_TTL_MS).default(60_000),
  maxAttempts: positiveInt().default(5),
  drainTimeoutMs: durationMs().default(10_000),
}).superRefine((execution, ctx) => {
  if (/^rediss?:/.test(execution.rateBudget) && execution.expectedProcesses === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['expectedProcesses'],
      message:
        'expected the number of processes sharing the Redis rate budget (each keeps to rateLimit.requests / expectedProcesses while Redis is unreachable)',
    });
  }
});

const riskSchema = mapping({
  maxOrderNotional: positiveDecimal().default('5000'),
  maxPositionNotional: positiveDecimal().default('20000'),
  dailyLossLimit: positiveDecimal().optional(),
  // The account's value before this journal's first order: the base of ctx.equity() and of
  // risk sizing (the venue reports no balance).
  capital: positiveDecimal().optional(),
  // Per market symbol, a leverage cap stricter than the listing's initial margin (docs/margin.md):
  // an opening order needs |notional| / maxLeverage of free margin.
  maxLeverage: z
    .record(marketSymbol(), positiveDecimal(), {
      error: 'expected a mapping of market symbol to leverage, like { ETH-USD: "3" }',
    })
    .optional(),
  killSwitchFile: text('expected a file path').optional(),
});

const paperSchema = mapping({
  seed: integer('expected a non-negative integer', 0).default(1),
  rateLimit: positiveInt().optional(),
  volatilityBps: nonNegativeNumber().optional(),
  spreadBps: nonNegativeNumber().optional(),
  // Starting cash of each subaccount of the embedded venue, quote units (docs/margin.md).
  balance: positiveDecimal().default('100000'),
  // Markets of the embedded venue that start inactive and turn active later (new listings).
  listings: z
    .array(
      mapping({
        market: marketSymbol(),
        activeAfterMs: durationMs(0),
      }),
      { error: 'expected a list of { market, activeAfterMs }' },
    )
    .default([]),
});

/**
 * How `quanta backtest` fills orders (the fill model, printed in every report). `latencyMs`: an
 * order meets the book of the first snapshot at or after send time + latency; absent, one
 * snapshot later (never the snapshot that produced it unless `latencyMs: 0` is written).
 * `slippageBps` worsens every price the orders meet; `makerFeeBps`/`takerFeeBps` replace the
 * markets' fees; `startingCapital` is the equity before the first snapshot.
 */
const backtestSchema = mapping({
  latencyMs: durationMs(0).optional(),
  slippageBps: nonNegativeNumber().default(0),
  makerFeeBps: nonNegativeNumber().optional(),
  takerFeeBps: nonNegativeNumber().optional(),
  startingCapital: positiveDecimal().default('100000'),
});

/**
 * The control server (health, readiness, metrics, status, trading modes): off unless this
 * section is written. Bound to loopback by default; any other address needs a bearer token read
 * from the environment variable named by `tokenEnv` (the bot refuses to start without it).
 */
const controlSchema = mapping({
  host: text('expected a host name or IP address to listen on, like 127.0.0.1').default(
    '127.0.0.1',
  ),
  port: integer('expected a port from 0 to 65535 (0: any free port)', 0, 65535).default(9464),
  tokenEnv: envVarName(
    'expected the NAME of an environment variable, like QUANTA_CONTROL_TOKEN',
  ).optional(),
  /**
   * NAME of the variable holding a second, read-only token: it may watch (the page, every GET)
   * but not act (every POST answers 403). Needs `tokenEnv`.
   */
  readTokenEnv: envVarName(
    'expected the NAME of an environment variable, like QUANTA_WATCH_TOKEN',
  ).optional(),
  /** How many of the latest orders `GET /status` lists. */
  lastOrders: integer('expected an integer from 1 to 1000', 1, 1000).default(20),
});

/** Body formats of alert webhooks: generic JSON, Telegram's sendMessage, Slack's incoming webhook. */
export const NOTIFY_FORMATS = ['json', 'telegram', 'slack'] as const;

/**
 * One alert webhook. The URL is written (`url`) or, when it carries a secret (Slack and
 * Telegram URLs do), read from the environment variable named by `urlEnv`.
 */
const notifyTargetSchema = mapping({
  url: z
    .string({ error: 'expected an http(s) URL' })
    .refine(
      (value) => URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol),
      { error: 'expected an http(s) URL' },
    )
    .optional(),
  urlEnv: envVarName(
    'expected the NAME of an environment variable holding the webhook URL',
  ).optional(),
  format: oneOf(NOTIFY_FORMATS).default('json'),
  /** Telegram's chat id (format telegram only). */
  chatId: z.union([text(), z.number().int()], { error: 'expected a chat id' }).optional(),
  /** Also alert on every fill (off: fills are frequent). */
  fills: bool().default(false),
}).superRefine((target, ctx) => {
  if ((target.url === undefined) === (target.urlEnv === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['url'], message: 'expected exactly one of url, urlEnv' });
  }
  if (target.format === 'telegram' && target.chatId === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['chatId'],
      message: 'expected a chatId for format telegram',
    });
  }
});

/**
 * `quanta run` records the snapshots it trades on into `dir` (a recording like `quanta record`
 * writes), so a live run can be backtested and compared (`quanta compare`) without a second
 * poller. Relative to the config file's directory.
 */
const recordSchema = mapping({
  dir: text('expected a directory path'),
  gzip: bool().default(true),
});

/** How log lines look: `auto` is readable lines on a terminal and JSON lines otherwise. */
export const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;

const logSchema = mapping({
  level: oneOf(LOG_LEVELS).default('info'),
  format: oneOf(LOG_FORMATS).default('auto'),
  /** Older spelling of `format`: true is `pretty`, false is `json`. */
  pretty: bool().optional(),
});

/**
 * The whole config file. Defaults are filled in here; paths are still as written (see
 * `resolveConfigPaths`).
 */
export const configSchema = mapping({
  venue: venueSchema,
  wallet: walletSchema.prefault({}),
  state: stateSchema.prefault({}),
  poll: pollSchema.prefault({}),
  execution: executionSchema.prefault({}),
  risk: riskSchema.prefault({}),
  paper: paperSchema.prefault({}),
  log: logSchema.prefault({}),
  backtest: backtestSchema.prefault({}),
  record: recordSchema.optional(),
  control: controlSchema.optional(),
  notify: z
    .array(notifyTargetSchema, { error: 'expected a list of webhooks like [{ url, format }]' })
    .default(() => []),
  // Optional here: `quanta register` and `quanta markets` need no strategies. Commands that
  // trade require at least one (`prepareStrategies`, src/strategy/prepare-strategies.ts).
  strategies: z
    .array(strategySchema, {
      error: 'expected a list of strategies (each with module and markets)',
    })
    .default(() => []),
}).transform(({ strategies, ...config }) => ({
  ...config,
  // The default depends on another section, so it is filled in once both are known.
  strategies: withStrategyDefaults(strategies, config.poll.intervalMs),
}));

/**
 * A validated bot configuration with every default applied. Decimal amounts (`risk.*`) are kept
 * as the strings written (already checked to be plain positive decimals); durations are integer
 * milliseconds; `state.dir`, `risk.killSwitchFile` and `strategies[].module` are absolute paths.
 */
export type Config = Omit<z.output<typeof configSchema>, 'strategies'> & {
  readonly strategies: readonly StrategyConfig[];
  /** Where the config came from, to point errors found later (strategy params) at file:line:col. */
  readonly source?: ConfigSource;
};

/** The file a config was read from, able to locate any key path in it. */
export interface ConfigSource {
  /** The file as the user named it. */
  readonly file: string;
  /** `file:line:col` of the key (or value) at `path`, e.g. `['strategies', 0, 'params', 'x']`. */
  locate(path: readonly PropertyKey[]): string;
}

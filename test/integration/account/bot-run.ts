/**
 * A whole bot (startBot) run in-process against a paper venue, with an injected clock and an
 * injected sleep: the poll loop's sleeps move that clock, so a run of N polls takes no real
 * waiting and a test can jump time between two polls (test/helpers/poll-driven-sleep.ts).
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { stringify } from 'yaml';
import { parseConfig, type Config } from '../../../src/config/index.ts';
import type { OrderRecord } from '../../../src/execution/order-record.ts';
import type { Logger } from '../../../src/log/logger.ts';
import { startBotWithParts, type BotWithParts, type RunSummary } from '../../../src/runtime/bot.ts';
import type { TestClock } from './helpers.ts';
import { pollDrivenSleep } from '../../helpers/poll-driven-sleep.ts';

/** The repository root (package.json, strategies/, bin/). */
export const ROOT = resolve(import.meta.dirname, '../../..');

/** The environment variable the test configs name for the wallet key. */
export const WALLET_ENV = 'QUANTA_ACCOUNT_TEST_WALLET_KEY';

/** What a test config sets beyond the defaults. */
export interface BotConfigOptions {
  readonly venueUrl: string;
  readonly stateDir: string;
  readonly credentialTtlMs?: number;
  readonly renewMarginMs?: number;
  readonly logLevel?: string;
  /** A control server on 127.0.0.1, on a free port. */
  readonly control?: boolean;
  /** `poll.quoteMarkets`; default: not written (the loader's default). */
  readonly quoteMarkets?: 'all' | 'traded';
  /** The markets dca buys; default [ETH-USD]. */
  readonly markets?: readonly string[];
}

/** The YAML a test writes: dca buying 100 USD of ETH-USD on every snapshot. */
export function botConfigYaml(options: BotConfigOptions): string {
  return stringify({
    venue: {
      writeUrl: options.venueUrl,
      readUrl: options.venueUrl,
      ...(options.credentialTtlMs === undefined
        ? {}
        : { credentialTtlMs: options.credentialTtlMs }),
      ...(options.renewMarginMs === undefined ? {} : { renewMarginMs: options.renewMarginMs }),
    },
    wallet: { privateKeyEnv: WALLET_ENV },
    state: { dir: options.stateDir },
    poll: {
      intervalMs: 1000,
      ...(options.quoteMarkets === undefined ? {} : { quoteMarkets: options.quoteMarkets }),
    },
    risk: { capital: '100000' }, // the paper venue's balance: the bot knows its account
    log: { level: options.logLevel ?? 'info' },
    ...(options.control === true ? { control: { host: '127.0.0.1', port: 0 } } : {}),
    strategies: [
      {
        module: join(ROOT, 'strategies', 'dca.ts'),
        markets: options.markets ?? ['ETH-USD'],
        params: { quoteAmount: '100', everySnapshots: 1 },
      },
    ],
  });
}

/** Writes the config into `dir/bot.yaml` and returns its path. */
export function writeBotConfig(dir: string, options: BotConfigOptions): string {
  const path = join(dir, 'bot.yaml');
  writeFileSync(path, botConfigYaml(options));
  return path;
}

/** Parses a config the way `loadConfig` does. */
export function botConfig(dir: string, options: BotConfigOptions): Config {
  return parseConfig(botConfigYaml(options), 'bot.yaml', dir);
}

/** How a run goes. */
export interface RunPlan {
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly log: Logger;
  readonly clock: TestClock;
  /** Polls before the run is stopped. */
  readonly polls: number;
  /** Called after poll `n` (1-based) has settled, before the clock moves on: time jumps go here. */
  readonly afterPoll?: (n: number) => void | Promise<void>;
}

/** What a finished run leaves. */
export interface RunResult {
  readonly rows: OrderRecord[];
  readonly summary: RunSummary;
}

/**
 * Starts a bot, runs `plan.polls` polls and shuts it down. Every order a poll starts is settled
 * before the clock moves, so what each poll does is decided by the clock alone.
 */
export async function runBotFor(
  plan: RunPlan,
  onStarted?: (bot: BotWithParts) => void,
): Promise<RunResult> {
  const controller = new AbortController();
  let polls = 0;
  const started: { settle?: () => Promise<void> } = {};
  const bot = await startBotWithParts({
    config: plan.config,
    env: plan.env,
    log: plan.log,
    projectRoot: ROOT,
    now: () => plan.clock.now,
    // Virtual time: durations pass on it too (the wall clock is not stepped).
    monotonic: () => plan.clock.now,
    sleep: pollDrivenSleep({
      clock: plan.clock,
      runSignal: controller.signal,
      pollIntervalMs: plan.config.poll.intervalMs,
      onPoll: async () => {
        await started.settle?.();
        polls += 1;
        await plan.afterPoll?.(polls);
        if (polls >= plan.polls) controller.abort();
      },
    }),
  });
  started.settle = () => bot.executor.settle();
  onStarted?.(bot);
  await bot.run(controller.signal);
  await bot.executor.settle();
  const rows = bot.journal.all();
  const summary = await bot.shutdown();
  return { rows, summary };
}

/** A Writable that keeps every line written to it (pino's JSON lines). */
export function captureStream(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      callback();
    },
  });
  return { stream, text: () => chunks.join('') };
}

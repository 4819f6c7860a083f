import { redisLabel } from '../execution/rate-budget/budget-key.ts';
import { relative } from 'node:path';
import type { Config } from '../config/index.ts';
import type { Logger } from '../log/logger.ts';
import type { PreparedStrategy } from '../strategy/prepare-strategies.ts';
import type { VenueEndpoints } from './embedded-venue.ts';

/** What the banner is made from. */
export interface StartBannerInput {
  readonly config: Config;
  readonly venue: Pick<VenueEndpoints, 'writeUrl' | 'readUrl' | 'embedded'>;
  readonly strategies: readonly PreparedStrategy[];
}

/**
 * The facts a person checks before leaving a bot running, as one log line: where it trades,
 * as whom, which strategies on which markets with which params, the risk and rate limits and
 * where its state lives. Logged once, after the config and strategies validated and before any
 * key is registered. Holds no secret: the wallet appears only as the name of its variable.
 */
export function startBannerFields(input: StartBannerInput): Record<string, unknown> {
  const { config, venue, strategies } = input;
  return {
    venue: {
      writeUrl: venue.writeUrl,
      readUrl: venue.readUrl,
      embedded: venue.embedded !== undefined,
      chainId: config.venue.chainId,
    },
    subaccount: { brokerId: config.venue.brokerId, index: config.venue.subaccount },
    walletKeyVariable: config.wallet.privateKeyEnv,
    strategies: strategies.map((s) => ({
      name: s.name,
      module: relative(process.cwd(), config.strategies[s.index]?.module ?? '') || '.',
      markets: s.symbols,
      params: s.params,
    })),
    risk: config.risk,
    rateLimit: config.execution.rateLimit,
    // Never the Redis URL as written: it may carry a password.
    rateBudget:
      config.execution.rateBudget === 'local' ? 'local' : redisLabel(config.execution.rateBudget),
    concurrency: config.execution.concurrency,
    orderTtlMs: config.execution.orderTtlMs,
    pollIntervalMs: config.poll.intervalMs,
    stateDir: config.state.dir,
  };
}

/** Logs {@link startBannerFields} as the `starting` line. */
export function logStartBanner(log: Logger, input: StartBannerInput): void {
  log.info(startBannerFields(input), 'starting');
}

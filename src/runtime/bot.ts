import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { prepareStrategies } from '../strategy/prepare-strategies.ts';
import { assembleBot } from './assemble-bot.ts';
import { narrowBot, type Bot, type BotWithParts } from './bot-handle.ts';
import type { BotOptions } from './bot-options.ts';
import { CleanupStack } from './cleanup-stack.ts';
import { controlTokens } from './control/control-auth.ts';
import { notifyTargets } from './control/notifier.ts';
import { resolveVenue } from './embedded-venue.ts';

export type { Bot, BotWithParts } from './bot-handle.ts';
export type { BotOptions, BotWaitTime } from './bot-options.ts';
export type { RunSummary } from './shutdown.ts';

/**
 * Starts a bot: resolves the venue (starting the embedded paper venue if asked), registers or
 * reuses credentials, opens the journal, loads strategies and recovers orders left in flight.
 * The parts are wired by src/runtime/assemble-bot.ts over the core every mode shares
 * (src/runtime/bot-core.ts).
 *
 * @throws QuantaError with the code that decides the exit status (config, credentials, venue).
 */
export async function startBot(options: BotOptions): Promise<Bot> {
  return narrowBot(await startBotWithParts(options));
}

/**
 * {@link startBot}, the bot's parts (journal, executor, modes, operations) left in reach: for
 * the runtime's own tests only; not exported from any package entry.
 */
export async function startBotWithParts(options: BotOptions): Promise<BotWithParts> {
  const { config } = options;
  // The types pair them (BotWaitTime); a caller without types is told before anything starts.
  if ((options.monotonic === undefined) !== (options.sleep === undefined)) {
    const [given, missing] =
      options.sleep === undefined ? ['monotonic', 'sleep'] : ['sleep', 'monotonic'];
    throw new QuantaError(
      ErrorCodes.USAGE,
      `startBot: ${given} was given without ${missing}: give monotonic and sleep together, or neither (a sleep must pass the time of the monotonic clock the bot waits on)`,
    );
  }
  // A control server that anyone on the network could command is refused before anything else.
  if (config.control !== undefined) controlTokens(config.control, options.env, config.source);
  // Webhook URLs named by variable must be there before anything starts (exit 2 otherwise).
  const targets = notifyTargets(config, options.env);
  // Strategy modules and params first: a typo is reported before any venue is contacted.
  const strategies = await prepareStrategies(
    config.strategies,
    [options.projectRoot],
    config.source,
  );
  const venue = await resolveVenue(config);
  const cleanup = new CleanupStack();
  cleanup.push(async () => venue.embedded?.close());
  try {
    return await assembleBot(options, strategies, venue, cleanup, targets);
  } catch (error) {
    await cleanup.close();
    throw error;
  }
}

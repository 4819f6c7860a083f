import { stderr } from 'node:process';
import { displayDecimal } from '../backtest/display-decimal.ts';
import { MONEY_DECIMALS } from '../money/index.ts';
import { startBot, type RunSummary } from '../runtime/bot.ts';
import type { CommandInput } from './command-spec.ts';
import type { COMMANDS } from './commands.ts';
import { loadConfigFlag, loggerFor, PROJECT_ROOT } from './common.ts';
import { describeError, exitCodeFor, ExitCode } from './exit-codes.ts';

/** Formats the shutdown summary for a terminal. */
export function formatRunSummary(summary: RunSummary): string {
  const lines = [
    `quanta: stopped after ${summary.snapshots} snapshots${summary.drained ? '' : ' (in-flight orders left for the next start)'}`,
  ];
  const states = Object.entries(summary.stats.ordersByState);
  lines.push(
    `  orders: ${states.length === 0 ? 'none' : states.map(([state, n]) => `${state} ${n}`).join(', ')}`,
  );
  if (summary.stats.unresolvedOrders > 0)
    lines.push(
      `  unresolved: ${summary.stats.unresolvedOrders} orders of unknown outcome (check the venue; they count at full size against the limits)`,
    );
  const refusals = Object.entries(summary.stats.refusals);
  if (refusals.length > 0)
    lines.push(`  refused: ${refusals.map(([reason, n]) => `${reason} ${n}`).join(', ')}`);
  // Money to the cent (the journal keeps it exact); amounts are on the market's quantum already.
  const money = (value: string): string => displayDecimal(value, MONEY_DECIMALS);
  for (const p of summary.positions) {
    lines.push(
      `  ${p.symbol}: position ${p.amount} (notional ${money(p.notional)}), realized PnL ${money(p.realizedPnl)}, unrealized PnL ${money(p.unrealizedPnl)}, fees ${money(p.fees)}`,
    );
  }
  lines.push(
    `  net PnL: ${money(summary.netPnl)} (realized net of fees + unrealized, since the journal began)`,
  );
  if (summary.pausedStrategies.length > 0)
    lines.push(`  paused strategies: ${summary.pausedStrategies.join(', ')}`);
  return `${lines.join('\n')}\n`;
}

/**
 * `quanta run`: runs a bot until SIGINT (exit 130) or SIGTERM (exit 0), draining in-flight
 * orders before it exits. A second signal exits at once: the journal is already committed, so
 * the next start resends whatever was in flight, byte-identical.
 */
export async function run({ flags }: CommandInput<typeof COMMANDS.run>): Promise<number> {
  const config = await loadConfigFlag(flags.config, process.env);
  const log = loggerFor(config);
  const controller = new AbortController();
  let exitCode: number = ExitCode.OK;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) {
      stderr.write(
        'quanta: second signal, exiting now; in-flight orders are resent on the next start\n',
      );
      process.exit(ExitCode.INTERRUPTED);
    }
    exitCode = signal === 'SIGINT' ? ExitCode.INTERRUPTED : ExitCode.OK;
    log.info({ signal }, 'stopping: no new polls; draining in-flight orders');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // SIGUSR2: stop opening positions (halt-entries), keep closing them; POST /resume undoes it.
  let onHaltEntries: (() => void) | undefined;
  try {
    const bot = await startBot({
      config,
      env: process.env,
      log,
      projectRoot: PROJECT_ROOT,
      ...(flags.warmup === undefined ? {} : { warmup: flags.warmup }),
    });
    onHaltEntries = () => bot.setMode('halt-entries', 'signal');
    process.on('SIGUSR2', onHaltEntries);
    try {
      await bot.run(controller.signal);
    } catch (error) {
      log.error({ err: describeError(error) }, 'bot stopped by an error');
      exitCode = exitCodeFor(error);
    }
    const summary = await bot.shutdown();
    stderr.write(formatRunSummary(summary));
    return exitCode;
  } catch (error) {
    stderr.write(`quanta: ${describeError(error)}\n`);
    return exitCodeFor(error);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (onHaltEntries !== undefined) process.off('SIGUSR2', onHaltEntries);
  }
}

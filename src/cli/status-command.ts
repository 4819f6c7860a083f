import { stdout } from 'node:process';
import { displayDecimal } from '../backtest/display-decimal.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { MONEY_DECIMALS } from '../money/index.ts';
import { readBotStatus, type BotStatus, type StatusOrder } from '../runtime/bot-status.ts';
import type { CommandInput } from './command-spec.ts';
import type { COMMANDS } from './commands.ts';
import { loadConfigFlag } from './common.ts';
import { ExitCode } from './exit-codes.ts';

/**
 * `quanta status`: the state of a running or stopped bot, read from its journal (read-only, safe
 * beside the bot): trading mode, positions, open and unresolved orders, the last orders; and the
 * signing keys in its credential file, newest first, with the venue's refusals.
 */
export async function run({ flags }: CommandInput<typeof COMMANDS.status>): Promise<number> {
  const last = Number(flags.last);
  if (!/^\d+$/.test(flags.last) || !Number.isSafeInteger(last) || last < 1) {
    throw new QuantaError(
      ErrorCodes.USAGE,
      `--last expects a whole number ≥ 1, got ${JSON.stringify(flags.last)}`,
    );
  }
  const config = await loadConfigFlag(flags.config, process.env);
  const status = readBotStatus(config, last);
  stdout.write(flags.json ? `${JSON.stringify(status, null, 2)}\n` : formatStatus(status));
  return ExitCode.OK;
}

/** What a position line adds about the tick its price is rounded to (nothing: the listing's). */
const TICK_NOTE = {
  'venue listing': '',
  'journaled prices': ' (tick inferred from journaled prices: this journal has no venue listing)',
  none: ' (exact: no tick known)',
} as const;

/**
 * The status as lines for a terminal: money to the cent, the average entry price to the tick of
 * the venue's listing as the bot kept it, else as the journaled prices show it, saying so
 * (`--json` keeps every figure exact).
 */
export function formatStatus(status: BotStatus): string {
  const money = (value: string): string => displayDecimal(value, MONEY_DECIMALS);
  const lines = [`journal ${status.journal}`, `mode: ${status.mode}`];
  const counts = Object.entries(status.ordersByState);
  lines.push(
    `orders: ${counts.length === 0 ? 'none' : counts.map(([s, n]) => `${s} ${n}`).join(', ')}`,
  );
  lines.push(status.positions.length === 0 ? 'positions: none' : 'positions:');
  for (const p of status.positions)
    lines.push(
      `  ${p.symbol}: ${p.amount} at ${p.priceDecimals === null ? p.avgEntryPrice : displayDecimal(p.avgEntryPrice, p.priceDecimals, true)}, realized PnL ${money(p.realizedPnl)}, fees ${money(p.fees)}${TICK_NOTE[p.tickFrom ?? 'none']}`,
    );
  const section = (title: string, orders: readonly StatusOrder[]): void => {
    lines.push(`${title}: ${orders.length === 0 ? 'none' : ''}`.trimEnd());
    for (const o of orders)
      lines.push(
        `  #${o.id} ${o.updatedAt} ${o.strategy} ${o.side} ${o.amount} ${o.symbol} ${o.type} ${o.state} filled ${o.filled}${o.error === null ? '' : ` (${o.error})`}`,
      );
  };
  section('open orders', status.openOrders);
  section('unresolved orders (unknown outcome: check the venue)', status.unresolvedOrders);
  section('last orders', status.lastOrders);
  const { credentials } = status;
  if (credentials.error !== null) lines.push(`credentials: ${credentials.error}`);
  else lines.push(`credentials: ${credentials.keys.length === 0 ? 'none stored' : ''}`.trimEnd());
  for (const key of credentials.keys)
    lines.push(
      `  ${key.signer} for ${key.venue}, expires ${key.expiresAt}${key.refusedAt === null ? '' : `, refused by the venue at ${key.refusedAt}`}`,
    );
  return `${lines.join('\n')}\n`;
}

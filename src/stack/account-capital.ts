import type { Config } from '../config/index.ts';
import { venueMode } from '../config/venue-mode.ts';
import { capitalOf } from '../execution/pre-trade/index.ts';
import { parseDecimalToX18 } from '../money/index.ts';

/**
 * What a live or paper bot's account held before its journal's first order (x18), the base of
 * its margin check and of `ctx.equity()`: `risk.capital` when written, else on the embedded
 * paper venue its `paper.balance` (that venue starts every subaccount with it, and the paper
 * state is emptied at every start), else undefined: a real venue reports no balance, so the bot
 * does not know its account and refuses every order that adds exposure (`MARGIN_UNKNOWN`,
 * docs/margin.md). A backtest has its own rule (`backtest.startingCapital`).
 */
export function accountCapitalOf(
  config: Pick<Config, 'risk' | 'paper' | 'venue'>,
): bigint | undefined {
  const capital = capitalOf(config.risk);
  if (capital !== undefined || venueMode(config.venue) !== 'embedded') return capital;
  return parseDecimalToX18(config.paper.balance, 'paper.balance');
}

import { marginAccount, type MarginAccountView } from '../../domain/account/index.ts';
import { heldMarks, marginPositions, type MarginFacts } from './margin-check.ts';

/**
 * The account model's view of the bot's estimate (equity, initial and maintenance margin, free
 * margin at the listings' fractions, each position's liquidation price), or undefined when a
 * held market is not listed or has no mark: then the account is not known (fail closed, as the
 * margin check does). Pure, bigint x18 (docs/margin.md).
 */
export function accountViewOf(facts: MarginFacts): MarginAccountView | undefined {
  const held = heldMarks(facts);
  if ('refused' in held) return undefined;
  return marginAccount({
    balanceX18: facts.balanceX18,
    positions: marginPositions(held, (market) => market.initialMarginX18),
  });
}

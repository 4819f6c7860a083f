import { expect, it } from 'vitest';
import { closestName, didYouMean } from '../../../src/config/closest-name.ts';

it('suggests the allowed name a typo came from, and nothing for another word', () => {
  expect(closestName('quoteAmout', ['quoteAmount', 'everySnapshots'])).toBe('quoteAmount');
  expect(closestName('evrySnapshot', ['quoteAmount', 'everySnapshots'])).toBe('everySnapshots');
  expect(closestName('ETHUSD', ['BTC-USD', 'ETH-USD'])).toBe('ETH-USD');
  expect(closestName('eth-usd', ['BTC-USD', 'ETH-USD'])).toBe('ETH-USD');
  expect(closestName('wnidow', ['window', 'entryZ'])).toBe('window'); // a transposition
  expect(closestName('leverage', ['window', 'entryZ'])).toBeUndefined();
  expect(closestName('x', [])).toBeUndefined();
  expect(didYouMean('SOLUSD', ['SOL-USD'])).toBe('; did you mean "SOL-USD"?');
  expect(didYouMean('zzz', ['SOL-USD'])).toBe('');
});

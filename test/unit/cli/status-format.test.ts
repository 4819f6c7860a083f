import { describe, expect, it } from 'vitest';
import { formatStatus } from '../../../src/cli/status-command.ts';

describe('quanta status in a terminal', () => {
  it('shows money to the cent and the average entry price to the tick (it printed 18 digits)', () => {
    expect(
      formatStatus({
        journal: '/state/journal.sqlite',
        mode: 'trading',
        positions: [
          {
            symbol: 'ETH-USD',
            amount: '0.30009787',
            avgEntryPrice: '2998.653337791734201265',
            priceDecimals: 2,
            realizedPnl: '-0.729670039893902082',
            fees: '0.44999999316574653',
          },
          {
            symbol: 'SOL-USD',
            amount: '-1.5',
            avgEntryPrice: '151.8594855',
            priceDecimals: 6,
            realizedPnl: '0',
            fees: '0.004555231290000001',
          },
        ],
        openOrders: [],
        unresolvedOrders: [],
        lastOrders: [],
        ordersByState: { FILLED: 3 },
      }),
    ).toBe(
      [
        'journal /state/journal.sqlite',
        'mode: trading',
        'orders: FILLED 3',
        'positions:',
        '  ETH-USD: 0.30009787 at 2998.65, realized PnL -0.73, fees 0.45',
        '  SOL-USD: -1.5 at 151.859486, realized PnL 0.00, fees 0.00',
        'open orders: none',
        'unresolved orders (unknown outcome: check the venue): none',
        'last orders: none',
        '',
      ].join('\n'),
    );
  });
});

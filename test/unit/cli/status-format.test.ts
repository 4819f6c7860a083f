import { describe, expect, it } from 'vitest';
import { formatStatus } from '../../../src/cli/status-command.ts';

describe('quanta status in a terminal', () => {
  it('shows money to the cent and the average entry price to the tick, saying where the tick comes from unless from the listing (it printed 18 digits)', () => {
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
            tickFrom: 'venue listing',
            realizedPnl: '-0.729670039893902082',
            fees: '0.44999999316574653',
          },
          {
            symbol: 'BTC-USD',
            amount: '0.01',
            avgEntryPrice: '65000.123456789',
            priceDecimals: null,
            tickFrom: null,
            realizedPnl: '0',
            fees: '0.2',
          },
          {
            symbol: 'SOL-USD',
            amount: '-1.5',
            avgEntryPrice: '151.8594855',
            priceDecimals: 6,
            tickFrom: 'journaled prices',
            realizedPnl: '0',
            fees: '0.004555231290000001',
          },
        ],
        openOrders: [],
        unresolvedOrders: [],
        lastOrders: [],
        ordersByState: { FILLED: 3 },
        credentials: { file: '/state/credentials.json', keys: [], error: null },
      }),
    ).toBe(
      [
        'journal /state/journal.sqlite',
        'mode: trading',
        'orders: FILLED 3',
        'positions:',
        '  ETH-USD: 0.30009787 at 2998.65, realized PnL -0.73, fees 0.45',
        '  BTC-USD: 0.01 at 65000.123456789, realized PnL 0.00, fees 0.20 (exact: no tick known)',
        '  SOL-USD: -1.5 at 151.859486, realized PnL 0.00, fees 0.00 (tick inferred from journaled prices: this journal has no venue listing)',
        'open orders: none',
        'unresolved orders (unknown outcome: check the venue): none',
        'last orders: none',
        'credentials: none stored',
        '',
      ].join('\n'),
    );
  });

  it('shows the stored signing keys newest first, and which the venue refused', () => {
    const status = {
      journal: '/state/journal.sqlite',
      mode: 'trading' as const,
      positions: [],
      openOrders: [],
      unresolvedOrders: [],
      lastOrders: [],
      ordersByState: {},
    };
    const keys = [
      {
        signer: '0x45f8924221D9Da55123C8E2569A52f0622Ec663D',
        venue: 'https://venue.example',
        expiresAt: '2026-03-02T13:00:00.000Z',
        refusedAt: '2026-03-02T12:10:00.000Z',
      },
      {
        signer: '0x0aB7d8a5cbcF4f1dD3dE4C2a1f0b9e8D7c6B5A49',
        venue: 'https://venue.example',
        expiresAt: '2026-03-02T12:30:00.000Z',
        refusedAt: null,
      },
    ];
    const file = '/state/credentials.json';
    expect(
      formatStatus({ ...status, credentials: { file, keys, error: null } })
        .split('\n')
        .slice(-4),
    ).toEqual([
      'credentials:',
      '  0x45f8924221D9Da55123C8E2569A52f0622Ec663D for https://venue.example, expires 2026-03-02T13:00:00.000Z, refused by the venue at 2026-03-02T12:10:00.000Z',
      '  0x0aB7d8a5cbcF4f1dD3dE4C2a1f0b9e8D7c6B5A49 for https://venue.example, expires 2026-03-02T12:30:00.000Z',
      '',
    ]);
    expect(
      formatStatus({
        ...status,
        credentials: { file, keys: [], error: `credential file ${file} is unreadable` },
      })
        .split('\n')
        .slice(-2),
    ).toEqual([`credentials: credential file ${file} is unreadable`, '']);
  });
});

import { createSnapshot, type Snapshot } from '../../../src/market/snapshot.ts';
import { DEFAULT_SIM_MARKETS } from '../../../src/sim/default-markets.ts';
import { RECORDING_T0 } from '../../helpers/recordings.ts';

/** Mids 3000.25 for 8 snapshots, then 2850.25, then 2800.25, then 2800.25 again. */
export const MARGIN_PRICES: readonly (readonly [string, string])[] = [
  ...Array.from({ length: 8 }, () => ['3000', '3000.5'] as const),
  ['2850', '2850.5'],
  ['2800', '2800.5'],
  ['2800', '2800.5'],
];

export function marginSnapshots(): Snapshot[] {
  return MARGIN_PRICES.map(([bid, ask], index) =>
    createSnapshot({
      seq: index + 1,
      takenAt: RECORDING_T0 + index * 1000,
      markets: DEFAULT_SIM_MARKETS.filter((m) => m.symbol === 'ETH-USD'),
      quotes: [
        {
          marketId: 1,
          timestamp: RECORDING_T0 + index * 1000,
          bids: [{ price: bid, quantity: '1000' }],
          asks: [{ price: ask, quantity: '1000' }],
        },
      ],
    }),
  );
}

import { expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/index.ts';
import { startBannerFields } from '../../../src/runtime/start-banner.ts';
import { defineStrategy } from '../../../src/strategy/define-strategy.ts';

it('the start banner names venue, subaccount, strategies with markets and params, limits and state dir', () => {
  const config = parseConfig(
    [
      'venue: { writeUrl: "https://venue.example/w", readUrl: "https://venue.example/r", brokerId: 7, subaccount: 3 }',
      'wallet: { privateKeyEnv: MY_KEY }',
      'state: { dir: /srv/bot/state }',
      'execution: { rateLimit: { requests: 8, perMs: 1000 } }',
      'risk: { maxOrderNotional: "250", dailyLossLimit: "40" }',
      'strategies: [{ module: /srv/bot/s.ts, markets: [ETH-USD, BTC-USD], name: fast }]',
    ].join('\n'),
    'bot.yaml',
    '/srv/bot',
  );
  const strategy = defineStrategy({ name: 's', onSnapshot: () => [] });
  const fields = startBannerFields({
    config,
    venue: {
      writeUrl: 'https://venue.example/w',
      readUrl: 'https://venue.example/r',
      embedded: undefined,
    },
    strategies: [
      {
        index: 0,
        name: 'fast',
        strategy,
        params: { window: 20 },
        symbols: ['ETH-USD', 'BTC-USD'],
        timeoutMs: 500,
      },
    ],
  });
  expect(fields).toMatchObject({
    venue: {
      writeUrl: 'https://venue.example/w',
      readUrl: 'https://venue.example/r',
      embedded: false,
    },
    subaccount: { brokerId: 7, index: 3 },
    walletKeyVariable: 'MY_KEY',
    strategies: [{ name: 'fast', markets: ['ETH-USD', 'BTC-USD'], params: { window: 20 } }],
    risk: { maxOrderNotional: '250', dailyLossLimit: '40' },
    rateLimit: { requests: 8, perMs: 1000 },
    stateDir: '/srv/bot/state',
  });
});

/**
 * `GET /status` says when a refused key's successor may register (`newKeyAfter`) against its own
 * `at`: at or before `at` means due now. Both come from one clock reading; a clock that moves
 * between readings (every real one) must not make a due key look a few ms away.
 */
import { expect, it } from 'vitest';
import { PositionBook } from '../../../src/execution/positions.ts';
import { TradingModes } from '../../../src/execution/trading-mode.ts';
import { createLogger } from '../../../src/log/logger.ts';
import type { ActiveCredential } from '../../../src/account/credential-manager.ts';
import type { CredentialState } from '../../../src/account/credential-state.ts';
import { parseConfig } from '../../../src/config/index.ts';
import { BotOperations } from '../../../src/runtime/control/bot-operations.ts';

const log = createLogger({ level: 'silent' });
const config = parseConfig(
  'venue: { writeUrl: "http://127.0.0.1:1", readUrl: "http://127.0.0.1:1" }\nstrategies: []\n',
  'status.yaml',
  process.cwd(),
);

/** The newest key as `current()` gives it; placeholders where a key would be (never sent). */
function active(state: CredentialState): ActiveCredential {
  return {
    credentials: {
      brokerId: 1,
      serviceKey: 'service-key-placeholder',
      serviceSecret: 'service-secret-placeholder',
      signerAddress: state.signer,
      headerPrefix: 'Service-',
    },
    signingPrivateKey: '0x00',
    subaccountId: '0x00',
    expiryTs: state.expiryTs,
  };
}

function operations(now: () => number, state: CredentialState): BotOperations {
  return new BotOperations({
    config,
    now,
    executor: {
      positions: new PositionBook(),
      stats: () => ({
        refusals: {},
        refusalsByStrategy: {},
        ordersByState: {},
        unresolvedOrders: 0,
        lookupFailures: 0,
      }),
    },
    dispatcher: { pending: 0 },
    session: {
      pausedStrategies: () => [],
      strategyTimeouts: () => ({}),
      resumeStrategy: () => 'unknown',
      strategyNames: () => [],
      strategyErrors: () => ({}),
      strategyBars: () => ({}),
    },
    poller: { failures: 0, lastGoodAt: undefined, lastGoodAgeMs: () => undefined },
    journal: { inStates: () => [], latest: () => [], lastWriteError: undefined, all: () => [] },
    credentials: {
      current: () => active(state),
      signingRefusal: () => state.signingRefusal,
      state: () => state,
    },
    modes: new TradingModes({ now, log }),
    symbolOf: (id) => String(id),
  });
}

/**
 * `GET /status` of a bot whose newest key was refused and whose next key may register in
 * `newKeyInMs`, on a clock where every reading is 7 ms after the one before: a status built
 * from two readings shows it.
 */
function statusOfRefused(newKeyInMs: number): ReturnType<BotOperations['status']> {
  let ms = Date.UTC(2026, 10, 28, 12, 0, 0);
  const now = (): number => (ms += 7);
  return operations(now, {
    signer: '0x45f8924221D9Da55123C8E2569A52f0622Ec663D',
    expiryTs: ms + 3_600_000,
    canSign: false,
    signingRefusal: 'the venue refused them',
    refusedKeys: 1,
    newKeyInMs,
  }).status();
}

it('gives a key due now a newKeyAfter equal to at, however far the clock moves while it is read', () => {
  const status = statusOfRefused(0);
  expect(status.credentials.newKeyAfter).not.toBeNull();
  expect(status.credentials.newKeyAfter).toBe(status.at);
});

it('gives a key due in 10 s a newKeyAfter 10 s after at', () => {
  const status = statusOfRefused(10_000);
  expect(Date.parse(status.credentials.newKeyAfter ?? '') - Date.parse(status.at)).toBe(10_000);
});

/**
 * The healing phase's checks besides I4 (src/simulation/healed.ts): at every step, the venue
 * does not find the bot's newest credentials expired, and at the end it takes them (I5: renewed
 * before they expire unless the venue refuses); the venue accepted orders of the bot in each of
 * its markets since the faults stopped (it trades until the end).
 */
import { expect, it } from 'vitest';
import {
  checkHealed,
  checkRenewedWhileHealed,
  RENEWED_AFTER_FAULTS_MS,
  FULL_HEALING_MS,
  type HealedInput,
} from '../../../src/simulation/healed.ts';
import { ViolationLog } from '../../../src/simulation/invariants.ts';
import { Trace } from '../../../src/simulation/trace.ts';
import { RISK_SCOPE } from '../../../src/execution/executor.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { DayBaselines } from '../../../src/simulation/daily-loss.ts';
import { newOrder } from '../../helpers/journal-orders.ts';
import { SIM_MIXES } from '../../../src/simulation/sim-mix.ts';

const DAILY_LOSS_LIMIT = SIM_MIXES.default.dailyLossLimit;
import type { ActiveCredential } from '../../../src/account/credential-manager.ts';
import type { CredentialCheck } from '../../../src/paper/credential-store.ts';
import type { CredentialState } from '../../../src/account/credential-state.ts';

const FAULTS_UNTIL = 480_000;
const END = 600_000;

const newest: ActiveCredential = {
  credentials: {
    brokerId: 1,
    serviceKey: 'key-2',
    serviceSecret: 'secret-2',
    signerAddress: '0x00000000000000000000000000000000000000b2',
    headerPrefix: 'Service-',
  },
  signingPrivateKey: `0x${'11'.repeat(32)}`,
  subaccountId: 'sub',
  expiryTs: 0,
};

/**
 * A venue that takes every credential it is asked about (`valid`) or refuses each as `refusal`,
 * noting what it was asked.
 */
function venueTaking(valid: boolean, refusal: 'expired' | 'revoked' = 'expired') {
  const asked: string[] = [];
  return {
    asked,
    checkCredentials(serviceKey: string, serviceSecret: string): CredentialCheck {
      asked.push(`${serviceKey}/${serviceSecret}`);
      if (!valid) return { ok: false, reason: refusal };
      return {
        ok: true,
        session: {
          brokerId: 1n,
          subaccountId: 'sub',
          accountId: 'acct',
          signer: newest.credentials.signerAddress,
          expiresAt: 1,
        },
      };
    },
  };
}

const ETH = 1;
const SOL = 5;

/**
 * The bot's credentials: the newest, not refused as far as the bot knows; or, with
 * `refusedWaitMs`, refused, a new key due in that long (0: due now).
 */
function botKnowing(refusedWaitMs?: number) {
  const refused = refusedWaitMs !== undefined;
  return {
    credentials: {
      current: () => newest,
      isRefused: () => refused,
      state: (): CredentialState => ({
        signer: newest.credentials.signerAddress,
        expiryTs: newest.expiryTs,
        canSign: !refused,
        signingRefusal: refused ? 'refused' : undefined,
        refusedKeys: refused ? 1 : 0,
        newKeyInMs: refusedWaitMs,
      }),
    },
  };
}

/** Runs the end checks on orders accepted at `acceptedAt` (virtual ms) in `markets`. */
function run(
  venue: HealedInput['venue'],
  acceptedAt: readonly (readonly [marketId: number, at: number])[],
  marketIds: readonly number[] = [ETH],
  faultsUntil = FAULTS_UNTIL,
  refusedWaitMs?: number,
  journal?: OrderJournal,
  markOf: (marketId: number) => bigint | undefined = () => undefined,
  refusalsKnown: ReadonlySet<string> = new Set(),
): ViolationLog {
  const violations = new ViolationLog(7, new Trace(), () => END);
  const accepted = new Map(
    acceptedAt.map(([marketId, at], i) => [
      `0x${i}`,
      { venueOrderId: i, signature: `0x${i}`, marketId, at },
    ]),
  );
  checkHealed({
    bot: botKnowing(refusedWaitMs),
    venue,
    accepted,
    marketIds,
    faultsUntil,
    now: END,
    journal,
    days: new DayBaselines(DAILY_LOSS_LIMIT),
    markOf,
    refusalsKnown,
    violations,
  });
  return violations;
}

it('holds for a bot whose newest credentials the venue takes and whose orders it accepted after the faults', () => {
  const venue = venueTaking(true);
  expect(
    run(venue, [
      [ETH, 10_000],
      [ETH, FAULTS_UNTIL],
      [ETH, 590_000],
    ]).list,
  ).toEqual([]);
  // It asked the venue about the newest credentials, not the bot's own view of them.
  expect(venue.asked).toEqual(['key-2/secret-2']);
});

it('counts newest credentials the venue refuses at the end as not renewed (I5)', () => {
  for (const reason of ['expired', 'revoked'] as const) {
    const { list } = run(venueTaking(false, reason), [[ETH, FAULTS_UNTIL + 1]]);
    expect(list.map((v) => v.invariant)).toEqual(['durable']);
    expect(list[0]!.detail).toBe(
      `120000 ms after the faults stopped, the venue refuses the bot's newest credentials (signing key ${newest.credentials.signerAddress}) as ${reason}: not renewed in time`,
    );
  }
});

it('leaves refused credentials to a bot still waiting out the spacing of refusals in a row, not once the wait is over', () => {
  const revoked = venueTaking(false, 'revoked');
  expect(run(revoked, [[ETH, FAULTS_UNTIL + 1]], [ETH], FAULTS_UNTIL, 20_000).list).toEqual([]);
  const over = run(revoked, [[ETH, FAULTS_UNTIL + 1]], [ETH], FAULTS_UNTIL, 0);
  expect(over.list.map((v) => v.invariant)).toEqual(['durable']);
});

it('counts a bot none of whose orders the venue accepted after the faults stopped, in each market', () => {
  const { list } = run(venueTaking(true), [
    [ETH, 1_000],
    [ETH, FAULTS_UNTIL - 1],
  ]);
  expect(list.map((v) => v.invariant)).toEqual(['starts']);
  expect(list[0]!.detail).toBe(
    'the venue accepted no order of the bot in the 120000 ms after the faults stopped',
  );
  // Two markets: trading one of them is not enough.
  const both = run(
    venueTaking(true),
    [
      [ETH, 500_000],
      [SOL, 1_000],
    ],
    [ETH, SOL],
  );
  expect(both.list.map((v) => v.detail)).toEqual([
    'the venue accepted no order of the bot in market 5 in the 120000 ms after the faults stopped',
  ]);
  expect(
    run(
      venueTaking(true),
      [
        [ETH, 500_000],
        [SOL, 599_000],
      ],
      [ETH, SOL],
    ).list,
  ).toEqual([]);
});

it('excuses a bot whose day may have lost the daily loss limit (flat, or at the venue marks), not one short of it', () => {
  const X18 = 10n ** 18n;
  const LIMIT_X18 = DAILY_LOSS_LIMIT * X18;
  const idle = (journal: OrderJournal, mark?: bigint): string[] =>
    run(
      venueTaking(true),
      [[ETH, 1_000]],
      [ETH],
      FAULTS_UNTIL,
      undefined,
      journal,
      () => mark,
    ).list.map((v) => v.invariant);
  for (const [baselineX18, broken] of [
    [0n, ['starts']],
    // Realized at the day's start was the limit above the fills' cash now: flat, at the limit.
    [LIMIT_X18, []],
  ] as const) {
    const journal = OrderJournal.open(':memory:');
    journal.kvSet(RISK_SCOPE, 'dayBaseline', `${Date.UTC(2026, 0, 1)} ${baselineX18}`);
    expect(idle(journal)).toEqual(broken);
    journal.close();
  }
  // Long 1 ETH bought at 3000: at a mark of 2850 it has lost 150, past the limit (100) even
  // with 1% of the notional (28.5) for the bot's older marks; at 2950 it has lost 50, and at
  // 2925 75 (within 1% of the notional, 29.25, of the limit: excused); without a mark, nothing is
  // known.
  const journal = OrderJournal.open(':memory:');
  journal.kvSet(RISK_SCOPE, 'dayBaseline', `${Date.UTC(2026, 0, 1)} 0`);
  const [row] = journal.insertPendingMany([newOrder('0x01', { amountX18: X18 })], 1000);
  journal.markAttempt(row!.id, 1001);
  journal.recordOutcome(
    row!.id,
    { state: 'FILLED', filledX18: X18, avgFillPriceX18: 3000n * X18, feesX18: 0n, venueOrderId: 1 },
    1002,
  );
  expect([2850n, 2950n, 2925n].map((mark) => idle(journal, mark * X18))).toEqual([
    [],
    ['starts'],
    [],
  ]);
  expect(idle(journal)).toEqual(['starts']);
  journal.close();
});

it('does not count credentials revoked unseen by a bot past its daily loss limit (it sends nothing that would tell it), but does otherwise', () => {
  const past = OrderJournal.open(':memory:');
  past.kvSet(RISK_SCOPE, 'dayBaseline', `${Date.UTC(2026, 0, 1)} ${DAILY_LOSS_LIMIT * 10n ** 18n}`);
  const under = OrderJournal.open(':memory:');
  under.kvSet(RISK_SCOPE, 'dayBaseline', `${Date.UTC(2026, 0, 1)} 0`);
  const accepted: [number, number][] = [[ETH, END - 1]];
  const invariants = (
    journal: OrderJournal,
    refusal: 'expired' | 'revoked',
    known: ReadonlySet<string> = new Set(),
  ) =>
    run(
      venueTaking(false, refusal),
      accepted,
      [ETH],
      FAULTS_UNTIL,
      undefined,
      journal,
      () => undefined,
      known,
    ).list.map((v) => v.invariant);
  expect(invariants(past, 'revoked')).toEqual([]);
  expect(invariants(under, 'revoked')).toEqual(['durable']);
  // Told by a 401 (or its credential file) and not holding the key refused: the bot's fault.
  const told = new Set([newest.credentials.signerAddress.toLowerCase()]);
  expect(invariants(past, 'revoked', told)).toEqual(['durable']);
  // Expired is another matter: the bot renews on its own clock, whatever it sends.
  expect(invariants(past, 'expired')).toEqual(['durable']);
  past.close();
  under.close();
});

it('asks nothing of a healing phase shorter than FULL_HEALING_MS (a bot that trades may have no order yet, a refused key no successor)', () => {
  const shortHealing = END - FULL_HEALING_MS + 1;
  expect(run(venueTaking(false), [], [ETH], shortHealing).list).toEqual([]);
  expect(run(venueTaking(false), [], [ETH], shortHealing - 1).list).toHaveLength(2);
});

it('leaves a schedule that ended without a bot to I4 (converged.ts says so)', () => {
  const violations = new ViolationLog(7, new Trace(), () => END);
  checkHealed({
    bot: undefined,
    venue: venueTaking(false),
    accepted: new Map(),
    marketIds: [ETH],
    faultsUntil: FAULTS_UNTIL,
    journal: undefined,
    days: new DayBaselines(DAILY_LOSS_LIMIT),
    markOf: () => undefined,
    refusalsKnown: new Set(),
    now: END,
    violations,
  });
  expect(violations.list).toEqual([]);
});

it('counts credentials expired at the venue at a step of the healing phase, after its first 10 s (I5)', () => {
  const at = (
    healedMs: number,
    venue: HealedInput['venue'],
    bot: HealedInput['bot'] = botKnowing(),
  ): ViolationLog => {
    const violations = new ViolationLog(7, new Trace(), () => FAULTS_UNTIL + healedMs);
    checkRenewedWhileHealed(bot, venue, healedMs, violations);
    return violations;
  };
  // Renewals the faults held up get 10 s; during the faults nothing is asked.
  expect(at(-5_000, venueTaking(false)).list).toEqual([]);
  expect(at(RENEWED_AFTER_FAULTS_MS - 1, venueTaking(false)).list).toEqual([]);
  const late = at(RENEWED_AFTER_FAULTS_MS, venueTaking(false));
  expect(late.list.map((v) => [v.invariant, v.detail])).toEqual([
    [
      'durable',
      `10000 ms after the faults stopped, the bot's newest credentials (signing key ${newest.credentials.signerAddress}) have expired at the venue: not renewed before their expiry`,
    ],
  ]);
  // A revoked key is the end check's: the bot learns of it at its next request.
  expect(at(60_000, venueTaking(false, 'revoked')).list).toEqual([]);
  expect(at(60_000, venueTaking(true)).list).toEqual([]);
  expect(
    at(60_000, { checkCredentials: () => ({ ok: false, reason: 'expired' }) }).list,
  ).toHaveLength(1);
  // A key the bot knows was refused may wait to be replaced (refusal-spacing.ts): the end's.
  expect(at(60_000, venueTaking(false), botKnowing(20_000)).list).toEqual([]);
  expect(at(60_000, venueTaking(false), undefined).list).toHaveLength(1);
  const noBot = new ViolationLog(7, new Trace(), () => FAULTS_UNTIL + 60_000);
  checkRenewedWhileHealed(undefined, venueTaking(false), 60_000, noBot);
  expect(noBot.list).toEqual([]);
});

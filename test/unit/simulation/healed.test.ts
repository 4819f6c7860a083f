/**
 * The checks at the end of a schedule besides I4 (src/simulation/healed.ts): after the healing
 * phase the venue takes the bot's newest credentials (I5: renewed before they expire), and the
 * venue accepted some order of the bot since the faults stopped (it trades until the end).
 */
import { expect, it } from 'vitest';
import { checkHealed, type HealedInput } from '../../../src/simulation/healed.ts';
import { ViolationLog } from '../../../src/simulation/invariants.ts';
import { Trace } from '../../../src/simulation/trace.ts';
import type { ActiveCredential } from '../../../src/account/credential-manager.ts';
import type { CredentialCheck } from '../../../src/paper/credential-store.ts';

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

/** A venue that takes `key-2`/`secret-2` only, with `refusal` as its reason otherwise. */
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

function run(venue: HealedInput['venue'], acceptedAt: readonly number[]): ViolationLog {
  const violations = new ViolationLog(7, new Trace(), () => END);
  checkHealed({
    bot: { credentials: { current: () => newest } },
    venue,
    accepted: new Map(
      acceptedAt.map((at, i) => [`0x${i}`, { venueOrderId: i, signature: `0x${i}`, at }]),
    ),
    faultsUntil: FAULTS_UNTIL,
    now: END,
    violations,
  });
  return violations;
}

it('holds for a bot whose newest credentials the venue takes and whose orders it accepted after the faults', () => {
  const venue = venueTaking(true);
  expect(run(venue, [10_000, FAULTS_UNTIL, 590_000]).list).toEqual([]);
  // It asked the venue about the newest credentials, not the bot's own view of them.
  expect(venue.asked).toEqual(['key-2/secret-2']);
});

it('counts newest credentials the venue refuses at the end as not renewed (I5)', () => {
  for (const reason of ['expired', 'revoked'] as const) {
    const { list } = run(venueTaking(false, reason), [FAULTS_UNTIL + 1]);
    expect(list.map((v) => v.invariant)).toEqual(['durable']);
    expect(list[0]!.detail).toBe(
      `120000 ms after the faults stopped, the venue refuses the bot's newest credentials (signing key ${newest.credentials.signerAddress}) as ${reason}: not renewed in time`,
    );
  }
});

it('counts a bot none of whose orders the venue accepted after the faults stopped', () => {
  const { list } = run(venueTaking(true), [1_000, FAULTS_UNTIL - 1]);
  expect(list.map((v) => v.invariant)).toEqual(['starts']);
  expect(list[0]!.detail).toBe(
    'the venue accepted no order of the bot in the 120000 ms after the faults stopped',
  );
});

it('leaves a schedule that ended without a bot to I4 (converged.ts says so)', () => {
  const violations = new ViolationLog(7, new Trace(), () => END);
  checkHealed({
    bot: undefined,
    venue: venueTaking(false),
    accepted: new Map(),
    faultsUntil: FAULTS_UNTIL,
    now: END,
    violations,
  });
  expect(violations.list).toEqual([]);
});

/**
 * The venue refuses the newest key while a renewal is registering its successor (an order or a
 * lookup sent with it met a 401): the refusal the listeners get says a registration is under way
 * (`registering`, which the alert and the log word; unit tests check their words), and the
 * successor signs once registered.
 */
import { afterEach, expect, it } from 'vitest';
import type { CredentialRefusal } from '../../../src/account/credential-manager.ts';
import { settle } from '../../helpers/manual-timer.ts';
import { MARGIN_MS, startAccountHarness, TTL_MS, type AccountHarness } from './helpers.ts';

let harness: AccountHarness | undefined;
afterEach(async () => {
  await harness?.close();
});

it('a refusal that meets a registration under way is marked registering; the successor then signs', async () => {
  harness = await startAccountHarness();
  const h = harness;
  let hold = false;
  let release!: () => void;
  const asked = { count: 0 };
  const manager = h.manager(undefined, {
    // The renewal's registration waits here for its permit until the test lets it go.
    takePermit: async () => {
      asked.count += 1;
      if (hold) await new Promise<void>((resolve) => (release = resolve));
      return { release: () => undefined };
    },
  });
  const first = (await manager.ensure()).credential;
  const refusals: CredentialRefusal[] = [];
  manager.onRefused((refusal) => refusals.push(refusal));

  // Within the renewal margin: a renewal starts and holds before its request.
  h.clock.now += TTL_MS - MARGIN_MS + 1;
  hold = true;
  const renewal = manager.ensure();
  await settle();
  expect(asked.count).toBe(2);

  manager.refused(first.credentials.signerAddress);
  expect(refusals).toHaveLength(1);
  expect(refusals[0]).toMatchObject({
    signer: first.credentials.signerAddress,
    newest: true,
    registering: true,
  });
  expect(manager.signingRefusal()).toBeDefined();

  release();
  const { credential, registered } = await renewal;
  expect(registered).toBe(true);
  expect(credential.credentials.signerAddress).not.toBe(first.credentials.signerAddress);
  expect(manager.signingRefusal()).toBeUndefined();

  // Refused again with nothing under way: the usual wording's fields.
  manager.refused(credential.credentials.signerAddress);
  expect(refusals[1]).toMatchObject({ newest: true, registering: false });
});

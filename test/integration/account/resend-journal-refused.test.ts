/**
 * Issue 31's open defect: an order whose resend could not be journaled (the disk refused the
 * attempt's write, then the outcome's) was left SENT: not counted against the limits, never
 * looked up again, while the venue had filled it in the run before the crash. Now it stays
 * counted at full size and is looked up by its signature on every poll, and once the disk takes
 * writes again its row and the bot's position become the venue's. The order path is real: a
 * paper venue on port 0, the CredentialManager, the HTTP venue client and signer the bot uses,
 * the dispatcher, the executor and a journal file; only the clock is the test's, and the disk
 * fault is the simulator's (src/simulation/sim-disk.ts): SQLite's full-disk error thrown by
 * the journal's write methods while it lasts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { privateKeyToAddress } from 'viem/accounts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CredentialManager } from '../../../src/account/credential-manager.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import type { Snapshot } from '../../../src/market/snapshot.ts';
import { journalWithDiskFaults } from '../../../src/simulation/sim-disk.ts';
import { httpVenueClient } from '../../../src/venue/http-venue-client.ts';
import {
  WALLET_KEY,
  firstSnapshot,
  orderPath,
  startAccountHarness,
  type AccountHarness,
} from './helpers.ts';

let h: AccountHarness;
let dir: string;
let credentials: CredentialManager;
let snapshot: Snapshot;

beforeEach(async () => {
  h = await startAccountHarness();
  dir = mkdtempSync(join(tmpdir(), 'quanta-resend-refused-'));
  credentials = h.manager();
  await credentials.ensure();
  snapshot = await firstSnapshot(h);
});

afterEach(async () => {
  rmSync(dir, { recursive: true, force: true });
  await h.close();
});

/** `journal`, its writes refused with SQLite's full-disk error while `full.on`. */
function onAFullDisk(journal: OrderJournal, full: { on: boolean }): OrderJournal {
  const disk = { kind: 'full', from: 0, to: 0 } as const;
  const nothing = (): void => undefined;
  return journalWithDiskFaults(journal, () => (full.on ? disk : undefined), nothing, nothing);
}

it('a resend whose attempt and outcome the journal refused is looked up by its signature and booked once the disk is back', async () => {
  const path = join(dir, 'journal.sqlite');
  const http = httpVenueClient({ read: h.connection, write: h.connection, credentials });
  // Run 1: the order reaches the venue (a MARKET buy: filled at once), then the process dies
  // before the answer is back. Its row is SENT with one attempt.
  let landed: () => void = () => undefined;
  const reachedTheVenue = new Promise<void>((resolve) => (landed = resolve));
  const first = OrderJournal.open(path);
  const crashed = orderPath(h, credentials, first, {
    createOrder: async (request, signal) => {
      await http.createOrder(request, signal);
      landed();
      return new Promise(() => undefined);
    },
  });
  await crashed.submit(
    'dca',
    { marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.01' },
    snapshot,
  );
  await reachedTheVenue;
  expect(first.all()[0]).toMatchObject({ state: 'SENT', attempts: 1 });
  first.close();

  // Run 2 starts on a full disk: recovery resends the same bytes, but the attempt's write is
  // refused (nothing leaves), and so is the outcome's.
  const full = { on: true };
  const file = OrderJournal.open(path);
  const restarted = orderPath(h, credentials, onAFullDisk(file, full), http, {
    lookupOrder: http.getOrder,
    ...(http.findOrder === undefined ? {} : { findOrder: http.findOrder }),
  });
  restarted.recover(snapshot.markets.values());
  await restarted.settle();
  expect(h.venue.requestCount('/api/v1/order')).toBe(1);
  // Its outcome is not known: it counts at full size against the limits.
  expect(restarted.stats().unresolvedOrders).toBe(1);

  // The disk takes writes again; the next poll looks the order up by its signature.
  full.on = false;
  await restarted.refreshOpenOrders();
  const [row] = file.all();
  const accountId = `1_${privateKeyToAddress(WALLET_KEY).toLowerCase()}_1`;
  const venueOrder = h.venue.engine.getOrder(accountId, row?.venueOrderId ?? -1);
  expect(row).toMatchObject({ state: 'FILLED', filledX18: 10n ** 16n });
  expect(venueOrder).toMatchObject({ status: 'FILLED', totalFilledX18: 10n ** 16n });
  expect(restarted.positions.amountX18(1)).toBe(10n ** 16n);
  expect(restarted.stats().unresolvedOrders).toBe(0);
  file.close();
});

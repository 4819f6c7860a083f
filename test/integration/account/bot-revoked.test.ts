/**
 * A whole bot (startBot, the dca strategy buying every poll, a virtual clock) whose credentials
 * the paper venue revokes, twice in a row: the end-to-end view of what
 * revoked-credentials.test.ts checks part by part. After the first 401 no order goes out with
 * that key and a new key registers at the next poll; after the second, soon after, the bot
 * refuses intents `CREDENTIALS` for the 10 s wait, says so in `/readyz`'s reasons,
 * `GET /status` and the `quanta_credentials_can_sign` gauge, then registers a third key and
 * fills again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log/logger.ts';
import { startPaperVenue, type PaperVenue } from '../../../src/paper/index.ts';
import type { BotWithParts } from '../../../src/runtime/bot.ts';
import type { BotStatus } from '../../../src/runtime/control/status-json.ts';
import { accountIdOf, startOrderProxy, type OrderProxy } from '../runtime/harness.ts';
import { WALLET_ENV, botConfig, runBotFor } from './bot-run.ts';
import { T0, WALLET_KEY, type TestClock } from './helpers.ts';

const AUTH = '/api/v1/auth';

let clock: TestClock;
let venue: PaperVenue;
let proxy: OrderProxy;
let dir: string;

beforeEach(async () => {
  clock = { now: T0 };
  venue = await startPaperVenue({ port: 0, seed: 5, clock: () => clock.now });
  proxy = await startOrderProxy(venue.url, () => 'forward');
  dir = mkdtempSync(join(tmpdir(), 'quanta-bot-revoked-'));
});

afterEach(async () => {
  await proxy.close();
  await venue.close();
  rmSync(dir, { recursive: true, force: true });
});

it('a bot whose keys are revoked twice in a row: no order with a refused key, intents refused CREDENTIALS for the wait, a third key, fills again', async () => {
  const accountId = accountIdOf(WALLET_KEY);
  const config = botConfig(dir, {
    venueUrl: proxy.url,
    stateDir: join(dir, 'state'),
    control: true,
  });
  let bot: BotWithParts | undefined;
  const statusAfter = new Map<number, BotStatus>();
  const authAfter = new Map<number, number>();
  const canSignAfter = new Map<number, string>();
  const revoked: number[] = [];
  const POLLS = 20;
  const { rows } = await runBotFor(
    {
      config,
      env: { [WALLET_ENV]: WALLET_KEY },
      log: silentLogger,
      clock,
      polls: POLLS,
      afterPoll: async (n) => {
        if (bot === undefined) return;
        statusAfter.set(n, bot.status());
        authAfter.set(n, venue.requestCount(AUTH));
        const metrics = await (await fetch(`${bot.controlUrl ?? ''}/metrics`)).text();
        canSignAfter.set(n, /^quanta_credentials_can_sign (\d+)$/m.exec(metrics)?.[1] ?? '');
        // The key of the first registration, then the one registered after its refusal.
        if (n === 2 || n === 4) revoked.push(venue.revokeCredentials(accountId));
      },
    },
    (started) => (bot = started),
  );

  // One credential pair revoked each time; a status after every poll.
  expect(revoked).toEqual([1, 1]);
  expect([...statusAfter.keys()]).toHaveLength(POLLS);

  // Keys in the order the proxy saw them carry orders; each key's first 401 is its last order.
  const signers = [...new Set(proxy.orders.map((o) => o.signer))];
  expect(signers).toHaveLength(3);
  for (const signer of signers) {
    const answered = proxy.statuses.filter((_, i) => proxy.orders[i]?.signer === signer);
    const refusedAt = answered.indexOf(401);
    if (signer === signers[2]) expect(refusedAt).toBe(-1);
    else expect(refusedAt).toBe(answered.length - 1);
  }
  expect(proxy.statuses.filter((status) => status === 401)).toHaveLength(2);

  // Poll 3's order met the first revocation: a new key registered at the next poll, at once.
  const afterFirst = statusAfter.get(3);
  expect(afterFirst?.credentials).toMatchObject({
    signer: signers[0],
    canSign: false,
    refusedKeys: 1,
    newKeyAfter: afterFirst?.at,
  });
  expect(afterFirst?.notReadyReasons.join('; ')).toContain('orders cannot be signed');
  expect(authAfter.get(4)).toBe((authAfter.get(3) ?? 0) + 1);
  expect(statusAfter.get(4)?.credentials).toMatchObject({ signer: signers[1], canSign: true });

  // Poll 5's order met the second, soon after: 10 s on the monotonic clock before a new key.
  const afterSecond = statusAfter.get(5);
  expect(afterSecond?.credentials).toMatchObject({
    signer: signers[1],
    canSign: false,
    refusedKeys: 2,
  });
  const newKeyAfter = Date.parse(afterSecond?.credentials.newKeyAfter ?? '');
  expect(newKeyAfter - Date.parse(afterSecond?.at ?? '')).toBe(10_000);
  const waiting = [...statusAfter].filter(
    ([, s]) => s.credentials.signer === signers[1] && !s.credentials.canSign,
  );
  // Polls 1 s apart: from poll 5's refusal to the new key at poll 15.
  expect(waiting.map(([n]) => n)).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
  for (const [n, status] of waiting) {
    expect(status.ready).toBe(false);
    expect(canSignAfter.get(n)).toBe('0');
  }
  expect(canSignAfter.get(4)).toBe('1');
  expect(canSignAfter.get(POLLS)).toBe('1');
  // Every poll of the wait after the refused order refused its intent before signing it.
  expect(statusAfter.get(POLLS)?.refused.CREDENTIALS).toBe(9);
  expect(authAfter.get(POLLS)).toBe((authAfter.get(5) ?? 0) + 1);
  expect(statusAfter.get(POLLS)?.credentials).toMatchObject({
    signer: signers[2],
    canSign: true,
    refusedKeys: 2,
    newKeyAfter: null,
  });
  expect(statusAfter.get(POLLS)?.ready).toBe(true);

  // Every journaled order reached the venue with a key it had not refused, and filled; the two
  // refused ones are journaled as the venue's refusal, nothing left unresolved.
  const filled = rows.filter((r) => r.state === 'FILLED');
  expect(filled.length).toBe(proxy.orders.length - 2);
  expect(rows.length).toBe(proxy.orders.length);
  expect(rows.filter((r) => r.state !== 'FILLED').map((r) => r.error ?? '')).toEqual([
    expect.stringContaining('revoked'),
    expect.stringContaining('revoked'),
  ]);
});

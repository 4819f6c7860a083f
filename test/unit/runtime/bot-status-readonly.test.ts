/**
 * `quanta status` reads an embedded paper bot's state without touching it: the bot empties
 * `paper/` at its own start (statePaths), a reader must not (it once did, through statePaths).
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CredentialStore } from '../../../src/account/credential-store.ts';
import { parseConfig } from '../../../src/config/index.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { readBotStatus } from '../../../src/runtime/bot-status.ts';
import { credentialsPathOf, journalPathOf } from '../../../src/runtime/state-paths.ts';

const SIGNER = '0x45f8924221D9Da55123C8E2569A52f0622Ec663D';
/** A service secret's shape (64 hex digits), not a real one. */
const SECRET = 'b'.repeat(64);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quanta-status-readonly-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('leaves an embedded bot journal and credential file as they were, mode included', () => {
  const config = parseConfig(
    [
      'venue: { writeUrl: embedded, readUrl: embedded }',
      `state: { dir: ${JSON.stringify(join(dir, 'state'))} }`,
      'strategies: [{ module: strategies/dca.ts, markets: [ETH-USD] }]',
    ].join('\n'),
    'bot.yaml',
    dir,
  );
  const journalPath = join(dir, 'state', 'paper', 'journal.sqlite');
  const credentialsPath = join(dir, 'state', 'paper', 'credentials.json');
  OrderJournal.open(journalPath).close();
  new CredentialStore(credentialsPath).save(
    {
      venue: 'http://127.0.0.1:1',
      brokerId: 1,
      subaccountId: '1_0x45f8924221d9da55123c8e2569a52f0622ec663d_1',
      signerAddress: SIGNER,
      signingPrivateKey: `0x${'1'.repeat(64)}`,
      serviceKey: 'a'.repeat(32),
      serviceSecret: SECRET,
      expiryTs: Date.parse('2100-01-01T00:00:00Z'),
      nonce: 0,
      refusedAt: Date.parse('2099-12-31T00:00:00Z'),
    },
    0,
  );
  chmodSync(credentialsPath, 0o644);
  const before = readFileSync(credentialsPath, 'utf8');

  const status = readBotStatus(config);

  expect(existsSync(journalPath)).toBe(true);
  expect(readFileSync(credentialsPath, 'utf8')).toBe(before);
  expect(statSync(credentialsPath).mode & 0o777).toBe(0o644);
  expect(status.credentials).toEqual({
    file: credentialsPath,
    keys: [
      {
        signer: SIGNER,
        venue: 'http://127.0.0.1:1',
        expiresAt: '2100-01-01T00:00:00.000Z',
        refusedAt: '2099-12-31T00:00:00.000Z',
      },
    ],
    error: null,
  });
  expect(JSON.stringify(status)).not.toContain(SECRET);
  // The paths the bot writes (statePaths), found without emptying anything.
  expect(journalPathOf(config.state.dir, config.venue)).toBe(journalPath);
  expect(credentialsPathOf(config.state.dir, config.venue)).toBe(credentialsPath);
});

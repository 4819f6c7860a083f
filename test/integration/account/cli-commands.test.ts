/**
 * `quanta register` and `quanta markets` as child processes (`node bin/quanta.js …`) against a
 * paper venue started here on port 0, a stub that refuses credentials, and a closed port: exit
 * codes of docs/design.md §5 (0, 1, 2, 3) and messages that say what to do. The children run concurrently
 * in `beforeAll` (each start costs seconds); the tests then read their results.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialStore, type StoredCredential } from '../../../src/account/credential-store.ts';
import { startPaperVenue, type PaperVenue } from '../../../src/paper/index.ts';
import { listMarkets } from '../../../src/venue/endpoints/index.ts';
import { closedPortUrl, sendJson, startStubServer } from '../../helpers/stub-server.ts';
import { WALLET_ENV, writeBotConfig } from './bot-run.ts';
import { quanta, type CliResult } from './cli.ts';
import { WALLET_KEY } from './helpers.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const step of cleanups.reverse()) await step();
});

/** A config in its own temp dir pointing at `url`. */
function configFor(url: string): { path: string; stateDir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'quanta-cli-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const stateDir = join(dir, 'state');
  return { path: writeBotConfig(dir, { venueUrl: url, stateDir }), stateDir };
}

/** Hides what changes from run to run: temp paths, ports, dates, random keys. */
function normalize(text: string, replacements: Readonly<Record<string, string>> = {}): string {
  let out = text;
  for (const [from, to] of Object.entries(replacements)) out = out.split(from).join(to);
  return out
    .replace(/\/[^\s]*\/quanta-cli-[^/\s]+/g, '<tmp>')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<date>');
}

const withKey = { [WALLET_ENV]: WALLET_KEY };

let venue: PaperVenue;
let results: {
  register: CliResult;
  registerAgain: CliResult;
  noWalletKey: CliResult;
  refused: CliResult;
  unreachable: CliResult;
  marketsJson: CliResult;
  marketsTable: CliResult;
};
let authAfterFirst = -1;
let stored: StoredCredential[] = [];
let refusedUrl = '';
let unreachableUrl = '';

beforeAll(async () => {
  // The children register with the real clock, so the venue reads it too.
  venue = await startPaperVenue({ port: 0, seed: 21 });
  cleanups.push(() => venue.close());
  const refusing = await startStubServer({
    'POST /api/v1/auth': (_req, res) =>
      sendJson(res, 401, { body: null, message: 'broker 1 is not allowed', status: 401 }),
  });
  cleanups.push(() => refusing.close());
  refusedUrl = refusing.url;
  unreachableUrl = await closedPortUrl();

  const paper = configFor(venue.url);
  const refusedConfig = configFor(refusing.url);
  const unreachableConfig = configFor(unreachableUrl);
  const [registers, noWalletKey, refused, unreachable, marketsJson, marketsTable] =
    await Promise.all([
      (async () => {
        const first = await quanta(['register', '--config', paper.path], withKey);
        authAfterFirst = venue.requestCount('/api/v1/auth');
        const again = await quanta(['register', '--config', paper.path], withKey);
        return [first, again] as const;
      })(),
      quanta(['register', '--config', configFor(venue.url).path], { [WALLET_ENV]: undefined }),
      quanta(['register', '--config', refusedConfig.path], withKey),
      quanta(['register', '--config', unreachableConfig.path], withKey),
      quanta(['markets', '--config', paper.path, '--json']),
      quanta(['markets', '--config', paper.path]),
    ]);
  results = {
    register: registers[0],
    registerAgain: registers[1],
    noWalletKey,
    refused,
    unreachable,
    marketsJson,
    marketsTable,
  };
  stored = new CredentialStore(join(paper.stateDir, 'credentials.json')).load();
}, 300_000);

describe('quanta register', () => {
  it('exit 0, prints the service key and never the secret', () => {
    const { code, stdout, stderr } = results.register;
    expect(code, stderr).toBe(0);
    expect(authAfterFirst).toBe(1);
    expect(stored).toHaveLength(1);
    const [credential] = stored;
    if (credential === undefined) return;
    expect(stdout).toContain(credential.serviceKey);
    expect(`${stdout}${stderr}`.toLowerCase()).not.toContain(credential.serviceSecret);
    expect(
      normalize(stdout, {
        [credential.serviceKey]: '<service key>',
        [credential.signerAddress]: '<signer>',
      }),
    ).toMatchInlineSnapshot(`
      "registered subaccount 1_0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC_1
        service key: <service key>
        signer:      <signer>
        expires:     <date>
        stored in:   <tmp>/state/credentials.json (mode 0600; the secret is never printed)
      "
    `);
  });

  it('a second run reuses the stored credentials without calling the venue', () => {
    const { code, stdout, stderr } = results.registerAgain;
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^reusing stored credentials for subaccount 1_0x[0-9a-fA-F]{40}_1\n/);
    expect(stdout).toContain(stored[0]?.serviceKey);
    expect(venue.requestCount('/api/v1/auth')).toBe(1);
  });

  it('wallet key variable unset → exit 2 naming the variable', () => {
    const { code, stdout, stderr } = results.noWalletKey;
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(WALLET_ENV);
    expect(stderr).toMatchInlineSnapshot(`
      "quanta: environment variable QUANTA_ACCOUNT_TEST_WALLET_KEY is not set
      Export the wallet's private key as QUANTA_ACCOUNT_TEST_WALLET_KEY (wallet.privateKeyEnv in the config names the variable).
      "
    `);
  });

  it('a venue that refuses the credentials (401) → exit 3', () => {
    const { code, stdout, stderr } = results.refused;
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(normalize(stderr)).toMatchInlineSnapshot(`
      "quanta: venue refused the credentials for POST /api/v1/auth (401): broker 1 is not allowed
      check venue.brokerId, venue.subaccount and the wallet key named by wallet.privateKeyEnv
      "
    `);
  });

  it('an unreachable venue → exit 1 naming the URL and venue.writeUrl', () => {
    const { code, stdout, stderr } = results.unreachable;
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(unreachableUrl);
    expect(stderr).toContain('venue.writeUrl');
    expect(normalize(stderr)).toMatchInlineSnapshot(`
      "quanta: venue unreachable at http://127.0.0.1:<port> for POST /api/v1/auth: connection refused (ECONNREFUSED)
      check that the venue runs there and that venue.writeUrl/readUrl point at it
      "
    `);
    expect(refusedUrl).not.toBe(unreachableUrl);
  });
});

describe('quanta markets', () => {
  it('--json prints the parsed markets, bigints as exact decimal strings', async () => {
    const { code, stdout, stderr } = results.marketsJson;
    expect(code, stderr).toBe(0);
    const printed = JSON.parse(stdout) as Record<string, unknown>[];
    const expected = (await listMarkets({ baseUrl: venue.url, timeoutMs: 5000 }))
      .sort((a, b) => a.id - b.id)
      .map((m) =>
        Object.fromEntries(
          Object.entries(m).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]),
        ),
      );
    expect(printed).toEqual(expected);
    expect(printed.map((m) => m.symbol)).toEqual([
      'ETH-USD',
      'ETH-USDC',
      'BTC-USD',
      'SOL-USD',
      'TSLA-USD',
    ]);
    expect(printed[0]).toMatchObject({
      id: 1,
      amountExpo: 9,
      priceExpo: 6,
      minAmountX18: '100000000000000',
      maxPositionValueX18: '1000000000000000000000000000',
      takerFeeX18: '500000000000000',
    });
  });

  it('the table shows human decimals', () => {
    const { code, stdout, stderr } = results.marketsTable;
    expect(code, stderr).toBe(0);
    expect(stdout.split('\n')[0]).toMatchInlineSnapshot(
      `"ID   SYMBOL    TYPE       ACTIVE  MIN AMOUNT  AMOUNT STEP  PRICE STEP  MAX POSITION VALUE  MAKER  TAKER  IMF   MMF"`,
    );
    expect(stdout).toMatchInlineSnapshot(`
      "ID   SYMBOL    TYPE       ACTIVE  MIN AMOUNT  AMOUNT STEP  PRICE STEP  MAX POSITION VALUE  MAKER  TAKER  IMF   MMF
      1    ETH-USD   PERPETUAL  yes     0.0001      0.000000001  0.000001    1000000000          5 bp   5 bp   5%    2%
      2    ETH-USDC  SPOT       yes     0.001       0.000000001  0.000001    1000000             1 bp   2 bp   100%  100%
      3    BTC-USD   PERPETUAL  yes     0.0001      0.000001     0.1         1000000000          5 bp   5 bp   5%    2%
      5    SOL-USD   PERPETUAL  yes     0.01        0.000000001  0.000001    1000000             2 bp   5 bp   10%   5%
      103  TSLA-USD  PERPETUAL  yes     0.001       0.000000001  0.000001    1000000             2 bp   5 bp   10%   5%
      "
    `);
  });
});

describe('quanta output', () => {
  it('no command prints the service secret, the signing key or the wallet key', () => {
    const secrets = [
      WALLET_KEY,
      ...stored.flatMap((c) => [c.serviceSecret, c.signingPrivateKey]),
    ].map((s) => s.replace(/^0x/, '').toLowerCase());
    expect(secrets).toHaveLength(3);
    for (const [name, result] of Object.entries(results)) {
      const text = `${result.stdout}\n${result.stderr}`.toLowerCase();
      for (const secret of secrets) expect(text.includes(secret), name).toBe(false);
    }
  });
});

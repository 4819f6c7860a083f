/**
 * Issue 5, "Done when" 3: every line a full register-and-trade run writes — the bot's pino JSON
 * lines through a Writable, and the output of `quanta register` and `quanta markets` run as
 * child processes — is searched for the service secret, the wallet private key and the signing
 * private key, in either letter case and without `0x`. None may appear.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialStore, type StoredCredential } from '../../../src/account/credential-store.ts';
import { summarizeError } from '../../../src/errors/index.ts';
import { createLogger } from '../../../src/log/logger.ts';
import { startPaperVenue, type PaperVenue } from '../../../src/paper/index.ts';
import { createOrder, getOrder } from '../../../src/venue/endpoints/index.ts';
import { sendJson, startStubServer, type StubServer } from '../../helpers/stub-server.ts';
import { WALLET_ENV, botConfig, captureStream, runBotFor, writeBotConfig } from './bot-run.ts';
import { quanta, type CliResult } from './cli.ts';
import {
  MARGIN_MS,
  MINUTE_MS,
  T0,
  TTL_MS,
  WALLET_KEY,
  marketBuy,
  signWith,
  type TestClock,
} from './helpers.ts';

/** Every spelling of a hex secret a leak could take. */
function spellings(secret: string): string[] {
  const bare = secret.replace(/^0x/i, '');
  return [...new Set([secret, bare, bare.toLowerCase(), bare.toUpperCase()])];
}

/** Asserts that no spelling of any secret occurs in `text` (compared case-insensitively too). */
function expectNoSecret(text: string, secrets: Readonly<Record<string, string>>, where: string) {
  const lower = text.toLowerCase();
  for (const [name, secret] of Object.entries(secrets)) {
    for (const spelling of spellings(secret)) {
      expect(text.includes(spelling), `${name} in ${where}`).toBe(false);
    }
    expect(lower.includes(secret.replace(/^0x/i, '').toLowerCase()), `${name} in ${where}`).toBe(
      false,
    );
  }
}

/** The secrets a credential file holds: each service secret and signing key. */
function secretsOf(stored: readonly StoredCredential[]): Record<string, string> {
  const secrets: Record<string, string> = {};
  stored.forEach((c, i) => {
    secrets[`service secret #${i} (nonce ${c.nonce})`] = c.serviceSecret;
    secrets[`signing private key #${i} (nonce ${c.nonce})`] = c.signingPrivateKey;
  });
  return secrets;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const step of cleanups.reverse()) await step();
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('no secret in any log line of a register-and-trade run', () => {
  let logText = '';
  let stored: StoredCredential[] = [];
  let errorTexts: string[] = [];
  let echoStub: StubServer;

  beforeAll(async () => {
    const clock: TestClock = { now: T0 };
    const venue = await startPaperVenue({ port: 0, seed: 11, clock: () => clock.now });
    cleanups.push(() => venue.close());
    const dir = tempDir('quanta-no-secrets-');
    const capture = captureStream();
    const log = createLogger({ level: 'trace', destination: capture.stream });
    const config = botConfig(dir, {
      venueUrl: venue.url,
      stateDir: join(dir, 'state'),
      credentialTtlMs: TTL_MS,
      renewMarginMs: MARGIN_MS,
      logLevel: 'trace',
    });
    // A run long enough to register, trade, renew past the margin and trade on.
    await runBotFor({
      config,
      env: { [WALLET_ENV]: WALLET_KEY },
      log,
      clock,
      polls: 5,
      afterPoll: (n) => {
        if (n === 2) clock.now = T0 + TTL_MS - MARGIN_MS + MINUTE_MS;
      },
    });
    stored = new CredentialStore(join(dir, 'state', 'credentials.json')).load();

    // 401 and 400 answers that echo the credential headers, met with the run's real credential;
    // the errors are logged the way the runtime logs them, and also whole.
    echoStub = await startStubServer({
      'POST /api/v1/order': (req, res) =>
        sendJson(res, 401, {
          body: null,
          message: `unknown credentials ${String(req.headers['service-key'])}/${String(req.headers['service-secret'])}`,
          status: 401,
        }),
      'GET /api/v1/order/7': (req, res) =>
        sendJson(res, 400, {
          error: `bad request, secret ${String(req.headers['service-secret']).toUpperCase()}`,
        }),
    });
    cleanups.push(() => echoStub.close());
    const newest = stored[0];
    if (newest === undefined) throw new Error('the run stored no credential');
    const credential = {
      credentials: {
        brokerId: newest.brokerId,
        serviceKey: newest.serviceKey,
        serviceSecret: newest.serviceSecret,
        signerAddress: newest.signerAddress,
        headerPrefix: 'Service-',
      },
      signingPrivateKey: newest.signingPrivateKey as `0x${string}`,
      subaccountId: newest.subaccountId,
      expiryTs: newest.expiryTs,
    };
    const connection = { baseUrl: echoStub.url, timeoutMs: 5000 };
    const failures = await Promise.all([
      createOrder(
        connection,
        credential.credentials,
        await signWith(credential, marketBuy(clock.now)),
      ).catch((e: unknown) => e),
      getOrder(connection, credential.credentials, 7).catch((e: unknown) => e),
    ]);
    errorTexts = failures.map((e) =>
      [
        e instanceof Error ? e.message : String(e),
        JSON.stringify(e),
        inspect(e, { depth: 20, showHidden: true }),
      ].join('\n'),
    );
    for (const e of failures) {
      log.error({ err: summarizeError(e) }, 'order call failed');
      log.error({ err: e }, 'order call failed (whole error)');
    }
    logText = capture.text();
  });

  it('the run did what it should: two registrations, orders, the renewal in the logs', () => {
    expect(stored.map((c) => c.nonce)).toEqual([1, 0]);
    const lines = logText.trim().split('\n');
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
    expect(lines.filter((l) => l.includes('registered a new signing key'))).toHaveLength(2);
    expect(logText).toMatch(/"msg":"order \d+: BUY [\d.]+ ETH-USD MARKET"/);
    // The echoing stub did see the secret, so the errors below had a chance to carry it.
    expect(echoStub.requests.map((r) => r.headers['service-secret'])).toEqual([
      stored[0]?.serviceSecret,
      stored[0]?.serviceSecret,
    ]);
    // The search works: the public service keys are logged, in the same text.
    for (const c of stored) expect(logText).toContain(c.serviceKey);
  });

  it('no service secret, wallet key or signing key in the captured log', () => {
    expectNoSecret(logText, { 'wallet private key': WALLET_KEY, ...secretsOf(stored) }, 'the log');
  });

  it('no service secret in the errors of 401 / 400 answers that echo it', () => {
    expect(errorTexts).toHaveLength(2);
    for (const text of errorTexts) {
      expect(text).toContain('[redacted]');
      expectNoSecret(text, secretsOf(stored), 'an error');
    }
  });
});

describe('no secret in the output of quanta register and quanta markets', () => {
  let venue: PaperVenue;
  let outputs: Record<string, CliResult>;
  let stored: StoredCredential[];

  beforeAll(async () => {
    // The children register with the real clock, so this venue reads it too.
    venue = await startPaperVenue({ port: 0, seed: 5 });
    cleanups.push(() => venue.close());
    const dir = tempDir('quanta-no-secrets-cli-');
    const configPath = writeBotConfig(dir, { venueUrl: venue.url, stateDir: join(dir, 'state') });
    const env = { [WALLET_ENV]: WALLET_KEY };
    const [register, markets] = await Promise.all([
      quanta(['register', '--config', configPath], env),
      quanta(['markets', '--config', configPath], env),
    ]);
    outputs = { register, markets };
    stored = new CredentialStore(join(dir, 'state', 'credentials.json')).load();
  }, 300_000);

  it('each command succeeded and the credential file holds the secret', () => {
    for (const [name, result] of Object.entries(outputs)) {
      expect(result.code, `${name}: ${result.stderr}`).toBe(0);
    }
    expect(stored).toHaveLength(1);
    expect(outputs.register?.stdout).toContain(stored[0]?.serviceKey);
  });

  it('no spelling of a secret in stdout or stderr', () => {
    const secrets = { 'wallet private key': WALLET_KEY, ...secretsOf(stored) };
    for (const [name, result] of Object.entries(outputs)) {
      expectNoSecret(`${result.stdout}\n${result.stderr}`, secrets, `quanta ${name}`);
    }
  });
});

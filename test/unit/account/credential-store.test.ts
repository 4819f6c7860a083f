import {
  chmodSync,
  linkSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CredentialStore, type StoredCredential } from '../../../src/account/credential-store.ts';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';

const T0 = Date.parse('2026-03-02T12:00:00Z');

function credential(n: number, overrides: Partial<StoredCredential> = {}): StoredCredential {
  const hex = (length: number) => n.toString(16).padStart(1, '0').repeat(length).slice(0, length);
  return {
    venue: 'http://127.0.0.1:4000',
    brokerId: 1,
    subaccountId: '1_0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC_1',
    signerAddress: `0x${hex(40)}`,
    signingPrivateKey: `0x${hex(64)}`,
    serviceKey: hex(32),
    serviceSecret: hex(64),
    expiryTs: T0 + 60_000 * n,
    nonce: n,
    ...overrides,
  };
}

let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quanta-store-'));
  path = join(dir, 'state', 'credentials.json');
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const mode = (p: string): number => statSync(p).mode & 0o777;

function caught(run: () => unknown): QuantaError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(QuantaError);
    return error as QuantaError;
  }
  return expect.fail('expected a QuantaError');
}

describe('CredentialStore', () => {
  it('loads nothing when the file does not exist', () => {
    expect(new CredentialStore(path).load()).toEqual([]);
  });

  it('saves with mode 0600 in a 0700 folder it creates, newest first', () => {
    const store = new CredentialStore(path);
    store.save(credential(1), T0);
    store.save(credential(2), T0);
    expect(mode(path)).toBe(0o600);
    expect(mode(dirname(path))).toBe(0o700);
    expect(store.load().map((c) => c.nonce)).toEqual([2, 1]);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ version: 1 });
  });

  it('drops credentials that have expired and a re-saved signer', () => {
    const store = new CredentialStore(path);
    store.save(credential(1), T0);
    store.save(credential(2), T0);
    // At T0 + 90 s credential 1 (expiry T0 + 60 s) has expired; 2 (T0 + 120 s) has not.
    store.save(credential(3), T0 + 90_000);
    expect(store.load().map((c) => c.nonce)).toEqual([3, 2]);
    // Saving the same signer again replaces the earlier entry instead of doubling it.
    store.save(credential(3, { serviceKey: 'f'.repeat(32) }), T0 + 90_000);
    expect(store.load().map((c) => [c.nonce, c.serviceKey])).toEqual([
      [3, 'f'.repeat(32)],
      [2, '2'.repeat(32)],
    ]);
  });

  it('replaces the file by rename: a reader holding the old file sees it whole', () => {
    const store = new CredentialStore(path);
    store.save(credential(1), T0);
    const before = readFileSync(path, 'utf8');
    // A hard link keeps the old inode; an in-place rewrite would change what it shows.
    linkSync(path, join(dir, 'old-link.json'));
    store.save(credential(2), T0);
    expect(readFileSync(join(dir, 'old-link.json'), 'utf8')).toBe(before);
    expect(readFileSync(path, 'utf8')).not.toBe(before);
    // No temp file is left behind.
    expect(readdirSync(dirname(path))).toEqual(['credentials.json']);
  });

  it('tightens a file that was left readable by others back to 0600', () => {
    const store = new CredentialStore(path);
    store.save(credential(1), T0);
    chmodSync(path, 0o644);
    expect(store.load()).toHaveLength(1);
    expect(mode(path)).toBe(0o600);
  });

  it('a corrupt file → CREDENTIAL_STORE naming the path, never quoting the content', () => {
    const store = new CredentialStore(path);
    store.save(credential(1), T0);
    const secret = credential(1).serviceSecret;
    writeFileSync(path, readFileSync(path, 'utf8').slice(0, 300));
    const error = caught(() => store.load());
    expect(error.code).toBe(ErrorCodes.CREDENTIAL_STORE);
    expect(error.message).toBe(
      `credential file ${path} is unreadable\nDelete it to register a fresh signing key (the registration nonce is recovered from the venue).`,
    );
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(secret.slice(0, 16));
  });

  it('a file of the wrong shape → CREDENTIAL_STORE, never quoting a value', () => {
    const secret = 'a'.repeat(63);
    writeFileSync(
      join(dir, 'x.json'),
      JSON.stringify({ version: 1, credentials: [{ ...credential(1), serviceSecret: secret }] }),
    );
    const error = caught(() => new CredentialStore(join(dir, 'x.json')).load());
    expect(error.code).toBe(ErrorCodes.CREDENTIAL_STORE);
    expect(error.shortMessage).toBe(
      `credential file ${join(dir, 'x.json')} is not in the expected format`,
    );
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(secret);
  });
});

import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readWalletKey } from '../../../src/account/wallet-key.ts';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';

const KEY = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';

function caught(run: () => unknown): QuantaError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(QuantaError);
    return error as QuantaError;
  }
  return expect.fail('expected a QuantaError');
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quanta-wallet-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('readWalletKey', () => {
  it('reads the variable the config names, with or without 0x, trimmed', () => {
    expect(readWalletKey('MY_KEY', { MY_KEY: KEY })).toBe(KEY);
    expect(readWalletKey('MY_KEY', { MY_KEY: KEY.slice(2) })).toBe(KEY);
    expect(readWalletKey('MY_KEY', { MY_KEY: ` ${KEY}\n` })).toBe(KEY);
  });

  it('reads only that variable: the default name does not stand in for it', () => {
    const error = caught(() => readWalletKey('MY_KEY', { QUANTA_WALLET_KEY: KEY }));
    expect(error.code).toBe(ErrorCodes.WALLET_KEY_MISSING);
    expect(error.message).toMatchInlineSnapshot(`
      "environment variable MY_KEY is not set
      Export the wallet's private key as MY_KEY (wallet.privateKeyEnv in the config names the variable)."
    `);
  });

  it('an empty variable counts as unset', () => {
    expect(caught(() => readWalletKey('MY_KEY', { MY_KEY: '' })).code).toBe(
      ErrorCodes.WALLET_KEY_MISSING,
    );
  });

  it('a value that is not a key → WALLET_KEY_MISSING without quoting it', () => {
    const almost = KEY.slice(0, 60);
    const error = caught(() => readWalletKey('MY_KEY', { MY_KEY: almost }));
    expect(error.code).toBe(ErrorCodes.WALLET_KEY_MISSING);
    expect(error.message).toBe(
      'environment variable MY_KEY does not hold a private key\nExpected 64 hex digits, with or without 0x.',
    );
    expect(error.message).not.toContain(almost.slice(2, 20));
  });

  it('paper only: a throwaway key is generated once into a 0600 file and reused', () => {
    const file = join(dir, 'paper-wallet.key');
    const first = readWalletKey('MY_KEY', {}, file);
    expect(first).toMatch(/^0x[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(readWalletKey('MY_KEY', {}, file)).toBe(first);
    // The variable, when set, wins over the file.
    expect(readWalletKey('MY_KEY', { MY_KEY: KEY }, file)).toBe(KEY);
  });
});

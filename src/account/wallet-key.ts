import { existsSync, readFileSync } from 'node:fs';
import type { Hex } from 'viem';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { systemPrivateKey } from '../clock/entropy.ts';

const PRIVATE_KEY = /^(0x)?[0-9a-fA-F]{64}$/;

/**
 * Reads the wallet private key from the environment variable the config names
 * (`wallet.privateKeyEnv`). The key only ever comes from there.
 *
 * @param paperKeyFile - for a fully embedded paper venue only (`statePaths` gives it only then):
 *   when the variable is unset, a throwaway key is generated once and kept in this file (0600)
 *   so restarts reuse the same subaccount. Without it an unset variable is an error: a real
 *   venue, or one embedded for a single API, never gets a generated key.
 * @throws QuantaError `QUANTA_WALLET_KEY_MISSING` naming the variable (never its value).
 */
export function readWalletKey(envName: string, env: NodeJS.ProcessEnv, paperKeyFile?: string): Hex {
  const value = env[envName];
  if (value !== undefined && value !== '') {
    if (!PRIVATE_KEY.test(value.trim())) {
      throw new QuantaError(
        ErrorCodes.WALLET_KEY_MISSING,
        `environment variable ${envName} does not hold a private key`,
        {
          details: ['Expected 64 hex digits, with or without 0x.'],
        },
      );
    }
    const key = value.trim();
    return (key.startsWith('0x') ? key : `0x${key}`) as Hex;
  }
  if (paperKeyFile === undefined) {
    throw new QuantaError(
      ErrorCodes.WALLET_KEY_MISSING,
      `environment variable ${envName} is not set`,
      {
        details: [
          `Export the wallet's private key as ${envName} (wallet.privateKeyEnv in the config names the variable).`,
        ],
      },
    );
  }
  if (existsSync(paperKeyFile)) {
    const stored = readFileSync(paperKeyFile, 'utf8').trim();
    if (PRIVATE_KEY.test(stored)) return stored as Hex;
  }
  const generated = systemPrivateKey();
  writeFileAtomic(paperKeyFile, `${generated}\n`);
  return generated;
}

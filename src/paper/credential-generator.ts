import { createHash } from 'node:crypto';
import { systemRandomHex } from '../clock/entropy.ts';
import type { ServiceCredentials } from '../venue/types.ts';

/** Makes one fresh credential pair: a 32 and a 64 lowercase hex string (docs/trading-service-api.md §2.3). */
export type CredentialGenerator = () => ServiceCredentials;

/**
 * A source of credential pairs. Without a seed it draws from the operating system's CSPRNG.
 * With a seed it is deterministic (SHA-256 of the seed and a counter), so a seeded paper venue
 * gives the same answers on every run; such credentials are test values, not secrets.
 *
 * @param seed - a non-negative safe integer, or undefined for random credentials.
 * @example
 * const next = createCredentialGenerator(7);
 * next(); // { serviceKey: '…32 hex…', serviceSecret: '…64 hex…' }, the same on every run
 */
export function createCredentialGenerator(seed?: number): CredentialGenerator {
  if (seed === undefined) {
    return () => ({
      serviceKey: systemRandomHex(16),
      serviceSecret: systemRandomHex(32),
    });
  }
  let issued = 0;
  const digest = (part: string): string =>
    createHash('sha256').update(`quanta-paper-credentials:${seed}:${issued}:${part}`).digest('hex');
  return () => {
    issued += 1;
    return { serviceKey: digest('key').slice(0, 32), serviceSecret: digest('secret') };
  };
}

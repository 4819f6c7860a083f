import { createHash } from 'node:crypto';

/**
 * The Redis key prefix of an account's shared budget: one per venue (its write URL) and wallet
 * account (broker id and wallet address, so every subaccount and every signing key of the
 * wallet shares it). Only a hash reaches Redis: the key says nothing about the account, and no
 * secret is ever part of it.
 *
 * @example
 * budgetKey('https://api.venue.example', 1, '0xAbC…') // 'quanta:rate:3f1c…' (32 hex digits)
 */
export function budgetKey(writeUrl: string, brokerId: number, walletAddress: string): string {
  const identity = `${new URL(writeUrl).origin}\n${brokerId}\n${walletAddress.toLowerCase()}`;
  return `quanta:rate:${createHash('sha256').update(identity).digest('hex').slice(0, 32)}`;
}

/** A Redis URL fit for logs and status: scheme, host, port and database, never a password. */
export function redisLabel(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}

import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { writeFileAtomic } from './atomic-write.ts';

const hex = (length: number) => z.string().regex(new RegExp(`^[0-9a-f]{${length}}$`));

const storedCredentialSchema = z
  .object({
    venue: z.string(),
    brokerId: z.number().int().nonnegative(),
    subaccountId: z.string(),
    signerAddress: z.string(),
    signingPrivateKey: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
    serviceKey: hex(32),
    serviceSecret: hex(64),
    expiryTs: z.number().int(),
    nonce: z.number().int().nonnegative(),
    /**
     * When the venue refused this credential (a 401: revoked): never used again, kept only for
     * its nonce (the next registration's is one more) until it expires.
     */
    refusedAt: z.number().int().optional(),
  })
  .strict();

/** One registered signing key and the credential pair the venue issued for it. */
export type StoredCredential = z.infer<typeof storedCredentialSchema>;

const fileSchema = z.object({
  version: z.literal(1),
  /** Newest first: the current credential, then earlier ones kept until they expire. */
  credentials: z.array(storedCredentialSchema),
});

/**
 * The credential file (`<state.dir>/credentials.json`, mode 0600, written atomically). It holds
 * service secrets and signing keys: it is never logged, and errors about it never quote it.
 */
export class CredentialStore {
  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  /**
   * Every stored credential, newest first (empty when the file does not exist).
   * @param options.tightenMode - make a file others can read 0600 (default; off for read-only
   *   readers such as `quanta status`).
   * @throws QuantaError `QUANTA_CREDENTIAL_STORE` for an unreadable or corrupt file.
   */
  load({ tightenMode = true }: { readonly tightenMode?: boolean } = {}): StoredCredential[] {
    if (!existsSync(this.path)) return [];
    let parsed: unknown;
    try {
      if (tightenMode && (statSync(this.path).mode & 0o077) !== 0) chmodSync(this.path, 0o600);
      parsed = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch (cause) {
      throw new QuantaError(
        ErrorCodes.CREDENTIAL_STORE,
        `credential file ${this.path} is unreadable`,
        {
          cause: cause instanceof SyntaxError ? undefined : cause,
          details: [
            'Delete it to register a fresh signing key (the registration nonce is recovered from the venue).',
          ],
        },
      );
    }
    const result = fileSchema.safeParse(parsed);
    if (!result.success) {
      throw new QuantaError(
        ErrorCodes.CREDENTIAL_STORE,
        `credential file ${this.path} is not in the expected format`,
        {
          details: ['Delete it to register a fresh signing key.'],
        },
      );
    }
    return result.data.credentials;
  }

  /** Marks the credential of signing key `signer` refused at `now` (see `refusedAt`). */
  markRefused(signer: string, now: number): void {
    const all = this.load();
    const key = signer.toLowerCase();
    if (!all.some((c) => c.signerAddress.toLowerCase() === key && c.refusedAt === undefined))
      return;
    const marked = all.map((c) =>
      c.signerAddress.toLowerCase() === key && c.refusedAt === undefined
        ? { ...c, refusedAt: now }
        : c,
    );
    writeFileAtomic(this.path, `${JSON.stringify({ version: 1, credentials: marked }, null, 2)}\n`);
  }

  /** Puts `credential` first and keeps earlier ones that are still valid at `now`. */
  save(credential: StoredCredential, now: number): void {
    const kept = this.load().filter(
      (c) => c.expiryTs > now && c.signerAddress !== credential.signerAddress,
    );
    writeFileAtomic(
      this.path,
      `${JSON.stringify({ version: 1, credentials: [credential, ...kept] }, null, 2)}\n`,
    );
  }
}

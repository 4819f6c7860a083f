import type { IncomingHttpHeaders } from 'node:http';
import type { PaperContext } from './context.ts';
import { headerValue } from './credential-headers.ts';
import type { Session } from './credential-store.ts';
import { fail, type Reply } from './reply.ts';

/** The session behind a request's credential headers, or the 401/403 reply. */
export type Authentication =
  { readonly ok: true; readonly session: Session } | { readonly ok: false; readonly reply: Reply };

/**
 * Checks the credential headers of docs/conventions.md §4.1 (all but the signature): `Broker-Id`, key,
 * secret and signer address must be present (401), the key and secret an issued, unexpired pair
 * (401), and the broker id and signer address those the pair was issued for (403). Messages
 * name headers and never quote a header's value: a misplaced secret must not come back.
 */
export function authenticate(headers: IncomingHttpHeaders, context: PaperContext): Authentication {
  const names = context.headerNames;
  const brokerId = headerValue(headers, names.brokerId);
  const key = headerValue(headers, names.key);
  const secret = headerValue(headers, names.secret);
  const signer = headerValue(headers, names.signer);
  if (brokerId === undefined || key === undefined || secret === undefined || signer === undefined) {
    const missing = [
      brokerId === undefined ? names.brokerId : undefined,
      key === undefined ? names.key : undefined,
      secret === undefined ? names.secret : undefined,
      signer === undefined ? names.signer : undefined,
    ].filter((name) => name !== undefined);
    return {
      ok: false,
      reply: fail(401, `missing credentials: ${missing.join(', ')} header required`),
    };
  }

  const now = context.clock();
  const check = context.credentials.check(key, secret, now);
  if (!check.ok) {
    return {
      ok: false,
      reply:
        check.reason === 'expired'
          ? fail(401, 'credentials expired: register a signing key again for a fresh pair')
          : check.reason === 'revoked'
            ? fail(401, 'credentials revoked: register a signing key again for a fresh pair')
            : fail(
                401,
                `unknown credentials: ${names.key} and ${names.secret} are not an issued pair`,
              ),
    };
  }
  const { session } = check;
  if (brokerId !== session.brokerId.toString()) {
    return {
      ok: false,
      reply: fail(
        403,
        `${names.brokerId} does not match the broker the credentials were issued to`,
      ),
    };
  }
  if (signer.toLowerCase() !== session.signer.toLowerCase()) {
    return {
      ok: false,
      reply: fail(403, `${names.signer} is not the signing key the credentials were issued to`),
    };
  }
  return { ok: true, session };
}

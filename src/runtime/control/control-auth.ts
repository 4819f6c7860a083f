import { createHmac, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { locatedLine, type Config, type ConfigSource } from '../../config/index.ts';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';

/** The control section with its defaults applied. */
export type ControlConfig = NonNullable<Config['control']>;

/** Whether `host` only ever reaches this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare === 'localhost' || bare === '::1') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (bare.toLowerCase().startsWith('::ffff:')) return isLoopbackHost(bare.slice(7));
  return false;
}

/** What a request may do: `act` (every route) or `watch` (reads only). */
export type ControlRole = 'act' | 'watch';

/** The tokens of a control server: `act` may do everything, `watch` (optional) only read. */
export interface ControlTokens {
  readonly act: string;
  readonly watch?: string;
}

/**
 * The bearer tokens requests to the control server must carry, or undefined when none is asked
 * for (loopback without `tokenEnv`: every request may act).
 *
 * @throws QuantaError `QUANTA_CONTROL_TOKEN_MISSING` (exit 2) when the server would listen
 *   beyond loopback without a token, `tokenEnv` or `readTokenEnv` names an unset or empty
 *   variable, `readTokenEnv` is set without `tokenEnv` (there would be nothing a read-only token
 *   is kept from), or both name the same token: anyone who can reach the port could otherwise
 *   halt or flatten the bot.
 */
export function controlTokens(
  control: ControlConfig,
  env: NodeJS.ProcessEnv,
  source?: ConfigSource,
): ControlTokens | undefined {
  const { host, tokenEnv, readTokenEnv } = control;
  if (tokenEnv === undefined) {
    if (readTokenEnv !== undefined)
      throw new QuantaError(
        ErrorCodes.CONTROL_TOKEN_MISSING,
        locatedLine(
          source,
          ['control', 'readTokenEnv'],
          'a read-only token needs control.tokenEnv: without it every request may act',
        ),
        { details: ['Set control.tokenEnv to the NAME of the variable holding the full token.'] },
      );
    if (isLoopbackHost(host)) return undefined;
    throw new QuantaError(
      ErrorCodes.CONTROL_TOKEN_MISSING,
      locatedLine(
        source,
        ['control', 'host'],
        `${host} is not loopback: the control server needs a bearer token (control.tokenEnv)`,
      ),
      {
        details: [
          'Set control.tokenEnv to the NAME of an environment variable and export a long random token in it,',
          'or bind control.host to 127.0.0.1.',
        ],
      },
    );
  }
  const act = tokenFrom(env, tokenEnv, 'tokenEnv', source);
  if (readTokenEnv === undefined) return { act };
  const watch = tokenFrom(env, readTokenEnv, 'readTokenEnv', source);
  if (watch === act)
    throw new QuantaError(
      ErrorCodes.CONTROL_TOKEN_MISSING,
      locatedLine(
        source,
        ['control', 'readTokenEnv'],
        `${readTokenEnv} holds the same token as ${tokenEnv}: a read-only token must differ`,
      ),
    );
  return { act, watch };
}

function tokenFrom(
  env: NodeJS.ProcessEnv,
  name: string,
  key: 'tokenEnv' | 'readTokenEnv',
  source: ConfigSource | undefined,
): string {
  const token = env[name];
  if (token === undefined || token.trim() === '') {
    throw new QuantaError(
      ErrorCodes.CONTROL_TOKEN_MISSING,
      locatedLine(
        source,
        ['control', key],
        `names ${name}, which is not set: the control server will not start without its token`,
      ),
      { details: [`export ${name}=<a long random token>`] },
    );
  }
  return token;
}

/** Whether an `Authorization` header carries `Bearer <token>` (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (header === undefined) return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (match?.[1] === undefined) return false;
  return sameText(match[1], token);
}

function sameText(given: string, wanted: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(wanted, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The name of the page's session cookie. */
export const SESSION_COOKIE = 'quanta_session';

/**
 * The session cookie's value for a token: an HMAC of a fixed text keyed by the token, so the
 * cookie is never the token itself (a cookie leaks where a header does not: a proxy's log, a
 * browser profile), it stays valid across restarts without a session table, and changing the
 * token ends every session.
 */
export function sessionValue(token: string): string {
  return createHmac('sha256', token).update('quanta control page session v1').digest('base64url');
}

/** The `Set-Cookie` header that opens a page session: HttpOnly, SameSite=Strict, path /. */
export function sessionCookie(token: string): string {
  return `${SESSION_COOKIE}=${sessionValue(token)}; HttpOnly; SameSite=Strict; Path=/`;
}

/** The `Set-Cookie` header that ends a page session. */
export const ENDED_SESSION_COOKIE = `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`;

function cookieOf(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * What a request may do, from its bearer token or its page session cookie; undefined when it
 * carries neither valid one. Without tokens (loopback, no `tokenEnv`) every request may act.
 */
export function roleOf(
  headers: { readonly authorization?: string | undefined; readonly cookie?: string | undefined },
  tokens: ControlTokens | undefined,
): ControlRole | undefined {
  if (tokens === undefined) return 'act';
  if (bearerMatches(headers.authorization, tokens.act)) return 'act';
  if (tokens.watch !== undefined && bearerMatches(headers.authorization, tokens.watch))
    return 'watch';
  const session = cookieOf(headers.cookie, SESSION_COOKIE);
  if (session === undefined) return undefined;
  if (sameText(session, sessionValue(tokens.act))) return 'act';
  if (tokens.watch !== undefined && sameText(session, sessionValue(tokens.watch))) return 'watch';
  return undefined;
}

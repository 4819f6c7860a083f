import { timingSafeEqual } from 'node:crypto';
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

/**
 * The bearer token requests to the control server must carry, or undefined when none is asked
 * for (loopback without `tokenEnv`).
 *
 * @throws QuantaError `QUANTA_CONTROL_TOKEN_MISSING` (exit 2) when the server would listen
 *   beyond loopback without a token, or `tokenEnv` names an unset or empty variable: anyone who
 *   can reach the port could otherwise halt or flatten the bot.
 */
export function controlToken(
  control: ControlConfig,
  env: NodeJS.ProcessEnv,
  source?: ConfigSource,
): string | undefined {
  const { host, tokenEnv } = control;
  if (tokenEnv === undefined) {
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
  const token = env[tokenEnv];
  if (token === undefined || token.trim() === '') {
    throw new QuantaError(
      ErrorCodes.CONTROL_TOKEN_MISSING,
      locatedLine(
        source,
        ['control', 'tokenEnv'],
        `names ${tokenEnv}, which is not set: the control server will not start without its token`,
      ),
      { details: [`export ${tokenEnv}=<a long random token>`] },
    );
  }
  return token;
}

/** Whether an `Authorization` header carries `Bearer <token>` (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (header === undefined) return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (match?.[1] === undefined) return false;
  const given = Buffer.from(match[1], 'utf8');
  const wanted = Buffer.from(token, 'utf8');
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

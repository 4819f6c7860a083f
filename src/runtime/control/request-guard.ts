import type { IncomingMessage, ServerResponse } from 'node:http';
import { isLoopbackHost } from './control-auth.ts';

/**
 * The header every state-changing request must carry. A browser sends a custom header
 * cross-site only after a CORS preflight, which this server never answers with CORS headers:
 * so a page of another site can neither send it nor a JSON body, and a plain form cannot.
 */
export const REQUEST_HEADER = 'x-quanta-request';

/**
 * Sent with every answer: scripts and styles only from this server (none inline), no framing
 * (clickjacking a halt button), no MIME sniffing, no referrer, nothing cached.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** Sets {@link SECURITY_HEADERS} on an answer not yet sent. */
export function setSecurityHeaders(res: ServerResponse): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
}

/** Why a request is refused before it is routed: its HTTP status and a sentence. */
export interface Refusal {
  readonly status: number;
  readonly message: string;
}

const READ_METHODS = new Set(['GET', 'HEAD']);

/** The host part of a `Host` header (`[::1]:9464` → `[::1]`). */
function hostName(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

/**
 * Refuses what another site could make a browser send (cross-site request forgery), before any
 * token is looked at:
 * - without a token (loopback), a `Host` that is not a loopback name: a page of another site
 *   that rebinds its own name to 127.0.0.1 would otherwise be same-origin with this server;
 * - a state-changing request that a browser marks as coming from another origin
 *   (`Sec-Fetch-Site`, `Origin`), that is not JSON (`content-type`: HTML forms cannot send
 *   JSON), or that lacks {@link REQUEST_HEADER}.
 * Undefined when the request may go on.
 */
export function crossSiteRefusal(req: IncomingMessage, tokenless: boolean): Refusal | undefined {
  const host = req.headers.host;
  if (tokenless && (host === undefined || !isLoopbackHost(hostName(host))))
    return {
      status: 403,
      message: `Host ${host ?? '(none)'} is not a loopback name: refused (control.tokenEnv unset)`,
    };
  if (READ_METHODS.has(req.method ?? 'GET')) return undefined;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none')
    return { status: 403, message: `cross-site request refused (Sec-Fetch-Site: ${site})` };
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${host ?? ''}`)
    return { status: 403, message: `cross-origin request refused (Origin: ${origin})` };
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type))
    return {
      status: 415,
      message: `expected content-type: application/json, got ${type === '' ? 'none' : type}`,
    };
  if (req.headers[REQUEST_HEADER] === undefined)
    return { status: 403, message: `missing header ${REQUEST_HEADER}: 1 (sent by quanta's page)` };
  return undefined;
}

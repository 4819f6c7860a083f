/**
 * Credentials (service key and secret, signatures) travel in request headers, so they may only
 * go over TLS, or over plain http to this machine (the embedded paper venue).
 */
import { ErrorCodes, QuantaError } from '../../errors/index.ts';

const IPV4_LOOPBACK = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/**
 * True when `hostname` (as `URL` normalises it) names this machine: `localhost`, 127.0.0.0/8 or
 * `[::1]`.
 *
 * @param hostname - a `URL.hostname`.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || IPV4_LOOPBACK.test(host);
}

/** The last base URL found fit for credentials (almost always the only one). */
let lastAllowed: string | undefined;

/**
 * Refuses a base URL that would send credentials in clear text: plain `http:` to anything but a
 * loopback host, or a URL that is not http(s) at all. Call it before any request that carries
 * credential headers.
 *
 * @param baseUrl - the venue base URL (e.g. `venue.writeUrl`).
 * @throws QuantaError `INSECURE_TRANSPORT` naming the URL's origin and telling to use https.
 * @example
 * ```ts
 * assertCredentialTransport('http://127.0.0.1:8080')   // fine: loopback
 * assertCredentialTransport('https://venue.example')   // fine: TLS
 * assertCredentialTransport('http://venue.example')    // throws INSECURE_TRANSPORT
 * ```
 */
export function assertCredentialTransport(baseUrl: string): void {
  // The same URL on every order: checked once (the verdict is a function of the string).
  if (baseUrl === lastAllowed) return;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new QuantaError(
      ErrorCodes.INSECURE_TRANSPORT,
      'venue URL is not a valid URL; refusing to send credentials to it',
      { details: ['set venue.writeUrl to an https:// URL'] },
    );
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    lastAllowed = baseUrl;
    return;
  }
  const shown = `${url.protocol}//${url.host}`;
  const why =
    url.protocol === 'http:' ? 'is plain http to a non-loopback host' : 'is not an http(s) URL';
  throw new QuantaError(
    ErrorCodes.INSECURE_TRANSPORT,
    `venue URL ${shown} ${why}; refusing to send credentials over it, use https://${url.host}`,
    { details: ['plain http is allowed only to localhost, 127.0.0.0/8 and [::1]'] },
  );
}

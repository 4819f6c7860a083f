import type { IncomingHttpHeaders } from 'node:http';

/*
 * How the simulated network reads a request as the bot's `fetch` call gave it, as undici would:
 * header names lowercased, the URL's path and query.
 */

/** The request's headers as the venue receives them: names lowercased, in `Headers`' order. */
export function lowerHeaders(init: RequestInit | undefined): IncomingHttpHeaders {
  const given = init?.headers;
  const headers: IncomingHttpHeaders = {};
  if (given !== undefined && !(given instanceof Headers) && !Array.isArray(given)) {
    // A plain record (what venue/http/request.ts sends, names and values checked there):
    // names lowercased, in Headers' order (sorted), as `new Headers(...)` gives them, without
    // building one; anything Headers would change otherwise (a name twice, a value to trim)
    // goes through Headers.
    const entries = Object.entries(given as Record<string, string>).map(
      ([name, value]): [string, string] => [name.toLowerCase(), value],
    );
    const names = new Set(entries.map(([name]) => name));
    if (names.size === entries.length && entries.every(([, value]) => value === value.trim())) {
      entries.sort(([a], [b]) => (a < b ? -1 : 1));
      for (const [name, value] of entries) headers[name] = value;
      return headers;
    }
  }
  new Headers(given).forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

/** The path and query of an absolute URL, as `new URL` splits them. */
export function pathAndSearch(input: string | URL | Request): { path: string; search: string } {
  const href = input instanceof Request ? input.url : String(input);
  // venue/http/request.ts sends `URL.href`s: already normalized, nothing after a `#`.
  const origin = /^https?:\/\/[^/?#]*/.exec(href);
  if (origin !== null && !href.includes('#')) {
    const rest = href.slice(origin[0].length);
    const at = rest.indexOf('?');
    const path = at === -1 ? rest : rest.slice(0, at);
    if (path.startsWith('/') && !/[%\\]|\/\.\.?(\/|$)/.test(path))
      return { path, search: at === -1 || at === rest.length - 1 ? '' : rest.slice(at) };
  }
  const url = new URL(href);
  return { path: url.pathname, search: url.search };
}

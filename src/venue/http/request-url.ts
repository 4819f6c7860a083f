import { requestError } from './request-parts.ts';

/** Query parameters of a request; undefined values are left out. */
export type VenueQuery = Readonly<Record<string, string | number | boolean | undefined>>;

// Base URLs and order paths are few and sent again and again: parsed and built once each.
const CACHE_MAX = 32;
const bases = new Map<string, { base: URL; shownUrl: string }>();
const urls = new Map<string, string>();

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(key, value);
  return value;
}

/** The parsed base URL and how errors show it (no user, no query), parsed once per base. */
export function knownBase(baseUrl: string, endpoint: string): { base: URL; shownUrl: string } {
  const known = bases.get(baseUrl);
  if (known !== undefined) return known;
  const base = parseBaseUrl(baseUrl, endpoint);
  return remember(bases, baseUrl, {
    base,
    shownUrl: base.origin + base.pathname.replace(/\/+$/, ''),
  });
}

/** The URL of `path` below `base` without query parameters, built once per base and path. */
export function knownUrl(base: URL, baseUrl: string, path: string): string {
  const key = `${baseUrl} ${path}`;
  return urls.get(key) ?? remember(urls, key, buildUrl(base, path, undefined));
}

/**
 * The URL of `path` below `base` with `query` appended: what {@link buildUrl} gives, without
 * parsing a URL per request. The path part comes from {@link knownUrl}; the query is serialized
 * as `URLSearchParams` serializes it, which is what `buildUrl`'s `searchParams.append` does. A
 * path that carries its own `?` goes through `buildUrl` (its query is parsed and re-serialized).
 */
export function requestUrl(
  base: URL,
  baseUrl: string,
  path: string,
  query: VenueQuery | undefined,
): string {
  if (path.includes('?')) return buildUrl(base, path, query);
  const url = knownUrl(base, baseUrl, path);
  let search: URLSearchParams | undefined;
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) (search ??= new URLSearchParams()).append(key, String(value));
  }
  return search === undefined ? url : `${url}?${search.toString()}`;
}

function parseBaseUrl(baseUrl: string, endpoint: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw requestError(
      endpoint,
      `venue URL ${baseUrl.replace(/\/\/[^/@]*@/, '//')} is not an http(s) URL`,
      'check venue.writeUrl/readUrl',
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw requestError(
      endpoint,
      `venue URL ${url.host} carries a user name or password`,
      'remove user:password@ from venue.writeUrl/readUrl',
    );
  }
  return url;
}

/** The URL of `path` below `base` (a path prefix kept) with `query` appended. */
export function buildUrl(base: URL, path: string, query: VenueQuery | undefined): string {
  const url = new URL(base.href);
  const [pathname = '', search] = path.split('?', 2);
  url.pathname =
    base.pathname.replace(/\/+$/, '') + (pathname.startsWith('/') ? '' : '/') + pathname;
  url.search = search ?? '';
  url.hash = '';
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.append(key, String(value));
  }
  return url.href;
}

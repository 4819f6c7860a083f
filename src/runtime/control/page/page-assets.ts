import { LOGIN_SCRIPT } from './login-script.ts';
import { LOGIN_HTML, PAGE_HTML } from './page-html.ts';
import { PAGE_SCRIPT } from './page-script.ts';
import { PAGE_STYLE } from './page-style.ts';

/** A file of the live page: its content type and text. */
export interface PageAsset {
  readonly type: string;
  readonly body: string;
}

/**
 * The live page's files, shipped in the package as strings (no build step for users, nothing
 * fetched at run time, no inline script or style: the CSP allows only these).
 */
const ASSETS: ReadonlyMap<string, PageAsset> = new Map([
  ['/', { type: 'text/html; charset=utf-8', body: PAGE_HTML }],
  ['/login', { type: 'text/html; charset=utf-8', body: LOGIN_HTML }],
  ['/assets/page.js', { type: 'text/javascript; charset=utf-8', body: PAGE_SCRIPT }],
  ['/assets/login.js', { type: 'text/javascript; charset=utf-8', body: LOGIN_SCRIPT }],
  ['/assets/page.css', { type: 'text/css; charset=utf-8', body: PAGE_STYLE }],
]);

/** The page file at `path`, if there is one. */
export function pageAsset(path: string): PageAsset | undefined {
  return ASSETS.get(path);
}

/**
 * What a request without a token may get, and which file answers it: the sign-in form (in
 * place of the page) and what the form needs. Nothing here holds data about the bot.
 */
export const LOGIN_PATHS: ReadonlyMap<string, string> = new Map([
  ['/', '/login'],
  ['/login', '/login'],
  ['/assets/login.js', '/assets/login.js'],
  ['/assets/page.css', '/assets/page.css'],
]);

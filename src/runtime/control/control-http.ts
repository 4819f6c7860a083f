import type { IncomingMessage, ServerResponse } from 'node:http';
import { systemTimer } from '../../clock/timers.ts';
import type { PageAsset } from './page/page-assets.ts';
import { setSecurityHeaders } from './request-guard.ts';

const MAX_BODY_BYTES = 4096;
const BODY_TIMEOUT_MS = 5000;

/** A request the control server refuses: its HTTP status and the message of its JSON answer. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The request's path, or `undefined` for a target that is not a URL (an absolute-form target
 * such as `http://[x`, which the HTTP parser lets through and `new URL` throws on).
 */
export function pathOf(req: IncomingMessage): string | undefined {
  const target = req.url ?? '/';
  return URL.canParse(target, 'http://control')
    ? new URL(target, 'http://control').pathname
    : undefined;
}

/** Answers `body` as indented JSON, never cached, with the security headers. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = `${JSON.stringify(body, null, 2)}\n`;
  setSecurityHeaders(res);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Answers one of the live page's files, with the security headers. */
export function sendAsset(res: ServerResponse, status: number, asset: PageAsset): void {
  setSecurityHeaders(res);
  res.writeHead(status, {
    'content-type': asset.type,
    'content-length': Buffer.byteLength(asset.body),
  });
  res.end(asset.body);
}

/**
 * The request's JSON body (`undefined` when empty), read within 5 s and 4096 bytes.
 *
 * @throws HttpProblem 413 for a larger body, 400 for one that is not JSON.
 */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  const cancelTimer = systemTimer(BODY_TIMEOUT_MS, () => req.destroy());
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES)
        throw new HttpProblem(413, `body larger than ${MAX_BODY_BYTES} bytes`);
      chunks.push(chunk);
    }
  } finally {
    cancelTimer();
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpProblem(400, 'body is not JSON');
  }
}

import type { IncomingMessage } from 'node:http';

/** The paper venue's request body cap (docs/conventions.md §2): 64 KiB. */
export const MAX_BODY_BYTES = 64 * 1024;

/** What reading a request body gave. */
export type BodyReadResult =
  | { readonly kind: 'complete'; readonly bytes: Buffer }
  /** The body is (or announced itself as) larger than the cap; reading stopped there. */
  | { readonly kind: 'too-large' }
  /** The client went away before the body ended; there is nobody to answer. */
  | { readonly kind: 'aborted' };

/**
 * Reads a request body up to `limitBytes`. A body that announces a larger `Content-Length` is
 * refused without reading a byte, and a longer chunked body is refused as soon as it passes the
 * cap: the rest is never buffered.
 */
export function readBody(req: IncomingMessage, limitBytes: number): Promise<BodyReadResult> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > limitBytes) {
    return Promise.resolve({ kind: 'too-large' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyReadResult): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onGone);
      req.off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limitBytes) {
        finish({ kind: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => finish({ kind: 'complete', bytes: Buffer.concat(chunks, size) });
    const onGone = (): void => finish({ kind: 'aborted' });
    const onClose = (): void => {
      if (!req.complete) finish({ kind: 'aborted' });
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onGone);
    req.on('close', onClose);
  });
}

import type { ServerResponse } from 'node:http';

/**
 * Writes a test proxy's answer: status, body and content type, and the venue's `Date` when the
 * answer is the venue's own (a bot reads the venue's clock from it; a proxy's own Date would be
 * the wall clock). Nothing once the answer has started or the socket is gone.
 */
export function writeProxyAnswer(
  res: ServerResponse,
  status: number,
  text: string,
  type = 'application/json',
  date?: string | null,
): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { 'content-type': type, ...(date == null ? {} : { date }) });
  res.end(text);
}

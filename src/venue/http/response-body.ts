/** Thrown by `readCapped` when the body goes past the cap (caught by the request, never escapes). */
export const CAP_HIT = Symbol('response cap hit');

/** The body as text, read chunk by chunk; stops (CAP_HIT) past `maxBytes` or when `signal` fires. */
export async function readCapped(
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
): Promise<string> {
  if (response.body === null) return '';
  // Node's types leave the chunk type open; fetch bodies are bytes.
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const onAbort = (): void => {
    reader.cancel().catch(() => undefined);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  const decoder = new TextDecoder('utf-8');
  let size = 0;
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- internal sentinel, caught right above
        throw CAP_HIT;
      }
      text += decoder.decode(value, { stream: true });
    }
    return text + decoder.decode();
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

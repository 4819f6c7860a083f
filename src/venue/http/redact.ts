/**
 * Last line of defence for request headers: a venue (or proxy) that echoes what it received
 * must not get a credential into an error message, and from there into a log.
 */

/** Values shorter than this are not treated as secrets (a broker id `1` is everywhere). */
const MIN_SECRET_CHARS = 8;
const MASK = '[redacted]';
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Replaces every occurrence of each secret in `text`, in any letter case (hex is hex whether the
 * venue echoes it upper or lower case), with `[redacted]`.
 *
 * @param text - the text to clean.
 * @param secrets - values that must not appear; those under 8 characters are ignored.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  let upper: string | undefined;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_CHARS) continue;
    // An ASCII secret matches (flag i, no u) only ASCII text of the same letters: absent from
    // the upper-cased text, it is absent, and no pattern is compiled (every error answer of
    // the venue comes here with the request's header values).
    if (PRINTABLE_ASCII.test(secret)) {
      upper ??= out.toUpperCase();
      if (!upper.includes(secret.toUpperCase())) continue;
    }
    const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(escaped, 'gi'), MASK);
    upper = undefined;
  }
  return out;
}

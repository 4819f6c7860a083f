import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../src/venue/http/redact.ts';

/** What redactSecrets does, written plainly: a case-blind pattern for every secret. */
function reference(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 8) continue;
    const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(escaped, 'gi'), '[redacted]');
  }
  return out;
}

/** Letters that fold in odd ways (ß, ſ, ı, K, final sigma) beside plain ones. */
const CHARS = [
  'a',
  'B',
  'c',
  'S',
  's',
  'k',
  'K',
  '0',
  '.',
  '*',
  ' ',
  'ß',
  'ſ',
  'ı',
  'İ',
  '\u212a',
  'ς',
  'Σ',
];
const textOf = fc.array(fc.constantFrom(...CHARS), { maxLength: 40 }).map((cs) => cs.join(''));

describe('redactSecrets', () => {
  it('masks a secret echoed in another letter case, and leaves short values alone', () => {
    const secret = 'abcdef0123456789';
    const text = `got ABCDEF0123456789 and abcdef0123456789, broker 1`;
    expect(redactSecrets(text, [secret, '1'])).toBe('got [redacted] and [redacted], broker 1');
  });

  it('gives what a case-blind pattern for each secret gives (2000 runs)', () => {
    fc.assert(
      fc.property(
        fc.array(textOf, { minLength: 1, maxLength: 3 }),
        textOf,
        fc.array(fc.nat(), { maxLength: 3 }),
        (secrets, around, where) => {
          // Texts that hold the secrets, in other cases too, and texts that do not.
          let text = around;
          for (const [i, at] of where.entries()) {
            const secret = secrets[i % secrets.length] ?? '';
            const shown = i % 2 === 0 ? secret.toUpperCase() : secret.toLowerCase();
            const cut = at % (text.length + 1);
            text = `${text.slice(0, cut)}${shown}${text.slice(cut)}`;
          }
          expect(redactSecrets(text, secrets)).toBe(reference(text, secrets));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

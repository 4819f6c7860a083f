import { visit, type Document } from 'yaml';
import { HiddenSecret, looksSecret } from './describe-value.ts';

/** What a mapping key that looked like a secret is called in error lines. */
export const HIDDEN_KEY = '(key not shown)';

/** A config document as errors may describe it: every secret-shaped scalar replaced. */
export interface ShownDocument {
  /** A copy of the document (same source offsets) with secret-shaped scalars replaced. */
  readonly doc: Document;
  /** That copy as plain data: secret values are `HiddenSecret`, secret keys `HIDDEN_KEY`. */
  readonly data: unknown;
  /** A key path step as it may be shown: `HIDDEN_KEY` for a key that looked like a secret. */
  readonly hideStep: (step: PropertyKey) => PropertyKey;
  /**
   * `text` without the numbers YAML made of secret-shaped source text: rule messages quote
   * other fields' values ("expected at least poll.intervalMs (…)").
   */
  readonly hideNumbers: (text: string) => string;
}

/**
 * Copies `doc` for describing errors, replacing each scalar whose source text looks like a
 * secret (see `looksSecret`). The decision is made on the source text, not the parsed value:
 * YAML reads an unquoted `0x<64 hex>` as a float whose digits are the key's top bits, and that
 * must not be shown either. Validation still runs on the real data; only descriptions use this.
 */
export function hideSecrets(doc: Document, maxAliasCount: number): ShownDocument {
  const copy = doc.clone();
  const hiddenKeys = new Set<string>();
  const hiddenNumbers = new Set<string>();
  const hidden = new HiddenSecret();
  visit(copy, {
    Scalar(role, node) {
      const source = node.source ?? (typeof node.value === 'string' ? node.value : '');
      if (!looksSecret(source)) return;
      if (typeof node.value === 'number' || typeof node.value === 'bigint') {
        hiddenNumbers.add(String(node.value));
      }
      if (role === 'key') {
        // How yaml names the key in plain data (String of the parsed key), so issue paths
        // computed from the real data can be mapped to the hidden name.
        hiddenKeys.add(String(node.value));
        node.value = HIDDEN_KEY;
      } else {
        node.value = hidden;
      }
    },
  });
  let data: unknown;
  try {
    data = copy.toJS({ maxAliasCount });
  } catch {
    // A replaced scalar used where only a string works (an aliased key): describe nothing
    // rather than fall back to the real values.
    data = undefined;
  }
  return {
    doc: copy,
    data,
    hideStep: (step) => (typeof step === 'string' && hiddenKeys.has(step) ? HIDDEN_KEY : step),
    hideNumbers: (text) => {
      let out = text;
      for (const number of hiddenNumbers) out = out.replaceAll(number, '(not shown)');
      return out;
    },
  };
}

// Shorter hex runs are everyday words ("deadbeef" aside) and numbers; from 8 on, a run in an
// error line that also occurs inside a secret-shaped run of the source is part of that secret.
const HEX_RUN = /[0-9a-f]{8,}/gi;
const SECRET_RUNS = /[0-9a-f]{32,}/gi;
const WINDOW = 8;

/**
 * Last line of defence for text that did not come from a described value (yaml's own messages,
 * names): replaces every run of 8+ hex digits that also occurs in a secret-shaped run of
 * `sourceText` with `[not shown]`.
 */
export function scrubSecretRuns(line: string, sourceText: string): string {
  const secrets = (sourceText.match(SECRET_RUNS) ?? []).map((run) => run.toLowerCase());
  if (secrets.length === 0) return line;
  return line.replace(HEX_RUN, (run) => {
    const lower = run.toLowerCase();
    for (let at = 0; at + WINDOW <= lower.length; at++) {
      const window = lower.slice(at, at + WINDOW);
      if (secrets.some((secret) => secret.includes(window))) return '[not shown]';
    }
    return run;
  });
}

/**
 * Issue 12, item 4: config errors never echo a pasted private key, not even in part. A
 * deterministic fuzz-ish table of key spellings (prefix, case, blanks, quoting, length, text
 * around it, spellings YAML reads as numbers) goes into every kind of config position; each error
 * must be a config error that points at file:line:col and holds neither 8 consecutive hex digits
 * of the key nor any rendering of the number YAML made of it.
 */
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/index.ts';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';

const HEADER = `venue:
  writeUrl: embedded
  readUrl: embedded
strategies:
  - module: /srv/bot/strategies/dca.ts
    markets: [ETH-USD]
`;

/** A small seeded generator (mulberry32), so the table is the same in every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hexDigits(next: () => number, count: number, alphabet = '0123456789abcdef'): string {
  let out = '';
  for (let i = 0; i < count; i++) out += alphabet[Math.floor(next() * alphabet.length)] ?? '0';
  return out;
}

interface Spelling {
  readonly name: string;
  /** The hex digits of the secret (what must never show, 8 at a time). */
  readonly digits: string;
  /** How it is written in the YAML value position. */
  readonly written: string;
}

function spellings(): Spelling[] {
  const next = random(12);
  const out: Spelling[] = [];
  for (let round = 0; round < 3; round++) {
    const key = hexDigits(next, 64);
    const upper = key.toUpperCase();
    const mixed = [...key].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c)).join('');
    out.push(
      { name: `unquoted 0x (YAML number) #${round}`, digits: key, written: `0x${key}` },
      { name: `unquoted 0X upper #${round}`, digits: key, written: `0X${upper}` },
      { name: `unquoted, no prefix #${round}`, digits: key, written: key },
      { name: `unquoted mixed case #${round}`, digits: key, written: `0x${mixed}` },
      { name: `double-quoted with blanks #${round}`, digits: key, written: `"  0x${key}  "` },
      { name: `single-quoted 0X with blanks #${round}`, digits: key, written: `'\t0X${upper} '` },
      { name: `inside other text #${round}`, digits: key, written: `"key=0x${key};"` },
    );
    const run32 = hexDigits(next, 32);
    out.push({ name: `32-digit run #${round}`, digits: run32, written: run32.toUpperCase() });
    const run40 = hexDigits(next, 40);
    out.push({ name: `40-digit run #${round}`, digits: run40, written: `0x${run40}` });
    // Decimal digits only: YAML reads an integer (a float past 2^53) or, with one `e`, a float.
    const decimal = `${hexDigits(next, 1, '123456789')}${hexDigits(next, 63, '0123456789')}`;
    out.push({ name: `decimal digits only #${round}`, digits: decimal, written: decimal });
    const withE = `${decimal.slice(0, 40)}e${decimal.slice(41, 43)}`;
    out.push({ name: `digits with one e (YAML float) #${round}`, digits: withE, written: withE });
  }
  return out;
}

/** Config texts with `written` in one position each; each of them is invalid. */
const POSITIONS: Readonly<Record<string, (written: string) => string>> = {
  'wallet.privateKeyEnv': (w) => `${HEADER}wallet:\n  privateKeyEnv: ${w}\n`,
  'wallet (unknown key)': (w) => `${HEADER}wallet:\n  privateKey: ${w}\n`,
  'venue.writeUrl': (w) => HEADER.replace('writeUrl: embedded', `writeUrl: ${w}`),
  'venue.brokerId': (w) =>
    HEADER.replace('readUrl: embedded', `readUrl: embedded\n  brokerId: ${w}`),
  'venue.signing.version': (w) =>
    `${HEADER.replace('readUrl: embedded', `readUrl: embedded\n  signing: { version: [${w}] }`)}`,
  'poll.intervalMs': (w) => `${HEADER}poll:\n  intervalMs: ${w}\n`,
  'risk.maxOrderNotional': (w) => `${HEADER}risk:\n  maxOrderNotional: ${w}\n`,
  'log.level': (w) => `${HEADER}log: { level: ${w} }\n`,
  'strategies[0].markets[0]': (w) => HEADER.replace('markets: [ETH-USD]', `markets: [${w}]`),
  'paper.listings[0].market': (w) =>
    `${HEADER}paper:\n  listings:\n    - { market: ${w}, activeAfterMs: 1 }\n`,
  'as a key under venue': (w) =>
    HEADER.replace('readUrl: embedded', `readUrl: embedded\n  ${w}: 1`),
  'as a top-level key': (w) => `${HEADER}${w}: true\n`,
  'as a key under execution.rateLimit': (w) => `${HEADER}execution:\n  rateLimit: { ${w}: 5 }\n`,
  'YAML syntax error on its line': (w) => `${HEADER}wallet:\n  privateKeyEnv: [${w}\n`,
};

function errorOf(text: string): QuantaError {
  try {
    // One sure problem, so that a position where the value happens to be valid still fails.
    parseConfig(`${text}venue2: 1\n`, 'bot.yaml', '/srv/bot/config', { env: {} });
  } catch (error) {
    expect(error).toBeInstanceOf(QuantaError);
    return error as QuantaError;
  }
  return expect.fail(`expected an error for:\n${text}`);
}

/** Every way the number YAML made of `written` could be printed (shortest, fixed, exponent). */
function numberRenderings(written: string): string[] {
  let value: unknown;
  try {
    value = parseYaml(`v: ${written}\n`);
  } catch {
    return [];
  }
  const parsed = (value as { v?: unknown } | null)?.v;
  if (typeof parsed !== 'number' || !Number.isFinite(parsed)) return [];
  const shown = [String(parsed), parsed.toExponential(2), parsed.toPrecision(4)];
  return shown.filter((text) => text.replace(/\D/g, '').length >= 3);
}

describe('config errors never echo secret-shaped input', () => {
  const cases = spellings().flatMap((spelling) =>
    Object.entries(POSITIONS).map(([position, build]) => ({ position, spelling, build })),
  );

  it.each(cases)('$spelling.name in $position', ({ spelling, build }) => {
    const error = errorOf(build(spelling.written));
    expect(error.code).toBe(ErrorCodes.CONFIG_INVALID);
    expect(error.details.length).toBeGreaterThan(0);
    for (const line of error.details) expect(line).toMatch(/^bot\.yaml:\d+:\d+ /);

    const text = [error.message, ...error.details].join('\n').toLowerCase();
    const digits = spelling.digits.toLowerCase();
    for (let at = 0; at + 8 <= digits.length; at++) {
      const window = digits.slice(at, at + 8);
      if (/^[0-9a-f]{8}$/.test(window)) expect(text).not.toContain(window);
    }
    for (const rendering of numberRenderings(spelling.written)) {
      expect(text).not.toContain(rendering.toLowerCase());
      // Not even the leading digits of a mantissa: "1.93e+76" carries the key's top bits.
      expect(text).not.toContain(rendering.slice(0, 4).toLowerCase());
    }
    expect(text).not.toMatch(/\d\.\d+e[+-]?\d+/);
  });
});

import fc from 'fast-check';
import { expect, it } from 'vitest';

/**
 * Values a hand-written check most easily gets wrong: falsy ones, -0, unsafe integers, NaN,
 * decimal strings with a sign, a dot at either end, an exponent, blanks or a full-width digit.
 */
export const EDGE_VALUES: readonly unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -0,
  1,
  -1,
  1.5,
  2 ** 53,
  2 ** 53 - 1,
  NaN,
  Infinity,
  '',
  '0',
  '1',
  '01',
  '-1',
  '1.5',
  '1.',
  '.5',
  '1e3',
  ' 1',
  '1 ',
  '１',
  [],
  {},
];

/** ISO 8601 timestamps `isoTimestamp` accepts or refuses by a hair: offsets, seconds, dates, case, blanks. */
export const ISO_TIMESTAMP_VALUES: readonly string[] = [
  '2026-01-05T00:00:00Z',
  '2026-01-05T00:00:00',
  '2026-01-05T00:00',
  '2026-01-05T00:00:00.1+02:00',
  '2026-01-05T00:00:00+0200',
  '2026-01-05T24:00:00Z',
  '2026-02-29T00:00:00Z',
  '2024-02-29T00:00:00Z',
  '2026-01-05',
  '2026-01-05 00:00:00Z',
  '2026-01-05t00:00:00z',
  '2026-01-05T00:00:00Z\n',
];

/** A hand-written fast path and the zod schema it must agree with. */
export interface FastPathCase {
  /** The fast check: its parsed value, or undefined to leave the candidate to the schema. */
  readonly fast: (candidate: unknown) => unknown;
  readonly schema: {
    safeParse(candidate: unknown): { success: true; data: unknown } | { success: false };
  };
  /** A candidate both accept. */
  readonly valid: Readonly<Record<string, unknown>>;
  /** Where a key is left out, the candidate it is left out of (default `valid`). */
  readonly full?: Readonly<Record<string, unknown>>;
  /** Keys set besides `valid`'s own: an optional one, an unknown one. */
  readonly extraKeys: readonly string[];
  /** Each key is set to each of these (after {@link EDGE_VALUES}). */
  readonly values: readonly unknown[];
  /**
   * `bytes`: the fast value is the schema's to the key order (it is signed, or kept in a trace);
   * `value`: equal but for keys present as undefined, which JSON cannot carry.
   */
  readonly same: 'bytes' | 'value';
  /** The fast path leaves a key present as undefined to the schema. */
  readonly undefinedToSchema?: boolean;
  /** More random field values for the property run. */
  readonly fields?: readonly fc.Arbitrary<unknown>[];
  /** Also checked on every candidate (e.g. that the public parser decides alike). */
  readonly alsoCheck?: (candidate: unknown, accepted: boolean) => void;
}

/** Whichever path decides, the verdict and the value are the schema's. */
function checkAgreement(c: FastPathCase, candidate: unknown): void {
  const fast = c.fast(candidate);
  const slow = c.schema.safeParse(candidate);
  if (fast !== undefined) {
    expect(slow.success, JSON.stringify(candidate)).toBe(true);
    const data = slow.success ? slow.data : undefined;
    if (c.same === 'bytes') {
      expect(fast).toStrictEqual(data);
      expect(JSON.stringify(fast)).toBe(JSON.stringify(data));
    } else {
      expect(fast).toEqual(data);
    }
  } else if (
    typeof candidate === 'object' &&
    candidate !== null &&
    Object.getPrototypeOf(candidate) === Object.prototype &&
    !(c.undefinedToSchema === true && Object.values(candidate).includes(undefined))
  ) {
    // A plain object the schema accepts always takes the fast path.
    expect(slow.success, JSON.stringify(candidate)).toBe(false);
  }
  c.alsoCheck?.(candidate, slow.success);
}

/** The three checks every fast path gets: each field × each value, non-plain objects, random. */
export function itAgreesWithItsSchema(c: FastPathCase): void {
  const keys = [...Object.keys(c.valid), ...c.extraKeys];
  const values = [...EDGE_VALUES, ...c.values];

  it('every field set to each of many values, present or left out', () => {
    for (const key of keys) {
      for (const value of values) checkAgreement(c, { ...c.valid, [key]: value });
      const { [key]: _left, ...rest } = { ...(c.full ?? c.valid) };
      checkAgreement(c, rest);
    }
  });

  it('non-plain objects go to the schema', () => {
    expect(c.fast(Object.assign(Object.create(null) as object, c.valid))).toBeUndefined();
    expect(c.fast([c.valid])).toBeUndefined();
    expect(c.fast(JSON.stringify(c.valid))).toBeUndefined();
    expect(c.fast(null)).toBeUndefined();
    expect(c.fast(c.valid)).toBeDefined();
  });

  it('random JSON-ish candidates, fields changed or left out', () => {
    const field = fc.oneof(
      fc.constantFrom(...values.filter((v) => v !== undefined)),
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
      ...(c.fields ?? []),
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...keys), field),
        fc.subarray(Object.keys(c.valid)),
        (patch, drop) => {
          const candidate: Record<string, unknown> = { ...c.valid, ...patch };
          for (const key of drop) delete candidate[key];
          checkAgreement(c, candidate);
        },
      ),
      { numRuns: 2000 },
    );
  });
}

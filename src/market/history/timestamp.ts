/**
 * History timestamps as they come in dumps: integer seconds, milliseconds, microseconds or
 * nanoseconds since the epoch (told apart by their number of digits), or ISO 8601 text with a
 * zone (`2026-01-05T09:30:00Z`, `…+02:00`, a fraction of a second allowed). Nothing else is
 * guessed: a time without a zone, a float or a date alone is refused.
 */

/** A parsed timestamp: whole ms since the epoch, and the source's own value for ordering. */
export interface ParsedTime {
  /** Milliseconds since the epoch (floored: a finer source keeps its order in `exact`). */
  readonly ms: number;
  /**
   * The time in the source's own resolution, as nanoseconds since the epoch: two rows are the
   * same time only when these are equal.
   */
  readonly exact: bigint;
}

// Digit counts of a time between 2001-09-09 and 2286-11-20 in each unit.
const UNITS: Readonly<Record<number, bigint>> = {
  10: 1_000_000_000n,
  13: 1_000_000n,
  16: 1_000n,
  19: 1n,
};

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * Parses one timestamp field.
 *
 * @returns the time, or a string saying why the text is not one.
 */
export function parseTimestamp(text: string): ParsedTime | string {
  if (/^\d+$/.test(text)) {
    const perUnit = UNITS[text.length];
    if (perUnit === undefined)
      return `timestamp ${JSON.stringify(text)}: expected 10 (s), 13 (ms), 16 (µs) or 19 (ns) digits since the epoch, or ISO 8601 with a zone`;
    const exact = BigInt(text) * perUnit;
    return { ms: Number(exact / 1_000_000n), exact };
  }
  const match = ISO.exec(text);
  if (match === null)
    return `timestamp ${JSON.stringify(text)}: expected seconds, ms, µs or ns since the epoch, or ISO 8601 with a zone (2026-01-05T09:30:00Z)`;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  // Date.parse rolls 2026-02-30 over into March: a day the month lacks is refused instead.
  const days = new Date(Date.UTC(year ?? 0, month ?? 0, 0)).getUTCDate();
  if (
    (month ?? 0) < 1 ||
    (month ?? 0) > 12 ||
    (day ?? 0) < 1 ||
    (day ?? 0) > days ||
    (hour ?? 0) > 23 ||
    (minute ?? 0) > 59 ||
    (second ?? 0) > 59
  )
    return `timestamp ${JSON.stringify(text)}: not a valid date`;
  const fraction = (match[7] ?? '').padEnd(9, '0');
  const whole = Date.parse(
    `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}${normalZone(match[8] ?? 'Z')}`,
  );
  if (!Number.isFinite(whole)) return `timestamp ${JSON.stringify(text)}: not a valid date`;
  const exact = BigInt(whole) * 1_000_000n + BigInt(fraction);
  return { ms: Number(exact / 1_000_000n), exact };
}

function normalZone(zone: string): string {
  if (zone === 'Z' || zone.includes(':')) return zone;
  return `${zone.slice(0, 3)}:${zone.slice(3)}`;
}

/** A time as UTC ISO 8601 with ms, for messages and exports. */
export function isoOfMs(ms: number): string {
  return new Date(ms).toISOString();
}

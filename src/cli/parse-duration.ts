import { ErrorCodes, QuantaError } from '../errors/index.ts';

const UNITS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/**
 * Parses a duration like `90s`, `10m`, `2h`, `1d` or `500ms` into milliseconds.
 * @throws QuantaError `QUANTA_USAGE` naming the flag and the expected form.
 */
export function parseDuration(text: string, flag: string): number {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text);
  const unit = match?.[2] === undefined ? undefined : UNITS[match[2]];
  if (match?.[1] === undefined || unit === undefined || Number(match[1]) <= 0) {
    throw new QuantaError(
      ErrorCodes.USAGE,
      `${flag} expects a duration like 90s, 10m or 2h, got ${JSON.stringify(text)}`,
    );
  }
  return Number(match[1]) * unit;
}

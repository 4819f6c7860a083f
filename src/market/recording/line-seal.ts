/**
 * The check field of format version 5 (`docs/recording-format.md`): every line of a file ends in a tab
 * and the CRC-32 of the rest of the line, as 8 lowercase hex digits, computed with the line's
 * 1-based number in its file as the CRC's starting value. A changed byte fails the CRC (every
 * burst of up to 32 bits, most others with odds of 2^-32); a line deleted, repeated or moved
 * fails it too, always: the same text under another starting value never has the same CRC (the
 * starting value enters a CRC through an invertible linear map), so the next line read sits at a
 * number its CRC was not made for. zlib's CRC-32 (native) costs about a memory copy of the line.
 */
import { crc32 } from 'node:zlib';

/** Characters the check field adds to a line: a tab and 8 hex digits. */
export const SEAL_LENGTH = 9;

const TAB = 9;
const HEX = '0123456789abcdef';
// The value of each hex digit by character code; -1 for anything else.
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < HEX.length; i++) HEX_VALUE[HEX.charCodeAt(i)] = i;

/** The CRC of `body` as line `line` of its file. */
function lineCrc(body: string, line: number): number {
  return crc32(body, line >>> 0);
}

/** `body` as line `line` of a version 5 file: with its tab and check digits. */
export function sealLine(body: string, line: number): string {
  const crc = lineCrc(body, line);
  return `${body}\t${crc.toString(16).padStart(8, '0')}`;
}

/** The check digits of a sealed line as a number, or -1 when it has no well-formed check field. */
function storedCrc(text: string): number {
  const from = text.length - SEAL_LENGTH;
  if (from < 0 || text.charCodeAt(from) !== TAB) return -1;
  let value = 0;
  for (let at = from + 1; at < text.length; at++) {
    const code = text.charCodeAt(at);
    const digit = code < 128 ? (HEX_VALUE[code] as number) : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** True when `text` ends in a check field (well-formed or not: a tab 9 characters from its end). */
export function hasSeal(text: string): boolean {
  return text.length >= SEAL_LENGTH && text.charCodeAt(text.length - SEAL_LENGTH) === TAB;
}

/**
 * The body of a version 5 line (without its check field) when its CRC holds for line `line`;
 * undefined otherwise ({@link sealProblem} says why).
 */
export function openSealedLine(text: string, line: number): string | undefined {
  const stored = storedCrc(text);
  if (stored < 0) return undefined;
  const body = text.slice(0, text.length - SEAL_LENGTH);
  return lineCrc(body, line) === stored ? body : undefined;
}

/** How far around a failed line's place {@link sealProblem} looks for the one it was made for. */
const NEARBY = 16;

/**
 * Why line `line` does not open (off the hot path): no check field, a line changed, or a line
 * made for another place (lines missing or repeated before it), found by trying the places near.
 */
export function sealProblem(text: string, line: number): string {
  const stored = storedCrc(text);
  if (stored < 0)
    return 'no check field (a tab and 8 hex digits at the end): the line was changed or cut';
  const body = text.slice(0, text.length - SEAL_LENGTH);
  for (let offset = 1; offset <= NEARBY; offset++) {
    if (lineCrc(body, line + offset) === stored)
      return `the line was written as line ${line + offset}: ${offset === 1 ? 'a line is' : `${offset} lines are`} missing before it (deleted or lost)`;
    if (line - offset >= 1 && lineCrc(body, line - offset) === stored)
      return `the line was written as line ${line - offset}: ${offset === 1 ? 'a line was' : `${offset} lines were`} added or repeated before it`;
  }
  return 'the line does not match its checksum: it was changed (a flipped or edited byte)';
}

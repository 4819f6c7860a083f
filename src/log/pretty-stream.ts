import { Writable } from 'node:stream';

const LEVELS: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};
const HIDDEN = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'app', 'part', 'strategy']);

function formatValue(value: unknown): string {
  if (typeof value === 'string') return /\s/.test(value) ? JSON.stringify(value) : value;
  return JSON.stringify(value);
}

/**
 * Turns pino's JSON lines into one readable line each (`12:00:01.250 INFO  [executor] order 3:
 * BUY 0.0333 ETH-USD MARKET orderId=3`) for a person watching a terminal. Redaction already
 * happened in pino, before the line reached this stream.
 */
export function prettyStream(out: NodeJS.WritableStream): Writable {
  let pending = '';
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      pending += chunk.toString('utf8');
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        out.write(`${prettyLine(line)}\n`);
        newline = pending.indexOf('\n');
      }
      done();
    },
  });
}

/** One pino JSON line as readable text (lines that are not JSON pass through). */
export function prettyLine(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time =
    typeof record.time === 'number' ? new Date(record.time).toISOString().slice(11, 23) : '';
  const level = LEVELS[Number(record.level)] ?? String(record.level);
  const scope = [record.part, record.strategy].filter((v) => typeof v === 'string').join('/');
  const fields = Object.entries(record)
    .filter(([key]) => !HIDDEN.has(key))
    .map(([key, value]) => `${key}=${formatValue(value)}`)
    .join(' ');
  return `${time} ${level} ${scope === '' ? '' : `[${scope}] `}${typeof record.msg === 'string' ? record.msg : ''}${fields === '' ? '' : `  ${fields}`}`;
}

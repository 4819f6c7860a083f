import { describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../../src/cli/exit-codes.ts';
import { parseDuration } from '../../../src/cli/parse-duration.ts';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';
import { prettyLine } from '../../../src/log/pretty-stream.ts';
import { venueErrorFromStatus } from '../../../src/venue/errors.ts';

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000],
    ['10m', 600_000],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
    ['500ms', 500],
  ])('%s', (text, ms) => expect(parseDuration(text, '--duration')).toBe(ms));

  it.each(['', '10', '1.5h', '-1s', '0s', '10 m'])('rejects %j', (text) => {
    expect(() => parseDuration(text, '--duration')).toThrow(
      '--duration expects a duration like 90s, 10m or 2h',
    );
  });
});

describe('exitCodeFor', () => {
  it('maps errors to docs/design.md §5 exit codes', () => {
    expect(exitCodeFor(new QuantaError(ErrorCodes.CONFIG_INVALID, 'x'))).toBe(2);
    expect(exitCodeFor(new QuantaError(ErrorCodes.WALLET_KEY_MISSING, 'x'))).toBe(2);
    expect(exitCodeFor(venueErrorFromStatus({ status: 401, endpoint: 'POST /api/v1/auth' }))).toBe(
      3,
    );
    expect(exitCodeFor(venueErrorFromStatus({ status: 503, endpoint: 'GET /api/v1/market' }))).toBe(
      1,
    );
    expect(exitCodeFor(new Error('bug'))).toBe(1);
  });
});

describe('prettyLine', () => {
  it('turns a pino JSON line into one readable line', () => {
    const line = JSON.stringify({
      level: 30,
      time: Date.UTC(2026, 0, 1, 12, 0, 1, 250),
      pid: 1,
      hostname: 'h',
      app: 'quanta',
      part: 'executor',
      strategy: 'dca',
      msg: 'order 3: BUY 0.5 ETH-USD MARKET',
      orderId: 3,
      tag: 'dca buy',
    });
    expect(prettyLine(line)).toMatchInlineSnapshot(
      `"12:00:01.250 INFO  [executor/dca] order 3: BUY 0.5 ETH-USD MARKET  orderId=3 tag="dca buy""`,
    );
    expect(prettyLine('not json')).toBe('not json');
  });
});

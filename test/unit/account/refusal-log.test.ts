/** The log line of each kind of refusal: its level, and whether it says what follows. */
import { expect, it } from 'vitest';
import { logRefusal } from '../../../src/account/refusal-log.ts';
import type { CredentialRefusal } from '../../../src/account/refusal-spacing.ts';
import { createLogger } from '../../../src/log/logger.ts';

const SIGNER = '0x45f8924221D9Da55123C8E2569A52f0622Ec663D';
const HINT = 'check venue.headerPrefix, venue.brokerId';

function logged(refusal: Omit<CredentialRefusal, 'signer' | 'signingRefusal'>): {
  level: number;
  msg: string;
} {
  const lines: string[] = [];
  const log = createLogger({ level: 'debug', destination: { write: (line) => lines.push(line) } });
  logRefusal(log, { signer: SIGNER, signingRefusal: 'refused', ...refusal });
  expect(lines).toHaveLength(1);
  const { level, msg } = JSON.parse(lines[0] ?? '') as { level: number; msg: string };
  return { level, msg };
}

const WARN = 40;
const ERROR = 50;
const REFUSED = `the venue refused the credentials of signing key ${SIGNER}`;

it('an earlier key: a warning that nothing goes out with it', () => {
  expect(logged({ newest: false, waitMs: 0, inARow: 0, registering: true })).toEqual({
    level: WARN,
    msg: `${REFUSED}, an earlier one: no order goes out with them`,
  });
});

it('the newest key, the first time: a new key at once, or the one already under way', () => {
  expect(logged({ newest: true, waitMs: 0, inARow: 1, registering: false })).toEqual({
    level: WARN,
    msg: `${REFUSED}: no order goes out with them; a new key is registered`,
  });
  expect(logged({ newest: true, waitMs: 0, inARow: 1, registering: true })).toEqual({
    level: WARN,
    msg: `${REFUSED}: no order goes out with them; a new key is being registered already`,
  });
});

it('key after key refused: an error naming the wait and what to check, even with a key under way', () => {
  const waiting = logged({ newest: true, waitMs: 20_000, inARow: 3, registering: false });
  expect(waiting.level).toBe(ERROR);
  expect(waiting.msg).toContain(
    `${REFUSED} too, soon after the last new key: registering again in 20000 ms`,
  );
  expect(waiting.msg).toContain(HINT);
  const underWay = logged({ newest: true, waitMs: 10_000, inARow: 2, registering: true });
  expect(underWay.level).toBe(ERROR);
  expect(underWay.msg).toContain(
    'a new key is being registered already; if that fails, the next one waits 10000 ms',
  );
  expect(underWay.msg).toContain(HINT);
});

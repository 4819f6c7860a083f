/**
 * The control server's tokens (issue 30): a read-only token needs the full one and must differ
 * from it; roles come from the bearer token or the page's session cookie, never the token
 * itself as a cookie.
 */
import { expect, it } from 'vitest';
import {
  controlTokens,
  roleOf,
  sessionValue,
  SESSION_COOKIE,
} from '../../../src/runtime/control/control-auth.ts';

const control = { host: '0.0.0.0', port: 0, lastOrders: 20 };

it('a read-only token needs tokenEnv and must differ from it', () => {
  expect(() => controlTokens({ ...control, readTokenEnv: 'W' }, { W: 'w' })).toThrow(
    'control.readTokenEnv: a read-only token needs control.tokenEnv: without it every request may act',
  );
  expect(() =>
    controlTokens({ ...control, tokenEnv: 'A', readTokenEnv: 'W' }, { A: 'same', W: 'same' }),
  ).toThrow('control.readTokenEnv: W holds the same token as A: a read-only token must differ');
  expect(() => controlTokens({ ...control, tokenEnv: 'A', readTokenEnv: 'W' }, { A: 'a' })).toThrow(
    'control.readTokenEnv: names W, which is not set',
  );
  expect(
    controlTokens({ ...control, tokenEnv: 'A', readTokenEnv: 'W' }, { A: 'a', W: 'w' }),
  ).toEqual({ act: 'a', watch: 'w' });
  expect(controlTokens({ ...control, host: '127.0.0.1' }, {})).toBeUndefined();
});

it('roles from the bearer token or the session cookie; the token as a cookie is no session', () => {
  const tokens = { act: 'a-token', watch: 'w-token' };
  expect(roleOf({ authorization: 'Bearer a-token' }, tokens)).toBe('act');
  expect(roleOf({ authorization: 'Bearer w-token' }, tokens)).toBe('watch');
  expect(roleOf({ authorization: 'Bearer x-token' }, tokens)).toBeUndefined();
  expect(roleOf({ cookie: `x=1; ${SESSION_COOKIE}=${sessionValue('a-token')}` }, tokens)).toBe(
    'act',
  );
  expect(roleOf({ cookie: `${SESSION_COOKIE}=${sessionValue('w-token')}` }, tokens)).toBe('watch');
  expect(roleOf({ cookie: `${SESSION_COOKIE}=a-token` }, tokens)).toBeUndefined();
  expect(sessionValue('a-token')).not.toContain('a-token');
  expect(roleOf({}, undefined)).toBe('act');
  expect(roleOf({}, tokens)).toBeUndefined();
});

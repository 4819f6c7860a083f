/**
 * The error registry: every code has one row giving its meaning for a send attempt, the order's
 * journal state and the exit code; the rows are read by code, whatever class carries it.
 */
import { describe, expect, it } from 'vitest';
import {
  ErrorCodes,
  ErrorMeanings,
  ExitCode,
  QuantaError,
  meaningOf,
  type ErrorCode,
  type ErrorMeaning,
} from '../../../src/errors/index.ts';
import { venueErrorFromStatus } from '../../../src/venue/errors.ts';

describe('ErrorMeanings', () => {
  it('has exactly one row per code (and a missing row does not compile)', () => {
    expect(Object.keys(ErrorMeanings).sort()).toEqual(Object.values(ErrorCodes).sort());
    const { [ErrorCodes.USAGE]: _usage, ...withoutUsage } = ErrorMeanings;
    // @ts-expect-error a code without a row fails the registry's exhaustiveness check
    withoutUsage satisfies Record<ErrorCode, ErrorMeaning>;
  });

  it('reads, code by code, as reviewed', () => {
    const table = Object.entries(ErrorMeanings).map(
      ([code, m]) => `${code.padEnd(34)} ${m.send.padEnd(10)} ${m.order.padEnd(8)} ${m.exit}`,
    );
    expect(table).toMatchInlineSnapshot(`
      [
        "QUANTA_INVALID_DECIMAL             unexpected UNKNOWN  1",
        "QUANTA_INVALID_X18                 unexpected UNKNOWN  1",
        "QUANTA_INVALID_EXPO                unexpected UNKNOWN  1",
        "QUANTA_INVALID_MARKET              unexpected UNKNOWN  1",
        "QUANTA_INVALID_WIRE_DATA           retry      UNKNOWN  1",
        "QUANTA_INVALID_SUBACCOUNT          unexpected UNKNOWN  1",
        "QUANTA_VENUE_HTTP                  not-sent   NOT_SENT 1",
        "QUANTA_VENUE_BAD_RESPONSE          retry      UNKNOWN  1",
        "QUANTA_VENUE_TIMEOUT               retry      UNKNOWN  1",
        "QUANTA_VENUE_UNREACHABLE           retry      UNKNOWN  1",
        "QUANTA_VENUE_RATE_LIMITED          pause      UNKNOWN  1",
        "QUANTA_VENUE_CREDENTIALS_REFUSED   final      REJECTED 3",
        "QUANTA_VENUE_FORBIDDEN             final      REJECTED 3",
        "QUANTA_VENUE_NOT_FOUND             final      REJECTED 1",
        "QUANTA_VENUE_REJECTED              final      REJECTED 1",
        "QUANTA_VENUE_SIGNATURE_USED        landed     ACCEPTED 1",
        "QUANTA_VENUE_SERVER_ERROR          retry      UNKNOWN  1",
        "QUANTA_VENUE_RESPONSE_TOO_LARGE    retry      UNKNOWN  1",
        "QUANTA_INSECURE_TRANSPORT          not-sent   NOT_SENT 2",
        "QUANTA_ABORTED                     unexpected UNKNOWN  1",
        "QUANTA_WALLET_KEY_MISSING          unexpected UNKNOWN  2",
        "QUANTA_CREDENTIAL_STORE            unexpected UNKNOWN  1",
        "QUANTA_SIGNING_KEY_EXPIRED         not-sent   NOT_SENT 3",
        "QUANTA_SIGNING_KEY_REFUSED         not-sent   NOT_SENT 3",
        "QUANTA_CONFIG_INVALID              unexpected UNKNOWN  2",
        "QUANTA_CONFIG_NOT_FOUND            unexpected UNKNOWN  2",
        "QUANTA_USAGE                       unexpected UNKNOWN  2",
        "QUANTA_STATE_DIR_LOCKED            unexpected UNKNOWN  2",
        "QUANTA_STATE_DIR_UNWRITABLE        unexpected UNKNOWN  2",
        "QUANTA_STRATEGY_LOAD               unexpected UNKNOWN  2",
        "QUANTA_STRATEGY_PARAMS             unexpected UNKNOWN  2",
        "QUANTA_STRATEGY_CRASHED            unexpected UNKNOWN  1",
        "QUANTA_JOURNAL                     unexpected UNKNOWN  1",
        "QUANTA_JOURNAL_DAMAGED             unexpected UNKNOWN  4",
        "QUANTA_ORDER_EXPIRED               not-sent   NOT_SENT 1",
        "QUANTA_ILLEGAL_ORDER_TRANSITION    unexpected UNKNOWN  1",
        "QUANTA_RECORDING_INVALID           unexpected UNKNOWN  2",
        "QUANTA_SIM_REJECTED                final      REJECTED 1",
        "QUANTA_INVALID_PRIVATE_KEY         unexpected UNKNOWN  1",
        "QUANTA_SIGNING_FAILED              unexpected UNKNOWN  1",
        "QUANTA_SIM_INVALID_INPUT           unexpected UNKNOWN  1",
        "QUANTA_PAPER_INVALID_OPTION        unexpected UNKNOWN  1",
        "QUANTA_PAPER_LISTEN_FAILED         unexpected UNKNOWN  1",
        "QUANTA_CONTROL_TOKEN_MISSING       unexpected UNKNOWN  2",
        "QUANTA_CONTROL_LISTEN_FAILED       unexpected UNKNOWN  2",
        "QUANTA_BACKTEST_INVALID_OPTION     unexpected UNKNOWN  1",
        "QUANTA_REPORT_WRITE_FAILED         unexpected UNKNOWN  1",
        "QUANTA_RECORDING_NOT_FOUND         unexpected UNKNOWN  2",
        "QUANTA_RECORDING_WRITE             unexpected UNKNOWN  1",
        "QUANTA_HISTORY_INVALID             unexpected UNKNOWN  2",
        "QUANTA_QUEUE_UNREACHABLE           unexpected UNKNOWN  1",
      ]
    `);
  });

  it('gives docs/design.md §5 exit codes: 2 for usage and config, 3 for refused or expired credentials', () => {
    const byExit = (exit: number) =>
      Object.entries(ErrorMeanings)
        .filter(([, m]) => m.exit === exit)
        .map(([code]) => code)
        .sort();
    expect(byExit(ExitCode.USAGE)).toEqual(
      [
        ErrorCodes.CONFIG_INVALID,
        ErrorCodes.CONFIG_NOT_FOUND,
        ErrorCodes.USAGE,
        ErrorCodes.STRATEGY_LOAD,
        ErrorCodes.STRATEGY_PARAMS,
        ErrorCodes.WALLET_KEY_MISSING,
        ErrorCodes.INSECURE_TRANSPORT,
        ErrorCodes.STATE_DIR_LOCKED,
        ErrorCodes.STATE_DIR_UNWRITABLE,
        ErrorCodes.RECORDING_INVALID,
        ErrorCodes.RECORDING_NOT_FOUND,
        ErrorCodes.CONTROL_TOKEN_MISSING,
        ErrorCodes.CONTROL_LISTEN_FAILED,
        ErrorCodes.HISTORY_INVALID,
      ].sort(),
    );
    expect(byExit(ExitCode.CREDENTIALS)).toEqual(
      [
        ErrorCodes.VENUE_CREDENTIALS_REFUSED,
        ErrorCodes.VENUE_FORBIDDEN,
        ErrorCodes.SIGNING_KEY_EXPIRED,
        ErrorCodes.SIGNING_KEY_REFUSED,
      ].sort(),
    );
    // 0 is success and 130 an interruption: no error code ends a process with either.
    expect(byExit(ExitCode.OK)).toEqual([]);
    expect(byExit(ExitCode.INTERRUPTED)).toEqual([]);
  });
});

describe('meaningOf', () => {
  it('goes by the code, not the class that carries it', () => {
    const plain = new QuantaError(ErrorCodes.VENUE_CREDENTIALS_REFUSED, 'refused');
    const venue = venueErrorFromStatus({ status: 401, endpoint: 'POST /api/v1/order' });
    expect(meaningOf(plain)).toEqual(meaningOf(venue));
    expect(meaningOf(plain)).toEqual({ send: 'final', order: 'REJECTED', exit: 3 });
  });

  it('takes anything that is no QuantaError for unexpected, exit 1', () => {
    const unexpected = { send: 'unexpected', order: 'UNKNOWN', exit: 1 };
    expect(meaningOf(new Error('bug'))).toEqual(unexpected);
    expect(meaningOf(Object.assign(new Error('x'), { code: 'QUANTA_VENUE_TIMEOUT' }))).toEqual(
      unexpected,
    );
    expect(meaningOf('timeout')).toEqual(unexpected);
    expect(meaningOf(undefined)).toEqual(unexpected);
  });
});

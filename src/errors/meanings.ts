/**
 * The one registry of what an error code means (docs/design.md §2: "error codes carry their retry meaning,
 * order-state effect and exit code in one table"). The dispatcher's retry policy, the journal's
 * outcome for an order and the CLI's exit code all read `ErrorMeanings`; nothing else decides
 * by error class or by a list of its own.
 */
import { isQuantaError } from './base-error.ts';
import { ErrorCodes, type ErrorCode } from './codes.ts';

/** The process exit codes of docs/design.md §5. */
export const ExitCode = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
  CREDENTIALS: 3,
  /** The order journal is damaged: restarting cannot help, a person restores or salvages it. */
  JOURNAL_DAMAGED: 4,
  INTERRUPTED: 130,
} as const;

/** One of The process exit codes of docs/design.md §5. */
export type ExitStatus = (typeof ExitCode)[keyof typeof ExitCode];

/** What each exit code means, as `quanta --help` lists them (every code: the type demands it). */
export const EXIT_CODE_SUMMARIES: Readonly<Record<ExitStatus, string>> = {
  [ExitCode.OK]: 'ok',
  [ExitCode.FAILURE]: 'runtime failure',
  [ExitCode.USAGE]: 'usage or config error',
  [ExitCode.CREDENTIALS]: 'venue refused credentials',
  [ExitCode.JOURNAL_DAMAGED]: 'order journal damaged',
  [ExitCode.INTERRUPTED]: 'interrupted',
};

/**
 * What a failed attempt to send an order means when the error escapes the transport:
 * - `final`: the venue refused the order for good (400/401/403/404/413);
 * - `retry`: it may have landed (no answer, a 5xx, an answer we could not read): resend the
 *   identical signed bytes, which the replay guard makes safe (a 409 then proves it landed);
 * - `pause`: 429, the venue counted it and refused it: pause every sender for `Retry-After`,
 *   then resend the identical bytes;
 * - `landed`: 409 "signature already used": an earlier attempt with these bytes was accepted;
 * - `not-sent`: refused inside this process before any byte left (an expired signing key, a
 *   request that cannot be built, credentials over plain http);
 * - `unexpected`: no answer about the order at all (a bug, a config error): never retried, and
 *   the order's fate is unknown, so it counts against every limit (risk fails closed).
 */
export type SendMeaning = 'final' | 'retry' | 'pause' | 'landed' | 'not-sent' | 'unexpected';

/**
 * The state the journal gives an order whose sending ends with this error, when no earlier
 * attempt of it may have landed: `NOT_SENT` means the order never left (journaled `REJECTED`
 * with "never sent"); `UNKNOWN` means it may have landed ("check the venue").
 */
export type OrderEffect = 'REJECTED' | 'ACCEPTED' | 'UNKNOWN' | 'NOT_SENT';

/**
 * One row of the registry. The send meaning fixes the order effect, so the two cannot
 * contradict each other; the exit code is free.
 */
export type ErrorMeaning =
  | { readonly send: 'final'; readonly order: 'REJECTED'; readonly exit: ExitStatus }
  | { readonly send: 'retry' | 'pause'; readonly order: 'UNKNOWN'; readonly exit: ExitStatus }
  | { readonly send: 'landed'; readonly order: 'ACCEPTED'; readonly exit: ExitStatus }
  | { readonly send: 'not-sent'; readonly order: 'NOT_SENT'; readonly exit: ExitStatus }
  | { readonly send: 'unexpected'; readonly order: 'UNKNOWN'; readonly exit: ExitStatus };

const { FAILURE, USAGE, CREDENTIALS, JOURNAL_DAMAGED } = ExitCode;
const final = (exit: ExitStatus) => ({ send: 'final', order: 'REJECTED', exit }) as const;
const retry = (exit: ExitStatus) => ({ send: 'retry', order: 'UNKNOWN', exit }) as const;
const notSent = (exit: ExitStatus) => ({ send: 'not-sent', order: 'NOT_SENT', exit }) as const;
const unexpected = (exit: ExitStatus) => ({ send: 'unexpected', order: 'UNKNOWN', exit }) as const;

/**
 * Every code's meaning. `satisfies Record<ErrorCode, ErrorMeaning>`: a code added to
 * `ErrorCodes` without a row here does not compile.
 */
export const ErrorMeanings = {
  // Money and wire-data codes are raised by parsers: an order send never produces them except
  // INVALID_WIRE_DATA, which there means the venue's 2xx answer could not be read.
  [ErrorCodes.INVALID_DECIMAL]: unexpected(FAILURE),
  [ErrorCodes.INVALID_X18]: unexpected(FAILURE),
  [ErrorCodes.INVALID_EXPO]: unexpected(FAILURE),
  [ErrorCodes.INVALID_MARKET]: unexpected(FAILURE),
  // A 2xx whose order did not parse: the venue may have placed it; a resend gets 409.
  [ErrorCodes.INVALID_WIRE_DATA]: retry(FAILURE),
  [ErrorCodes.INVALID_SUBACCOUNT]: unexpected(FAILURE),

  // The request could not be built (bad URL, header or body): nothing was sent.
  [ErrorCodes.VENUE_HTTP]: notSent(FAILURE),
  // An answer we cannot use, whatever its status, a 200 included: the order may have landed
  // behind a proxy that mangled the answer. Resending the identical bytes is safe and resolves
  // it (409 → ACCEPTED, or the venue's real answer).
  [ErrorCodes.VENUE_BAD_RESPONSE]: retry(FAILURE),
  [ErrorCodes.VENUE_TIMEOUT]: retry(FAILURE),
  // Connection refused or reset: a reset may come after the venue read the request.
  [ErrorCodes.VENUE_UNREACHABLE]: retry(FAILURE),
  [ErrorCodes.VENUE_RATE_LIMITED]: { send: 'pause', order: 'UNKNOWN', exit: FAILURE },
  [ErrorCodes.VENUE_CREDENTIALS_REFUSED]: final(CREDENTIALS),
  [ErrorCodes.VENUE_FORBIDDEN]: final(CREDENTIALS),
  [ErrorCodes.VENUE_NOT_FOUND]: final(FAILURE),
  [ErrorCodes.VENUE_REJECTED]: final(FAILURE),
  [ErrorCodes.VENUE_SIGNATURE_USED]: { send: 'landed', order: 'ACCEPTED', exit: FAILURE },
  [ErrorCodes.VENUE_SERVER_ERROR]: retry(FAILURE),
  // The answer came (too big to read): like an unusable answer, it may have landed.
  [ErrorCodes.VENUE_RESPONSE_TOO_LARGE]: retry(FAILURE),
  // Refused before credentials could travel over plain http to a remote host: a config error.
  [ErrorCodes.INSECURE_TRANSPORT]: notSent(USAGE),
  // The caller cancelled mid-request; the request may have landed. The dispatcher sees its own
  // abort first (the order stays SENT and is resent on the next start).
  [ErrorCodes.ABORTED]: unexpected(FAILURE),

  [ErrorCodes.WALLET_KEY_MISSING]: unexpected(USAGE),
  [ErrorCodes.CREDENTIAL_STORE]: unexpected(FAILURE),
  // The order's signing key has no valid credential any more: it is refused before sending.
  [ErrorCodes.SIGNING_KEY_EXPIRED]: notSent(CREDENTIALS),
  // The venue refused the credentials of the order's signing key (revoked): refused before sending.
  [ErrorCodes.SIGNING_KEY_REFUSED]: notSent(CREDENTIALS),

  [ErrorCodes.CONFIG_INVALID]: unexpected(USAGE),
  [ErrorCodes.CONFIG_NOT_FOUND]: unexpected(USAGE),
  [ErrorCodes.USAGE]: unexpected(USAGE),
  // One bot per state.dir; a state.dir that cannot be written: both found before any request.
  [ErrorCodes.STATE_DIR_LOCKED]: unexpected(USAGE),
  [ErrorCodes.STATE_DIR_UNWRITABLE]: unexpected(USAGE),
  [ErrorCodes.STRATEGY_LOAD]: unexpected(USAGE),
  [ErrorCodes.STRATEGY_PARAMS]: unexpected(USAGE),
  // Pauses the strategy whose worker died; it never ends a run (nor reaches an order).
  [ErrorCodes.STRATEGY_CRASHED]: unexpected(FAILURE),

  [ErrorCodes.JOURNAL]: unexpected(FAILURE),
  // Found when the journal is opened or read, before any order of that run is sent.
  [ErrorCodes.JOURNAL_DAMAGED]: unexpected(JOURNAL_DAMAGED),
  // Checked at the moment of sending: the bytes never left.
  [ErrorCodes.ORDER_EXPIRED]: notSent(FAILURE),
  // A bug: some code proposed a change the order state machine forbids; nothing was written.
  [ErrorCodes.ILLEGAL_ORDER_TRANSITION]: unexpected(FAILURE),
  // A recording that is not one (bad lines, files that disagree) or is missing: the user's input.
  [ErrorCodes.RECORDING_INVALID]: unexpected(USAGE),
  // The in-process engine refused the order (backtests): the same as a venue 400.
  [ErrorCodes.SIM_REJECTED]: final(FAILURE),
  [ErrorCodes.INVALID_PRIVATE_KEY]: unexpected(FAILURE),
  [ErrorCodes.SIGNING_FAILED]: unexpected(FAILURE),
  [ErrorCodes.SIM_INVALID_INPUT]: unexpected(FAILURE),
  [ErrorCodes.PAPER_INVALID_OPTION]: unexpected(FAILURE),
  [ErrorCodes.PAPER_LISTEN_FAILED]: unexpected(FAILURE),
  // Both found at start, before the venue is contacted: fix the config (or the environment).
  [ErrorCodes.CONTROL_TOKEN_MISSING]: unexpected(USAGE),
  [ErrorCodes.CONTROL_LISTEN_FAILED]: unexpected(USAGE),
  [ErrorCodes.BACKTEST_INVALID_OPTION]: unexpected(FAILURE),
  [ErrorCodes.REPORT_WRITE_FAILED]: unexpected(FAILURE),
  [ErrorCodes.RECORDING_NOT_FOUND]: unexpected(USAGE),
  [ErrorCodes.RECORDING_WRITE]: unexpected(FAILURE),
  // The user's input files (CSV history, a market rules file): fix them or skip the rows.
  [ErrorCodes.HISTORY_INVALID]: unexpected(USAGE),
  [ErrorCodes.QUEUE_UNREACHABLE]: unexpected(FAILURE),
} as const satisfies Record<ErrorCode, ErrorMeaning>;

/**
 * What an error means: its code's row, or `unexpected` (exit 1) for an error that is no
 * `QuantaError`. Read from the code, never the class, so a code means the same whichever module
 * threw it (issue 11: a refusal thrown as a plain `QuantaError` was judged "unknown" where the
 * same code in a `VenueError` was "final").
 */
export function meaningOf(error: unknown): ErrorMeaning {
  return isQuantaError(error) ? ErrorMeanings[error.code] : UNCLASSIFIED;
}

const UNCLASSIFIED: ErrorMeaning = unexpected(FAILURE);

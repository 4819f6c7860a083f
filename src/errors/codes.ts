/**
 * The registry of stable error codes. A code, once shipped, is never reused for another meaning:
 * scripts and dashboards match on it. What each code means for an order and for the exit code
 * is in `ErrorMeanings` (meanings.ts); a code without a row there does not compile.
 *
 * Retired, never to be reused: `QUANTA_ORDER_REFUSED` (declared, never thrown; removed in
 * issue 11, refusals are typed `RefusalReason`s, not errors).
 */
export const ErrorCodes = {
  // money
  INVALID_DECIMAL: 'QUANTA_INVALID_DECIMAL',
  INVALID_X18: 'QUANTA_INVALID_X18',
  INVALID_EXPO: 'QUANTA_INVALID_EXPO',
  // venue wire data
  INVALID_MARKET: 'QUANTA_INVALID_MARKET',
  INVALID_WIRE_DATA: 'QUANTA_INVALID_WIRE_DATA',
  INVALID_SUBACCOUNT: 'QUANTA_INVALID_SUBACCOUNT',
  // venue transport and answers
  VENUE_HTTP: 'QUANTA_VENUE_HTTP',
  VENUE_BAD_RESPONSE: 'QUANTA_VENUE_BAD_RESPONSE',
  VENUE_TIMEOUT: 'QUANTA_VENUE_TIMEOUT',
  VENUE_UNREACHABLE: 'QUANTA_VENUE_UNREACHABLE',
  VENUE_RATE_LIMITED: 'QUANTA_VENUE_RATE_LIMITED',
  VENUE_CREDENTIALS_REFUSED: 'QUANTA_VENUE_CREDENTIALS_REFUSED',
  VENUE_FORBIDDEN: 'QUANTA_VENUE_FORBIDDEN',
  VENUE_NOT_FOUND: 'QUANTA_VENUE_NOT_FOUND',
  VENUE_REJECTED: 'QUANTA_VENUE_REJECTED',
  VENUE_SIGNATURE_USED: 'QUANTA_VENUE_SIGNATURE_USED',
  VENUE_SERVER_ERROR: 'QUANTA_VENUE_SERVER_ERROR',
  VENUE_RESPONSE_TOO_LARGE: 'QUANTA_VENUE_RESPONSE_TOO_LARGE',
  INSECURE_TRANSPORT: 'QUANTA_INSECURE_TRANSPORT',
  ABORTED: 'QUANTA_ABORTED',
  // account
  WALLET_KEY_MISSING: 'QUANTA_WALLET_KEY_MISSING',
  CREDENTIAL_STORE: 'QUANTA_CREDENTIAL_STORE',
  /** An order's signing key has no valid credential any more; the order was never sent. */
  SIGNING_KEY_EXPIRED: 'QUANTA_SIGNING_KEY_EXPIRED',
  /** The venue refused (401) the credentials of an order's signing key; the order was never sent. */
  SIGNING_KEY_REFUSED: 'QUANTA_SIGNING_KEY_REFUSED',
  // config and usage
  CONFIG_INVALID: 'QUANTA_CONFIG_INVALID',
  CONFIG_NOT_FOUND: 'QUANTA_CONFIG_NOT_FOUND',
  USAGE: 'QUANTA_USAGE',
  // state.dir: another bot holds its lock; it cannot be created or written
  STATE_DIR_LOCKED: 'QUANTA_STATE_DIR_LOCKED',
  STATE_DIR_UNWRITABLE: 'QUANTA_STATE_DIR_UNWRITABLE',
  // strategies
  STRATEGY_LOAD: 'QUANTA_STRATEGY_LOAD',
  STRATEGY_PARAMS: 'QUANTA_STRATEGY_PARAMS',
  // a strategy's worker thread (isolate: worker) died: out of memory, an uncaught error, an exit
  STRATEGY_CRASHED: 'QUANTA_STRATEGY_CRASHED',
  // execution
  JOURNAL: 'QUANTA_JOURNAL',
  /**
   * The order journal cannot be trusted: SQLite finds its pages damaged, a row holds a value no
   * quanta writes, or it lacks commits the last run made. The bot refuses to trade on it.
   */
  JOURNAL_DAMAGED: 'QUANTA_JOURNAL_DAMAGED',
  /** An order's expiry came before it could leave (queue, rate slot, pause): never sent. */
  ORDER_EXPIRED: 'QUANTA_ORDER_EXPIRED',
  // orders: an event the order state machine does not allow in the order's current state
  ILLEGAL_ORDER_TRANSITION: 'QUANTA_ILLEGAL_ORDER_TRANSITION',
  // recordings
  RECORDING_INVALID: 'QUANTA_RECORDING_INVALID',
  // simulation
  SIM_REJECTED: 'QUANTA_SIM_REJECTED',
  // venue signing
  INVALID_PRIVATE_KEY: 'QUANTA_INVALID_PRIVATE_KEY',
  SIGNING_FAILED: 'QUANTA_SIGNING_FAILED',
  // simulation options and inputs (engine configuration, replayed quotes)
  SIM_INVALID_INPUT: 'QUANTA_SIM_INVALID_INPUT',
  // paper venue (server options, listening)
  PAPER_INVALID_OPTION: 'QUANTA_PAPER_INVALID_OPTION',
  PAPER_LISTEN_FAILED: 'QUANTA_PAPER_LISTEN_FAILED',
  // backtest metrics and reports (options, report files)
  BACKTEST_INVALID_OPTION: 'QUANTA_BACKTEST_INVALID_OPTION',
  REPORT_WRITE_FAILED: 'QUANTA_REPORT_WRITE_FAILED',
  // recordings (files): a path that holds no recording; a recording that cannot be written
  RECORDING_NOT_FOUND: 'QUANTA_RECORDING_NOT_FOUND',
  RECORDING_WRITE: 'QUANTA_RECORDING_WRITE',
  /**
   * History brought in (`quanta import`): a CSV file, a market rules file or a row that cannot
   * be imported as it is (malformed, out of order, off the grid, another market's).
   */
  HISTORY_INVALID: 'QUANTA_HISTORY_INVALID',
  // control server: a non-loopback bind without its bearer token; the address cannot be bound
  CONTROL_TOKEN_MISSING: 'QUANTA_CONTROL_TOKEN_MISSING',
  CONTROL_LISTEN_FAILED: 'QUANTA_CONTROL_LISTEN_FAILED',
  // parameter sweeps: the BullMQ queue's redis does not answer
  QUEUE_UNREACHABLE: 'QUANTA_QUEUE_UNREACHABLE',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

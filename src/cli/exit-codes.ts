import { ErrorCodes, isQuantaError, type ErrorCode } from '../errors/index.ts';

/** DESIGN's exit codes. */
export const ExitCode = { OK: 0, FAILURE: 1, USAGE: 2, CREDENTIALS: 3, INTERRUPTED: 130 } as const;

const USAGE_CODES: ReadonlySet<ErrorCode> = new Set([
  ErrorCodes.CONFIG_INVALID,
  ErrorCodes.CONFIG_NOT_FOUND,
  ErrorCodes.USAGE,
  ErrorCodes.STRATEGY_LOAD,
  ErrorCodes.STRATEGY_PARAMS,
  ErrorCodes.WALLET_KEY_MISSING,
  ErrorCodes.INSECURE_TRANSPORT,
]);

const CREDENTIAL_CODES: ReadonlySet<ErrorCode> = new Set([
  ErrorCodes.VENUE_CREDENTIALS_REFUSED,
  ErrorCodes.VENUE_FORBIDDEN,
]);

/** The exit code an error ends the process with. */
export function exitCodeFor(error: unknown): number {
  if (!isQuantaError(error)) return ExitCode.FAILURE;
  if (USAGE_CODES.has(error.code)) return ExitCode.USAGE;
  if (CREDENTIAL_CODES.has(error.code)) return ExitCode.CREDENTIALS;
  return ExitCode.FAILURE;
}

/** The text printed for an error that ends a command: the message and its hints. */
export function describeError(error: unknown): string {
  if (isQuantaError(error)) return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

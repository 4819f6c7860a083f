import type { ErrorCode } from './codes.ts';

/** Options shared by every quanta error. */
export interface QuantaErrorOptions {
  /** The underlying error, kept for diagnosis. */
  cause?: unknown;
  /** Extra lines telling the user what to do about it. */
  details?: readonly string[];
}

/**
 * The one error family of quanta: every error the framework throws is a `QuantaError` with a
 * stable `code` (see `ErrorCodes`), a one-line `shortMessage` and optional hints in `details`.
 *
 * @example
 * ```ts
 * try { parseDecimalToX18('1e-3') } catch (e) {
 *   if (e instanceof QuantaError && e.code === ErrorCodes.INVALID_DECIMAL) { ... }
 * }
 * ```
 */
export class QuantaError extends Error {
  override name = 'QuantaError';
  readonly code: ErrorCode;
  readonly shortMessage: string;
  readonly details: readonly string[];

  constructor(code: ErrorCode, shortMessage: string, options: QuantaErrorOptions = {}) {
    const details = options.details ?? [];
    super([shortMessage, ...details].join('\n'), { cause: options.cause });
    this.code = code;
    this.shortMessage = shortMessage;
    this.details = details;
  }
}

/** True when `error` is a quanta error carrying `code`. */
export function isQuantaError(error: unknown, code?: ErrorCode): error is QuantaError {
  return error instanceof QuantaError && (code === undefined || error.code === code);
}

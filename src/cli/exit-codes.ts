import { isQuantaError, meaningOf, type ExitStatus } from '../errors/index.ts';

/** The exit codes of docs/design.md §5 (defined beside the error registry, which gives each code its own). */
export { ExitCode } from '../errors/index.ts';

/** The exit code an error ends the process with: its code's row in `ErrorMeanings`. */
export function exitCodeFor(error: unknown): ExitStatus {
  return meaningOf(error).exit;
}

/** The text printed for an error that ends a command: the message and its hints. */
export function describeError(error: unknown): string {
  if (isQuantaError(error)) return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

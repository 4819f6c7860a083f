import { isQuantaError } from './base-error.ts';

/** An error's code and one-line message for a log field (never a stack, never headers). */
export function summarizeError(error: unknown): { code?: string; message: string } {
  if (isQuantaError(error)) return { code: error.code, message: error.shortMessage };
  return { message: error instanceof Error ? error.message : String(error) };
}

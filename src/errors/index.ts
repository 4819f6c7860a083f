export { ErrorCodes, type ErrorCode } from './codes.ts';
export { QuantaError, isQuantaError, type QuantaErrorOptions } from './base-error.ts';
export {
  ErrorMeanings,
  EXIT_CODE_SUMMARIES,
  ExitCode,
  meaningOf,
  type ErrorMeaning,
  type ExitStatus,
  type OrderEffect,
  type SendMeaning,
} from './meanings.ts';
export { summarizeError } from './summarize-error.ts';

export { ErrorCodes, type ErrorCode } from './codes.ts';
export { QuantaError, isQuantaError, type QuantaErrorOptions } from './base-error.ts';
export { summarizeError } from './summarize-error.ts';

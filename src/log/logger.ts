import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

/**
 * Every path under which a secret could travel in a log record. Redaction is configured here,
 * once; the "no secret in logs" test runs a whole bot against it.
 */
export const REDACT_PATHS: readonly string[] = [
  'serviceSecret',
  'service_secret',
  'secret',
  'privateKey',
  'walletPrivateKey',
  'signingPrivateKey',
  'headers',
  'credentials',
  '*.serviceSecret',
  '*.service_secret',
  '*.secret',
  '*.privateKey',
  '*.walletPrivateKey',
  '*.signingPrivateKey',
  '*.headers',
  '*.credentials',
];

/** Options of {@link createLogger}. */
export interface CreateLoggerOptions {
  readonly level?: string;
  /** Where JSON lines go; defaults to stdout. Tests pass a stream to capture every line. */
  readonly destination?: DestinationStream;
}

/** The root pino logger of a process: JSON lines, secrets redacted. Parts take `.child({ part })`. */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const config: LoggerOptions = {
    level: options.level ?? 'info',
    redact: { paths: [...REDACT_PATHS], censor: '[redacted]' },
    base: { app: 'quanta' },
  };
  return options.destination === undefined ? pino(config) : pino(config, options.destination);
}

/** A logger that drops everything (for library calls without a logger). */
export const silentLogger: Logger = pino({ level: 'silent' });

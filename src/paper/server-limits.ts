import { ErrorCodes, QuantaError } from '../errors/index.ts';

/**
 * How much a client may take of the paper venue. Node's defaults hold a connection that sends
 * its headers or body slowly for up to 300 s and accept any number of them; a venue on loopback
 * needs neither: a real client sends a 64 KiB body in milliseconds.
 */
export interface PaperServerLimits {
  /** Connections open at once; one more is answered 503 (Retry-After: 1) and closed. */
  readonly maxConnections?: number;
  /** Time from connecting (or the previous request) to a request's last header, ms. */
  readonly headersTimeoutMs?: number;
  /** Time for a whole request, body included (the slow-body guard), ms; ≥ headersTimeoutMs. */
  readonly requestTimeoutMs?: number;
}

/** The limits with every value set. */
export type ResolvedServerLimits = Required<PaperServerLimits>;

/** The default limits: seconds, not minutes. */
export const DEFAULT_SERVER_LIMITS: ResolvedServerLimits = {
  maxConnections: 256,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
};

function invalid(message: string): QuantaError {
  return new QuantaError(ErrorCodes.PAPER_INVALID_OPTION, `paper venue option limits.${message}`);
}

/**
 * Checks `limits` and fills in the defaults.
 *
 * @throws QuantaError `QUANTA_PAPER_INVALID_OPTION` naming the limit and the rule.
 */
export function resolveServerLimits(limits: PaperServerLimits = {}): ResolvedServerLimits {
  const resolved = { ...DEFAULT_SERVER_LIMITS, ...limits };
  for (const name of ['maxConnections', 'headersTimeoutMs', 'requestTimeoutMs'] as const) {
    const value = resolved[name];
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw invalid(`${name}: expected a positive integer, got ${String(value)}`);
    }
  }
  if (resolved.requestTimeoutMs < resolved.headersTimeoutMs) {
    throw invalid(
      `requestTimeoutMs: expected at least headersTimeoutMs (${resolved.headersTimeoutMs}), got ${resolved.requestTimeoutMs}`,
    );
  }
  return resolved;
}

/**
 * How often Node looks for connections past their timeouts: a timeout is enforced within this
 * much of its due time (Node's default, 30 s, would make a 10 s limit a 40 s one).
 */
export function checkIntervalMs(limits: ResolvedServerLimits): number {
  return Math.min(1000, Math.max(10, Math.floor(limits.headersTimeoutMs / 4)));
}

import { ErrorCodes, QuantaError } from '../errors/index.ts';

// Date's own range: any clock reading outside it cannot be written as an ISO timestamp.
const MAX_CLOCK_MS = 8.64e15;

/**
 * Reads the engine's clock, checked: ms since the epoch within Date's range.
 *
 * @throws QuantaError `QUANTA_SIM_INVALID_INPUT` for anything else.
 */
export function readSimClock(clock: () => number): number {
  const now = clock();
  if (typeof now !== 'number' || !Number.isFinite(now) || Math.abs(now) > MAX_CLOCK_MS) {
    throw new QuantaError(
      ErrorCodes.SIM_INVALID_INPUT,
      `sim clock returned ${String(now)}: expected ms since the epoch`,
    );
  }
  return now;
}

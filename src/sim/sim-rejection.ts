import { ErrorCodes, QuantaError } from '../errors/index.ts';

/**
 * An order the simulation refuses, with the venue's exact message (docs/conventions.md §4.4), so the
 * paper venue can answer `400` with `shortMessage` as it is.
 *
 * @example
 * try { engine.placeOrder('acct', request) } catch (e) {
 *   if (e instanceof SimRejection) answer(400, e.shortMessage);
 * }
 */
export class SimRejection extends QuantaError {
  override name = 'SimRejection';

  constructor(message: string) {
    super(ErrorCodes.SIM_REJECTED, message);
  }
}

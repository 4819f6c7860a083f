export { startPaperVenue, type PaperVenue, type PaperRequest } from './server.ts';
export type { PaperVenueOptions } from './options.ts';
export { MAX_BODY_BYTES } from './read-body.ts';
export { DEFAULT_SERVER_LIMITS, type PaperServerLimits } from './server-limits.ts';
export { MAX_REGISTRATION_AHEAD_MS } from './routes/register.ts';
export { simOrderToVenueOrder } from './order-to-wire.ts';
export {
  createInProcessPaperVenue,
  type InProcessPaperVenue,
  type InProcessAnswer,
} from './in-process.ts';

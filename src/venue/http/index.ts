export { parseEnvelope, type VenueEnvelope, type EnvelopeContext } from './envelope.ts';
export {
  venueRequest,
  venueRequestDecoded,
  type AnswerMemo,
  type DecodedAnswer,
  DEFAULT_MAX_RESPONSE_BYTES,
  type VenueRequestOptions,
  type VenueResponse,
  type VenueMethod,
} from './request.ts';
export { assertCredentialTransport, isLoopbackHost } from './secure-transport.ts';
export { parseRetryAfter } from './retry-after.ts';
export { redactSecrets } from './redact.ts';

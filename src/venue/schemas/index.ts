export { zodIssueLines, parseWire, type WireParseOptions } from './wire-error.ts';
export {
  INT128_MAX,
  x18String,
  decimalString,
  int128DecimalString,
  safeInteger,
  nonNegativeInteger,
  timestampMs,
  isoTimestamp,
  wireEnum,
  marketType,
  hexAddress,
  hexSignature,
} from './primitives.ts';
export {
  marketRowSchema,
  parseMarketRow,
  parseMarketList,
  marketToWireRow,
  type MarketRow,
} from './market-row.ts';
export {
  orderRequestBodySchema,
  wireOrderSchema,
  parseOrderRequestBody,
  checkOrderRequestBodyFast,
  parseVenueOrder,
  venueOrderToWire,
  type WireOrder,
} from './order.ts';
export {
  registrationRequestSchema,
  registrationResultSchema,
  parseRegistrationRequest,
  parseRegistrationResult,
  credentialsToWire,
  type RegistrationRequest,
  type RegistrationResult,
} from './registration.ts';
export {
  wireQuoteSchema,
  quotesBodySchema,
  parseQuotes,
  quotesToWire,
  type QuotesBody,
} from './quotes.ts';

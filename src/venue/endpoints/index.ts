export { credentialHeaders, type OrderCredentials, type VenueConnection } from './connection.ts';
export { listMarkets, newMarketListMemo, type MarketListMemo } from './list-markets.ts';
export { getQuotes } from './get-quotes.ts';
export { register } from './register.ts';
export { createOrder, type SignedOrderBytes } from './create-order.ts';
export { findOrder, getOrder } from './get-order.ts';

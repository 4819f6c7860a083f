/** Which way an order trades. */
export type OrderSide = 'BUY' | 'SELL';

/** How an order is priced: at whatever the book gives (immediate or cancel), or at a limit. */
export type OrderType = 'MARKET' | 'LIMIT';

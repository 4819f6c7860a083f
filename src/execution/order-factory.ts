import type { Market, OrderIntent } from '../domain/index.ts';
import { formatX18 } from '../money/index.ts';
import type { OrderRequestBody } from '../venue/types.ts';
import { nextExpiryTs, type ExpiryFloor } from './expiry-floor.ts';
import type { NewOrder } from './journal.ts';
import type { SizedOrder } from './pre-trade/index.ts';

/** Signs an order body with the registered signing key. */
export interface OrderSigner {
  /**
   * @param json - `JSON.stringify(body)`, the exact bytes the order carries, when the caller made
   *   them already (the executor always does): a signer of those bytes need not make them again.
   */
  sign(body: OrderRequestBody, json?: string): Promise<{ signature: string; signer: string }>;
}

/**
 * Turns a sized order into the signed bytes the journal keeps and the dispatcher sends: the
 * venue's request body with an expiry no earlier order of this journal used, and its signature.
 */
export class OrderFactory {
  readonly #signer: OrderSigner;
  readonly #orderTtlMs: number;
  #lastExpiryTs = 0;
  /** Journaled expiries beyond the recovered floor: never signed again (see `expiryFloorOf`). */
  #takenExpiries: ReadonlySet<number> = new Set();

  /** @param options.orderTtlMs - default validity of an order (`execution.orderTtlMs`). */
  constructor(options: { readonly signer: OrderSigner; readonly orderTtlMs: number }) {
    this.#signer = options.signer;
    this.#orderTtlMs = options.orderTtlMs;
  }

  /** Expiries start after what the journal holds (recovery's floor; see `expiryFloorOf`). */
  startAfter(floor: Pick<ExpiryFloor, 'floorTs' | 'taken'>): void {
    this.#lastExpiryTs = floor.floorTs;
    this.#takenExpiries = floor.taken;
  }

  /** The signed order of `intent`, sized as `order`, in `market`, at `now`. */
  async sign(
    strategy: string,
    intent: OrderIntent,
    order: SizedOrder,
    market: Market,
    referencePrice: bigint | null,
    now: number,
  ): Promise<NewOrder> {
    // Strictly increasing expiry makes every body, and so every signature, unique: two equal
    // intents in the same millisecond would otherwise sign to the same bytes and the second
    // would be answered "signature already used".
    const expiryTs = nextExpiryTs(
      now + (intent.expiresInMs ?? this.#orderTtlMs),
      this.#lastExpiryTs,
      this.#takenExpiries,
    );
    this.#lastExpiryTs = expiryTs;
    const body: OrderRequestBody = {
      marketId: order.marketId,
      isBuy: order.side === 'BUY',
      orderType: order.type,
      amount: formatX18(order.amountX18),
      price: formatX18(order.priceX18),
      expiryTs,
      isReduce: order.reduceOnly,
    };
    const json = JSON.stringify(body);
    const { signature, signer } = await this.#signer.sign(body, json);
    return {
      strategy,
      tag: intent.tag ?? null,
      marketId: market.id,
      symbol: market.symbol,
      side: order.side,
      type: order.type,
      amountX18: order.amountX18,
      priceX18: order.priceX18,
      reduceOnly: order.reduceOnly,
      body: json,
      signature,
      signer,
      expiryTs,
      referencePriceX18: referencePrice,
    };
  }
}

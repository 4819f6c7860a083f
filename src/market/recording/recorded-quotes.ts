import type { Quote } from '../../domain/index.ts';

/**
 * Where each market's quote sits in a snapshot line, shared by every line that lists the same
 * markets in the same order (the writer's lines do while the listing holds).
 */
export class QuotePlaces {
  readonly #ids: readonly number[];
  // Each id's place at index id (-1: not listed), for ids from 0 to MAX_SLOT_ID: a typed
  // array's element, where a Map's lookup was most of what finding a quote cost (a strategy
  // and the kept tops each look up every market it names, every snapshot). Undefined when an id
  // is beyond, or not an integer (then `#index` answers).
  readonly #slots: Int32Array | undefined;
  readonly #index: ReadonlyMap<number, number>;

  private constructor(ids: readonly number[], index: ReadonlyMap<number, number>) {
    this.#ids = ids;
    this.#index = index;
    let highest = -1;
    for (const id of ids) {
      if (!(Number.isInteger(id) && id >= 0 && id <= MAX_SLOT_ID)) {
        highest = -1;
        break;
      }
      if (id > highest) highest = id;
    }
    if (highest < 0) return;
    this.#slots = new Int32Array(highest + 1).fill(-1);
    for (let i = 0; i < ids.length; i++) this.#slots[ids[i] as number] = i;
  }

  /**
   * The places of `count` market ids (copied), or undefined when one is listed twice (a Map
   * then decides which quote stays).
   */
  static of(ids: readonly number[], count: number): QuotePlaces | undefined {
    const own = ids.slice(0, count);
    const index = new Map<number, number>();
    for (let i = 0; i < count; i++) index.set(own[i] as number, i);
    return index.size === count ? new QuotePlaces(own, index) : undefined;
  }

  /** True when the first `count` of `ids` are these, in this order. */
  same(ids: readonly number[], count: number): boolean {
    if (count !== this.#ids.length) return false;
    for (let i = 0; i < count; i++) if (ids[i] !== this.#ids[i]) return false;
    return true;
  }

  get ids(): readonly number[] {
    return this.#ids;
  }

  place(id: number): number | undefined {
    const slots = this.#slots;
    if (slots === undefined) return this.#index.get(id);
    // Any id not listed (beyond the array, negative, fractional, NaN) reads undefined or -1.
    const slot = slots[id];
    return slot === undefined || slot < 0 ? undefined : slot;
  }
}

/** The highest market id {@link QuotePlaces} finds by array (an Int32Array of 4 bytes an id). */
const MAX_SLOT_ID = 1 << 16;

/**
 * A snapshot's recorded quotes by market id: a `ReadonlyMap` over the line's quotes in their
 * order, looked up through places shared between snapshots, so a snapshot costs one array
 * rather than a Map of its own (building twenty-entry Maps was a tenth of what reading a
 * recording allocated). Iterates in the line's order, as the Map did.
 */
export class RecordedQuotes implements ReadonlyMap<number, Quote> {
  readonly #places: QuotePlaces;
  readonly #quotes: readonly Quote[];

  /** @param quotes - the line's quotes, `quotes[i]` of market `places.ids[i]`. */
  constructor(places: QuotePlaces, quotes: readonly Quote[]) {
    this.#places = places;
    this.#quotes = quotes;
  }

  get size(): number {
    return this.#quotes.length;
  }

  get(marketId: number): Quote | undefined {
    const place = this.#places.place(marketId);
    return place === undefined ? undefined : this.#quotes[place];
  }

  has(marketId: number): boolean {
    return this.#places.place(marketId) !== undefined;
  }

  forEach(
    callback: (quote: Quote, marketId: number, map: ReadonlyMap<number, Quote>) => void,
    thisArg?: unknown,
  ): void {
    const ids = this.#places.ids;
    for (let i = 0; i < this.#quotes.length; i++)
      callback.call(thisArg, this.#quotes[i] as Quote, ids[i] as number, this);
  }

  values(): MapIterator<Quote> {
    return this.#quotes.values();
  }

  keys(): MapIterator<number> {
    return this.#places.ids.values();
  }

  *entries(): MapIterator<[number, Quote]> {
    const ids = this.#places.ids;
    for (let i = 0; i < this.#quotes.length; i++)
      yield [ids[i] as number, this.#quotes[i] as Quote];
  }

  [Symbol.iterator](): MapIterator<[number, Quote]> {
    return this.entries();
  }
}

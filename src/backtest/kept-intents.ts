/** Intents kept before the pool starts over (a run repeats a few intents many times). */
const MAX_KEPT = 4096;

/**
 * One copy of each intent the trace keeps (`trace.intents`): a strategy that trades often
 * produces the same few intents (market, side, type, amount, tag) thousands of times, and a long
 * run held each of them, some 60 bytes an order (test/bench/backtest-heap.bench.ts). The intents
 * are the strategy host's own validated copies (no strategy holds them), so an equal one of the
 * same fields in the same order serves as well. An intent with a value that is not a string,
 * number or boolean (its `exits`) is kept as it is. Sharing is safe only because nothing writes
 * to an intent once the host made it (`OrderIntent`'s fields are readonly) and nothing writes to a
 * trace: the first of equal intents is also the object the executor was given.
 */
export class KeptIntents {
  readonly #kept = new Map<string, unknown>();

  /** The copy kept of `intent` (the intent itself, the first time it is seen). */
  one<T>(intent: T): T {
    const key = keyOf(intent);
    if (key === undefined) return intent;
    const known = this.#kept.get(key);
    if (known !== undefined) return known as T;
    if (this.#kept.size >= MAX_KEPT) this.#kept.clear();
    this.#kept.set(key, intent);
    return intent;
  }
}

// Its fields in order, each with its type: `1` and `'1'`, or a missing field and `undefined`,
// differ. Each text with its length first, so no text can pass for another's end.
function keyOf(intent: unknown): string | undefined {
  if (typeof intent !== 'object' || intent === null) return undefined;
  if (Object.getPrototypeOf(intent) !== Object.prototype) return undefined;
  let key = '';
  // (A plain object: `for…in` sees its own fields, in order.)
  for (const field in intent) {
    const value = (intent as Record<string, unknown>)[field];
    let text: string;
    if (typeof value === 'string') text = `s${value}`;
    else if (typeof value === 'number') text = Object.is(value, -0) ? 'n-0' : `n${value}`;
    else if (typeof value === 'boolean') text = value ? 'b1' : 'b0';
    else return undefined;
    key += `${field.length}:${field}${text.length}:${text}`;
  }
  return key;
}

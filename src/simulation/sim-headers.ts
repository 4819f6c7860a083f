/**
 * The headers of an answer of the simulated network, as a fetch `Response`'s headers read:
 * names in any case, iterated sorted by name, immutable (`append`, `set` and `delete` throw, as
 * on a response fetch gave). Made from the venue's own record (names lowercased, values as the
 * venue wrote them) without building undici's `Headers`, whose checks of every name and value
 * cost more than the rest of an answer's way back (see sim-response.ts). A name that is not a
 * valid header name reads as absent instead of throwing.
 */
export class SimHeaders implements Headers {
  readonly #byName = new Map<string, string>();

  constructor(record: Readonly<Record<string, string>>) {
    for (const name of Object.keys(record)) this.#byName.set(name.toLowerCase(), record[name]!);
  }

  get(name: string): string | null {
    return this.#byName.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#byName.has(name.toLowerCase());
  }

  getSetCookie(): string[] {
    const cookie = this.#byName.get('set-cookie');
    return cookie === undefined ? [] : [cookie];
  }

  forEach(
    callbackfn: (value: string, key: string, iterable: Headers) => void,
    thisArg?: unknown,
  ): void {
    for (const [name, value] of this.#sorted()) callbackfn.call(thisArg, value, name, this);
  }

  entries(): ArrayIterator<[string, string]> {
    return this.#sorted()[Symbol.iterator]();
  }

  keys(): ArrayIterator<string> {
    return this.#sorted()
      .map(([name]) => name)
      [Symbol.iterator]();
  }

  values(): ArrayIterator<string> {
    return this.#sorted()
      .map(([, value]) => value)
      [Symbol.iterator]();
  }

  [Symbol.iterator](): ArrayIterator<[string, string]> {
    return this.entries();
  }

  append(_name: string, _value: string): void {
    immutable();
  }

  set(_name: string, _value: string): void {
    immutable();
  }

  delete(_name: string): void {
    immutable();
  }

  /** The headers as a record (names lowercased), e.g. to build a real `Response` of them. */
  toRecord(): Record<string, string> {
    return Object.fromEntries(this.#byName);
  }

  #sorted(): [string, string][] {
    return [...this.#byName].sort(([a], [b]) => (a < b ? -1 : 1));
  }
}

function immutable(): never {
  throw new TypeError('immutable');
}

/**
 * An answer of the simulated network whose whole body is a string already: `text()` and
 * `json()` give it without a stream. A `Response` made from a string builds a web stream that
 * `text()` then reads back (about 0.2 ms a request, an eighth of a schedule's time), and the bot
 * reads every answer that declares its length with `text()` (venue/http/request.ts). The other
 * readers (`arrayBuffer()`, `blob()`, `formData()`, `clone()`) get a real `Response` of the same
 * text, made on first use; a body is read once only, as fetch's. `body` is null: only an answer
 * without a `content-length` is read as a stream, and the simulated network sends those as
 * plain `Response`s.
 */
export class SimResponse extends Response {
  readonly #text: string;
  #read = false;

  constructor(text: string, init: ResponseInit) {
    super(null, init);
    this.#text = text;
  }

  #take(): string {
    if (this.#read) throw new TypeError('Body is unusable: Body has already been read');
    this.#read = true;
    return this.#text;
  }

  #whole(): Response {
    return new Response(this.#take(), {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
    });
  }

  // Node's type declarations have these as properties, so TypeScript refuses them as methods
  // here; they are put on the prototype instead of made per answer (five closures an answer).
  static {
    const readers: Partial<Record<keyof Response, (this: SimResponse) => unknown>> = {
      text() {
        return this.#deferred(() => Promise.resolve(this.#take()));
      },
      json() {
        return this.#deferred(() => Promise.resolve(JSON.parse(this.#take()) as unknown));
      },
      arrayBuffer() {
        return this.#deferred(() => this.#whole().arrayBuffer());
      },
      blob() {
        return this.#deferred(() => this.#whole().blob());
      },
      formData() {
        return this.#deferred(() => this.#whole().formData());
      },
      clone() {
        if (this.#read) throw new TypeError('Body is unusable: Body has already been read');
        return new SimResponse(this.#text, {
          status: this.status,
          statusText: this.statusText,
          headers: this.headers,
        });
      },
    };
    for (const [name, value] of Object.entries(readers))
      Object.defineProperty(SimResponse.prototype, name, {
        value,
        writable: true,
        configurable: true,
      });
  }

  /** `read` as a promise: what it throws becomes the rejection. */
  #deferred<T>(read: () => Promise<T>): Promise<T> {
    return Promise.resolve().then(read);
  }
}

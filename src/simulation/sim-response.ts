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

  // Own properties, as Node's type declarations have them (not prototype methods).
  override readonly text = (): Promise<string> =>
    this.#deferred(() => Promise.resolve(this.#take()));

  override readonly json = async (): Promise<unknown> => JSON.parse(await this.text()) as unknown;

  override readonly arrayBuffer = (): Promise<ArrayBuffer> =>
    this.#deferred(() => this.#whole().arrayBuffer());

  override readonly blob = (): Promise<Blob> => this.#deferred(() => this.#whole().blob());

  override readonly formData = (): Promise<FormData> =>
    this.#deferred(() => this.#whole().formData());

  override readonly clone = (): Response => {
    if (this.#read) throw new TypeError('Body is unusable: Body has already been read');
    return new SimResponse(this.#text, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
    });
  };

  /** `read` as a promise: what it throws becomes the rejection. */
  #deferred<T>(read: () => Promise<T>): Promise<T> {
    return Promise.resolve().then(read);
  }
}

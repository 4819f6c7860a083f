import { SimHeaders } from './sim-headers.ts';

/** What a {@link SimResponse} is made of. */
export interface SimResponseInit {
  readonly status: number;
  readonly statusText?: string;
  /** Names in any case; values as sent. */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * An answer of the simulated network whose whole body is a string already: `text()` and
 * `json()` give it without a stream. A `Response` made from a string builds a web stream that
 * `text()` then reads back (about 0.2 ms a request, an eighth of a schedule's time), and the bot
 * reads every answer that declares its length with `text()` (venue/http/request.ts). The other
 * readers (`arrayBuffer()`, `blob()`, `formData()`, `bytes()`) read a real `Response` of the same
 * text, made on first use; a body is read once only, as fetch's. `body` is null: only an answer
 * without a `content-length` is read as a stream, and the simulated network sends those as
 * plain `Response`s.
 *
 * It is a `Response` (`instanceof` holds, its prototype is `Response.prototype`) whose members
 * are all its own: undici's constructor is never run, as its checks of the status and of every
 * header (`SimHeaders`) were most of the cost of an answer's way back to the bot.
 */
export class SimResponse implements Response {
  readonly status: number;
  readonly statusText: string;
  readonly headers: SimHeaders;
  readonly #text: string;
  #read = false;

  constructor(text: string, init: SimResponseInit) {
    this.status = init.status;
    this.statusText = init.statusText ?? '';
    this.headers = new SimHeaders(init.headers);
    this.#text = text;
  }

  static {
    // Every member of Response.prototype is shadowed here (an accessor left unshadowed would
    // throw: the object holds none of undici's internal state).
    Object.setPrototypeOf(SimResponse.prototype, Response.prototype);
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  get type(): Response['type'] {
    return 'default';
  }

  get url(): string {
    return '';
  }

  get redirected(): boolean {
    return false;
  }

  get body(): null {
    return null;
  }

  get bodyUsed(): boolean {
    return this.#read;
  }

  text(): Promise<string> {
    return this.#deferred(() => Promise.resolve(this.#take()));
  }

  json(): Promise<unknown> {
    return this.#deferred(() => Promise.resolve(JSON.parse(this.#take()) as unknown));
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#deferred(() => this.#whole().arrayBuffer());
  }

  bytes(): Promise<Uint8Array> {
    return this.#deferred(async () => new Uint8Array(await this.#whole().arrayBuffer()));
  }

  blob(): Promise<Blob> {
    return this.#deferred(() => this.#whole().blob());
  }

  formData(): Promise<FormData> {
    return this.#deferred(() => this.#whole().formData());
  }

  clone(): SimResponse {
    if (this.#read) throw new TypeError('Body is unusable: Body has already been read');
    return new SimResponse(this.#text, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers.toRecord(),
    });
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
      headers: this.headers.toRecord(),
    });
  }

  /** `read` as a promise: what it throws becomes the rejection. */
  #deferred<T>(read: () => Promise<T>): Promise<T> {
    return Promise.resolve().then(read);
  }
}

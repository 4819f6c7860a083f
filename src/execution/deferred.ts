/** A promise and the function that resolves it (Node 20 has no `Promise.withResolvers`). */
export interface Deferred {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
}

/** A new {@link Deferred}, pending until its `resolve` is called. */
export function deferred(): Deferred {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/**
 * Where decoded sides keep their numbers: shared chunks of one `Float64Array`, a side taking the
 * next stretch of the current chunk. A typed array of its own per side cost a backing store each
 * (measured: over a microsecond to make a 30-number `Float64Array`, ten times a plain array), and
 * one chunk serves a few hundred sides; a chunk is freed once no side in it is referenced.
 */

/** Numbers per chunk (16 KiB): a few hundred sides of ten levels. */
const CHUNK = 2048;

let chunk = new Float64Array(CHUNK);
let used = 0;

/**
 * Reserves `length` numbers; returns where they start in {@link arenaChunk}, which is the chunk
 * to write them into (read it after this call: a full chunk is replaced by a new one).
 */
export function reserveNumbers(length: number): number {
  if (used + length > chunk.length) {
    chunk = new Float64Array(Math.max(CHUNK, length));
    used = 0;
  }
  const from = used;
  used += length;
  return from;
}

/** The chunk the last {@link reserveNumbers} reserved in. */
export function arenaChunk(): Float64Array {
  return chunk;
}

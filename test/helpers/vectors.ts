import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The venue spec's known-answer vectors, copied byte for byte into `test/fixtures/vectors/` and
 * never edited there (see the README in that folder).
 */
export const VECTORS_DIR = fileURLToPath(new URL('../fixtures/vectors/', import.meta.url));

export function readVector<T>(name: 'decimal.json' | 'eip712.json'): T {
  return JSON.parse(readFileSync(VECTORS_DIR + name, 'utf8')) as T;
}

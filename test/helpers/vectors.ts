import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The shared known-answer vectors, read in place from `../shared/vectors` (never copied). */
export const VECTORS_DIR = fileURLToPath(new URL('../../../shared/vectors/', import.meta.url));

export function readVector<T>(name: 'decimal.json' | 'eip712.json'): T {
  return JSON.parse(readFileSync(VECTORS_DIR + name, 'utf8')) as T;
}

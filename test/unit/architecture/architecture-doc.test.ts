/** docs/architecture.md names real paths: every `src/...` or `docs/...` path in it exists. */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const DOC = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

it('every path docs/architecture.md names exists', () => {
  const paths = [...DOC.matchAll(/\b((?:src|docs|test)\/[\w./-]*[\w/])/g)]
    .map((m) => m[1] ?? '')
    .filter((path) => !path.includes('<'));
  expect(paths.length).toBeGreaterThan(10);
  expect(paths.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
});

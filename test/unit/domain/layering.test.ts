/**
 * The domain layer sits below venue and sim (docs/design.md §2): it imports only money (and the
 * error registry money itself uses), plus zod, in which intent-schema.ts states what a valid
 * order intent is (a pure library: no I/O, no clock), and the wire folder no longer declares
 * domain types.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../../src');

function importsOf(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  return [...code.matchAll(/^(?:import|export)\b[^;]*?from '([^']+)';/gms)].map((m) => m[1] ?? '');
}

describe('domain layer', () => {
  const domainFiles = readdirSync(join(SRC, 'domain')).filter((f) => f.endsWith('.ts'));

  it('imports nothing but itself, money, errors and zod', () => {
    expect(domainFiles).toEqual(expect.arrayContaining(['market.ts', 'order-state.ts']));
    for (const file of domainFiles) {
      for (const from of importsOf(join(SRC, 'domain', file))) {
        expect(from, file).toMatch(/^(?:\.\/[\w-]+\.ts|\.\.\/(?:money|errors)\/index\.ts|zod)$/);
      }
    }
  });

  it('owns the shared types: venue/types.ts declares only wire shapes', () => {
    const wire = readFileSync(join(SRC, 'venue/types.ts'), 'utf8');
    const declared = [...wire.matchAll(/^export (?:interface|type|const) (\w+)/gm)].map(
      (m) => m[1],
    );
    expect(declared).toEqual([
      'OrderRequestBody',
      'VenueOrder',
      'ServiceCredentials',
      'SigningDomainConfig',
      'DEFAULT_SIGNING_DOMAIN',
    ]);
  });
});

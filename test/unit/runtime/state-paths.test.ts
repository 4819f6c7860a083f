/**
 * Issue 12, item 4: only a fully embedded venue keeps its state in the emptied `paper/` dir and
 * may use a throwaway wallet key; a venue embedded for one API only is refused before anything
 * is removed.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../../src/cli/exit-codes.ts';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';
import { statePaths } from '../../../src/runtime/state-paths.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quanta-state-paths-'));
  mkdirSync(join(dir, 'paper'));
  writeFileSync(join(dir, 'paper', 'journal.sqlite'), 'in-flight orders');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('statePaths', () => {
  it('fully embedded: paper/ (emptied at start) and a throwaway key file', () => {
    const paths = statePaths(dir, { writeUrl: 'embedded', readUrl: 'embedded' });
    expect(paths).toEqual({
      journal: join(dir, 'paper', 'journal.sqlite'),
      credentials: join(dir, 'paper', 'credentials.json'),
      paperWalletKey: join(dir, 'paper-wallet.key'),
    });
    expect(existsSync(join(dir, 'paper'))).toBe(false);
  });

  it('a real venue: state.dir itself, nothing removed, no throwaway key', () => {
    const paths = statePaths(dir, {
      writeUrl: 'https://venue.example.com',
      readUrl: 'https://venue.example.com',
    });
    expect(paths).toEqual({
      journal: join(dir, 'journal.sqlite'),
      credentials: join(dir, 'credentials.json'),
      paperWalletKey: undefined,
    });
    expect(existsSync(join(dir, 'paper', 'journal.sqlite'))).toBe(true);
  });

  it.each([
    ['real write, embedded read', { writeUrl: 'https://venue.example.com', readUrl: 'embedded' }],
    ['embedded write, real read', { writeUrl: 'embedded', readUrl: 'https://venue.example.com' }],
  ])('%s is refused (exit 2) and empties nothing', (_, venue) => {
    let caught: unknown;
    try {
      statePaths(dir, venue);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(QuantaError);
    expect((caught as QuantaError).code).toBe(ErrorCodes.CONFIG_INVALID);
    expect(exitCodeFor(caught)).toBe(2);
    expect(existsSync(join(dir, 'paper', 'journal.sqlite'))).toBe(true);
  });
});

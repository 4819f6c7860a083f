/**
 * `quanta backtest` on a recording with a duplicated snapshot line (issue 12): it refuses the
 * data naming file:line, and with `--repair` replays it without the duplicate and says so.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../../src/cli/exit-codes.ts';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';

const FIXTURE = join(ROOT, 'test/fixtures/recording/recording-2026-11-23T04-03-16-618Z.jsonl.gz');
const dir = mkdtempSync(join(tmpdir(), 'quanta-bad-recording-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The fixture as a plain file with its 10th snapshot line written twice; returns its path. */
function duplicatedLine(): { path: string; line: number } {
  const lines = gunzipSync(readFileSync(FIXTURE)).toString('utf8').split('\n');
  const snapshotLines = lines.flatMap((text, index) => (text.startsWith('["s",') ? [index] : []));
  const index = snapshotLines[9] as number;
  lines.splice(index + 1, 0, lines[index] as string);
  const path = join(dir, 'rec.jsonl');
  writeFileSync(path, lines.join('\n'));
  // The copy is line index + 2 (1-based).
  return { path, line: index + 2 };
}

function backtest(...extra: string[]) {
  return spawnSync(
    process.execPath,
    ['bin/quanta.js', 'backtest', '--config', 'test/fixtures/configs/dca.yaml', ...extra],
    { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
  );
}

describe('quanta backtest on a recording with a duplicated snapshot line', () => {
  const { path, line } = duplicatedLine();

  it('fails naming file:line, with the exit code of bad recording data', () => {
    const result = backtest('--data', path);
    expect(result.status).toBe(
      exitCodeFor(new QuantaError(ErrorCodes.RECORDING_INVALID, 'bad recording')),
    );
    expect(result.stderr).toContain(`${path}:${line}: snapshot seq`);
    expect(result.stderr).toContain('--repair');
    expect(result.stdout).toBe('');
  }, 60_000);

  it('with --repair, replays it without the duplicate and prints how many it dropped', () => {
    const result = backtest('--data', path, '--repair');
    expect(result.stderr).toContain(
      'repair: dropped 1 snapshot whose seq or takenAt did not increase',
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Backtest: \d+ snapshots/m);
  }, 60_000);
});

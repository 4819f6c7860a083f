import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const LOGGER = fileURLToPath(new URL('../../../src/log/logger.ts', import.meta.url));

describe('createLogger', () => {
  it('writes stdout synchronously: the lines before a SIGKILL are all there, secrets redacted', () => {
    const script = [
      `const { createLogger } = await import(${JSON.stringify(LOGGER)});`,
      `const log = createLogger();`,
      `for (let i = 0; i < 50; i++) log.info({ n: i, credentials: { serviceSecret: 's3cr3t' } }, 'event');`,
      `process.kill(process.pid, 'SIGKILL');`,
    ].join('\n');
    const child = spawnSync(
      process.execPath,
      ['--conditions=quanta-source', '--import', 'tsx', '--input-type=module', '-e', script],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(child.signal).toBe('SIGKILL');
    const lines = child.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { n: number; credentials: unknown });
    expect(lines.map((line) => line.n)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(lines.every((line) => line.credentials === '[redacted]')).toBe(true);
    expect(child.stdout).not.toContain('s3cr3t');
  });
});

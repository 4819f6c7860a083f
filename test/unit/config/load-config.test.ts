import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG_PATH, loadConfig } from '../../../src/config/index.ts';
import { ErrorCodes, isQuantaError } from '../../../src/errors/index.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('loadConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quanta-load-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the file and resolves relative paths from its directory', async () => {
    const file = join(dir, 'bot.yaml');
    writeFileSync(
      file,
      'venue: { writeUrl: embedded, readUrl: embedded }\nstate: { dir: data }\nrisk: { killSwitchFile: STOP }\nstrategies: [{ module: ./s.ts, markets: [ETH-USD] }]\n',
    );
    const config = await loadConfig(file, { env: {} });
    expect(config.state.dir).toBe(join(dir, 'data'));
    expect(config.risk.killSwitchFile).toBe(join(dir, 'STOP'));
    expect(config.strategies[0]?.module).toBe(join(dir, 's.ts'));
  });

  it('names the file as given in error lines', async () => {
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, 'venue: 1\n');
    const given = relative(process.cwd(), file);
    await expect(loadConfig(given)).rejects.toThrow(
      `${given}:1:8 venue: expected a mapping, got 1`,
    );
  });

  it('a missing file is CONFIG_NOT_FOUND naming the absolute path tried', async () => {
    const missing = join(dir, 'nope', 'absent.yaml');
    const error: unknown = await loadConfig(missing).catch((e: unknown) => e);
    expect(isQuantaError(error, ErrorCodes.CONFIG_NOT_FOUND)).toBe(true);
    expect((error as Error).message.replace(dir, '<dir>')).toMatchInlineSnapshot(`
      "config file <dir>/nope/absent.yaml not found
      Pass an existing YAML file with --config (default: config/paper.yaml)."
    `);
  });

  it('a directory is CONFIG_NOT_FOUND too', async () => {
    const error: unknown = await loadConfig(dir).catch((e: unknown) => e);
    expect(isQuantaError(error, ErrorCodes.CONFIG_NOT_FOUND)).toBe(true);
    expect((error as Error).message).toContain(`${dir} is a directory`);
  });
});

describe('shipped configs', () => {
  it(`${DEFAULT_CONFIG_PATH} runs dca, mean-reversion and the ema-cross example against the embedded venue`, async () => {
    const config = await loadConfig(join(ROOT, DEFAULT_CONFIG_PATH));
    expect(config.venue.writeUrl).toBe('embedded');
    expect(config.venue.readUrl).toBe('embedded');
    expect(config.state.dir).toBe(join(ROOT, '.quanta'));
    expect(config.strategies.map((s) => [s.module, s.markets])).toEqual([
      [join(ROOT, 'strategies/dca.ts'), ['ETH-USD']],
      [join(ROOT, 'strategies/mean-reversion.ts'), ['BTC-USD']],
      [join(ROOT, 'strategies/ema-cross.ts'), ['SOL-USD']],
    ]);
  });

  it('config/live.example.yaml parses and points at https URLs', async () => {
    const config = await loadConfig(join(ROOT, 'config/live.example.yaml'));
    expect(config.venue.writeUrl).toMatch(/^https:\/\//);
    expect(config.venue.readUrl).toMatch(/^https:\/\//);
    expect(config.risk.dailyLossLimit).toBe('1000');
  });
});

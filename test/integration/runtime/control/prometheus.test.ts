/**
 * Issue 14, done-when: Debian's `prometheus`, started here on a free port with a temporary
 * config and data dir, scrapes a running bot (bearer token and all) and its HTTP API is queried
 * until the bot's order counter and net PnL gauge show what the journal holds.
 *
 * Needs the `prometheus` binary: `npm test` installs it first (`.ci/ensure-debian-tools.sh` runs
 * `apt-get install -y prometheus` as root, or stops with the command to run). Without it this
 * test fails and says so; it is never skipped.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { generatePrivateKey } from 'viem/accounts';
import { loadConfig } from '../../../../src/config/index.ts';
import type { OrderRecord } from '../../../../src/execution/order-record.ts';
import { startPaperVenue } from '../../../../src/paper/index.ts';
import { startBotWithParts } from '../../../../src/runtime/bot.ts';
import { captureLogs, strategyModule, tempDir, waitFor, WALLET_ENV } from '../harness.ts';
import { writeControlConfig } from './control-harness.ts';
import { freePort } from '../../../helpers/free-port.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

const INSTALL_HINT =
  'the prometheus binary is missing: run `npm test` (its pretest installs it as root) or `sudo apt-get install -y prometheus`';

/** The prometheus binary on PATH, or a failure that says how to get it. */
function prometheusBinary(): string {
  const found = spawnSync('sh', ['-c', 'command -v prometheus'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  if (found.status !== 0 || path === '') throw new Error(INSTALL_HINT);
  return path;
}

/** The value of the first series `query` returns, or undefined while there is none. */
async function queryValue(base: string, query: string): Promise<number | undefined> {
  const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(query)}`, {
    signal: AbortSignal.timeout(5000),
  });
  if (!res.ok) return undefined;
  const body = (await res.json()) as {
    status: string;
    data?: { result?: { value?: [number, string] }[] };
  };
  const value = body.data?.result?.[0]?.value?.[1];
  return value === undefined ? undefined : Number(value);
}

/** Realized PnL net of fees from journal rows alone, as a decimal number of quote units. */
function journalNetPnl(rows: readonly OrderRecord[]): number {
  let cashX36 = 0n;
  let feesX18 = 0n;
  let positionX18 = 0n;
  for (const row of rows) {
    if (row.filledX18 === 0n || row.avgFillPriceX18 === null) continue;
    const sign = row.side === 'BUY' ? -1n : 1n;
    cashX36 += sign * row.filledX18 * row.avgFillPriceX18;
    positionX18 -= sign * row.filledX18;
    feesX18 += row.feesX18 ?? 0n;
  }
  // The scripted run ends flat, so the cash flow is the whole PnL (no mark needed).
  expect(positionX18).toBe(0n);
  const netX36 = cashX36 - feesX18 * 10n ** 18n;
  return Number(netX36) / 1e36;
}

it('prometheus scrapes the bot until its order counter and net PnL gauge match the journal', async () => {
  const binary = prometheusBinary();
  const venue = await startPaperVenue({ port: 0, seed: 31 });
  cleanups.push(() => venue.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const token = `prom-${generatePrivateKey().slice(2, 34)}`;
  const configPath = await writeControlConfig(dir, {
    writeUrl: venue.url,
    control: { tokenEnv: 'QUANTA_TEST_METRICS_TOKEN' },
    strategies: [
      {
        module: strategyModule('fixtures/scripted'),
        name: 'open',
        markets: ['ETH-USD'],
        params: { intents: [{ symbol: 'ETH-USD', side: 'BUY', amount: '0.4' }] },
      },
      {
        module: strategyModule('fixtures/scripted'),
        name: 'close',
        markets: ['ETH-USD'],
        params: {
          fromSeq: 10,
          intents: [{ symbol: 'ETH-USD', side: 'SELL', amount: '0.4', reduceOnly: true }],
        },
      },
    ],
  });
  const env = { [WALLET_ENV]: generatePrivateKey(), QUANTA_TEST_METRICS_TOKEN: token };
  const config = await loadConfig(configPath, { env });
  const bot = await startBotWithParts({
    config,
    env,
    log: captureLogs().log,
    projectRoot: process.cwd(),
  });
  const controller = new AbortController();
  const running = bot.run(controller.signal);
  cleanups.push(async () => {
    controller.abort();
    await running;
    await bot.shutdown();
  });
  const target = new URL(bot.controlUrl ?? '').host;

  const promConfig = join(dir, 'prometheus.yml');
  await writeFile(
    promConfig,
    [
      'global: { scrape_interval: 1s, evaluation_interval: 1s }',
      'scrape_configs:',
      '  - job_name: quanta',
      '    scrape_interval: 1s',
      `    authorization: { type: Bearer, credentials: ${token} }`,
      `    static_configs: [ { targets: ['${target}'] } ]`,
      '',
    ].join('\n'),
    'utf8',
  );
  let prometheus: ChildProcess | undefined;
  let base = '';
  const output: string[] = [];
  // A port found free can be taken before prometheus binds it: try a few.
  for (let attempt = 0; attempt < 3 && prometheus === undefined; attempt++) {
    const port = await freePort();
    const child = spawn(
      binary,
      [
        `--config.file=${promConfig}`,
        `--storage.tsdb.path=${join(dir, `prometheus-data-${attempt}`)}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--storage.tsdb.retention.time=1h',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    });
    const ready = await waitFor(
      'prometheus to be ready',
      async () => {
        if (child.exitCode !== null) return 'exited';
        const res = await fetch(`http://127.0.0.1:${port}/-/ready`).catch(() => undefined);
        return res?.status === 200 ? 'ready' : undefined;
      },
      30_000,
      100,
    );
    if (ready === 'ready') {
      prometheus = child;
      base = `http://127.0.0.1:${port}`;
    }
  }
  expect(prometheus, output.join('')).toBeDefined();

  // The run: open then close 0.4 ETH; the journal then holds two FILLED orders, flat.
  await waitFor('two fills', () =>
    bot.journal.all().filter((r) => r.state === 'FILLED').length === 2 ? true : undefined,
  );
  await bot.executor.settle();
  const rows = bot.journal.all();
  const filled = rows.filter((r) => r.state === 'FILLED').length;
  const netPnl = journalNetPnl(rows);
  expect(netPnl).not.toBe(0);

  const seen = await waitFor(
    'prometheus to show the journal’s order count and net PnL',
    async () => {
      const [counter, journalGauge, netPnlGauge, up] = await Promise.all([
        queryValue(base, 'quanta_orders_finished_total{job="quanta",state="FILLED"}'),
        queryValue(base, 'quanta_journal_orders{job="quanta",state="FILLED"}'),
        queryValue(base, 'quanta_net_pnl{job="quanta"}'),
        queryValue(base, 'up{job="quanta"}'),
      ]);
      if (up !== 1 || counter !== filled || journalGauge !== filled) return undefined;
      if (netPnlGauge === undefined || Math.abs(netPnlGauge - netPnl) > 1e-9 * Math.abs(netPnl))
        return undefined;
      return { counter, journalGauge, netPnlGauge };
    },
    45_000,
    500,
  );
  expect(seen.counter).toBe(filled);
  expect(seen.journalGauge).toBe(filled);
  expect(seen.netPnlGauge).toBeCloseTo(netPnl, 6);
}, 120_000);

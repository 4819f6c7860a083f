/**
 * Issue 14: `GET /metrics` in Prometheus text format (prom-client) with every metric the issue
 * lists, label sets bounded by the config (strategies, markets) and the code (reasons, states,
 * modes), and Node's default process metrics.
 */
import { afterEach, expect, it } from 'vitest';
import { generatePrivateKey } from 'viem/accounts';
import { loadConfig } from '../../../../src/config/index.ts';
import { startPaperVenue } from '../../../../src/paper/index.ts';
import { startBotWithParts } from '../../../../src/runtime/bot.ts';
import { captureLogs, strategyModule, tempDir, waitFor, WALLET_ENV } from '../harness.ts';
import { writeControlConfig } from './control-harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

/** `name{labels} value` lines of an exposition, comments left out. */
function samples(text: string): { name: string; labels: string; value: number }[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$/.exec(line);
      if (match === null) throw new Error(`not an exposition line: ${line}`);
      return { name: match[1] ?? '', labels: match[2] ?? '', value: Number(match[3]) };
    });
}

it('exposes the issue’s metrics with bounded labels', async () => {
  const venue = await startPaperVenue({ port: 0, seed: 8 });
  cleanups.push(() => venue.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const configPath = await writeControlConfig(dir, {
    writeUrl: venue.url,
    strategies: [
      { module: strategyModule('dca'), markets: ['ETH-USD'], params: { everySnapshots: 2 } },
      {
        // Names a market outside its config (SOL-USD): its position is labelled `other`.
        module: strategyModule('fixtures/scripted'),
        name: 'outside',
        markets: ['BTC-USD'],
        params: {
          intents: [
            { symbol: 'SOL-USD', side: 'BUY', amount: '1' },
            { symbol: 'BTC-USD', side: 'BUY', amount: '0.00000001' },
          ],
        },
      },
    ],
  });
  const env = { [WALLET_ENV]: generatePrivateKey() };
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
  await waitFor('three fills', () =>
    bot.journal.all().filter((r) => r.state === 'FILLED').length >= 3 ? true : undefined,
  );

  const res = await fetch(`${bot.controlUrl ?? ''}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const all = samples(text);
  const names = new Set(all.map((s) => s.name));
  for (const name of [
    'quanta_polls_total',
    'quanta_poll_duration_seconds_bucket',
    'quanta_snapshot_age_seconds',
    'quanta_intents_total',
    'quanta_refusals_total',
    'quanta_orders_finished_total',
    'quanta_journal_orders',
    'quanta_order_round_trip_seconds_bucket',
    'quanta_order_retries_total',
    'quanta_venue_rate_limited_total',
    'quanta_dispatch_queue_depth',
    'quanta_orders_in_flight',
    'quanta_orders_unresolved',
    'quanta_order_lookup_failures_total',
    'quanta_position',
    'quanta_position_notional',
    'quanta_realized_pnl',
    'quanta_unrealized_pnl',
    'quanta_net_pnl',
    'quanta_credentials_expiry_timestamp_seconds',
    'quanta_credentials_can_sign',
    'quanta_strategy_errors_total',
    'quanta_strategy_paused',
    'quanta_trading_mode',
    'quanta_rate_budget_mode',
    'quanta_rate_budget_requests',
    'quanta_polls_skipped',
    'quanta_rate_budget_fallbacks',
    'process_cpu_seconds_total',
    'nodejs_heap_size_used_bytes',
  ])
    expect(names, name).toContain(name);

  const value = (name: string, labels = ''): number | undefined =>
    all.find((s) => s.name === name && s.labels === labels)?.value;
  expect(value('quanta_polls_total', '{outcome="ok"}')).toBeGreaterThan(0);
  expect(value('quanta_trading_mode', '{mode="trading"}')).toBe(1);
  expect(value('quanta_trading_mode', '{mode="halt"}')).toBe(0);
  expect(value('quanta_rate_budget_mode', '{mode="local"}')).toBe(1);
  expect(value('quanta_rate_budget_mode', '{mode="fallback"}')).toBe(0);
  const filled = bot.journal.all().filter((r) => r.state === 'FILLED').length;
  expect(value('quanta_journal_orders', '{state="FILLED"}')).toBeGreaterThanOrEqual(filled);
  // The sub-quantum BTC order was refused, counted under its strategy and reason.
  expect(value('quanta_refusals_total', '{strategy="outside",reason="ZERO_AFTER_ROUNDING"}')).toBe(
    1,
  );
  // Markets from the config, and `other` for the rest; never a label per unknown symbol.
  const positionLabels = all.filter((s) => s.name === 'quanta_position').map((s) => s.labels);
  expect(positionLabels.sort()).toEqual(
    ['{market="BTC-USD"}', '{market="ETH-USD"}', '{market="other"}'].sort(),
  );
  expect(value('quanta_position', '{market="other"}')).toBe(1);
  expect(value('quanta_position', '{market="ETH-USD"}')).toBeGreaterThan(0);
  const expiry = value('quanta_credentials_expiry_timestamp_seconds') ?? 0;
  expect(expiry * 1000).toBeGreaterThan(Date.now());
  expect(value('quanta_credentials_can_sign')).toBe(1);
  for (const sample of all.filter((s) => s.labels.includes('strategy=')))
    expect(sample.labels).toMatch(/strategy="(dca|outside|other|quanta:flatten)"/);
}, 60_000);

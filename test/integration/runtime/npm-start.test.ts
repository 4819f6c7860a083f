/**
 * Done-when 5: `npm start` (= `node bin/quanta.js run` on config/paper.yaml, embedded paper
 * venue) places paper orders within 10 s, and Ctrl-C exits cleanly. The shipped config is
 * copied to a temp dir with only `state.dir` moved there (so the repository's .quanta is not
 * touched) and strategy paths made absolute (they are found from the project root otherwise).
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { ROOT, spawnQuanta, tempDir, waitFor, type QuantaProcess } from './harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

const ORDER_FILLED = /\[executor\] order \d+ FILLED: filled \d/;

it('npm start places a paper order within 10 s of its first line; Ctrl-C exits 130 with a summary', async () => {
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const shipped = parseDocument(await readFile(join(ROOT, 'config/paper.yaml'), 'utf8'));
  shipped.setIn(['state', 'dir'], join(dir, 'state'));
  // The shipped control server, on a free port: other runs on this machine may hold 9464.
  expect(shipped.getIn(['control', 'host'])).toBe('127.0.0.1');
  shipped.setIn(['control', 'port'], 0);
  const strategies = shipped.getIn(['strategies']) as { items: unknown[] };
  for (let i = 0; i < strategies.items.length; i++) {
    const module = String(shipped.getIn(['strategies', i, 'module']));
    shipped.setIn(['strategies', i, 'module'], join(ROOT, module));
  }
  const config = join(dir, 'paper.yaml');
  await writeFile(config, shipped.toString(), 'utf8');

  // As on a fresh clone: no wallet key in the environment (paper mode makes a throwaway one).
  const env = { ...process.env };
  delete env.QUANTA_WALLET_KEY;
  // What a terminal gets (log.format auto); stdout here is a pipe, which would get JSON.
  env.QUANTA_LOG_FORMAT = 'pretty';
  const bot: QuantaProcess = spawnQuanta(['run', '--config', config], env);
  cleanups.push(async () => {
    if (bot.child.exitCode === null && bot.child.signalCode === null) bot.child.kill('SIGKILL');
    await bot.exited;
  });

  const filled = await waitFor(
    'a FILLED order line',
    () =>
      bot.child.exitCode === null
        ? bot.stdout.find((l) => ORDER_FILLED.test(l.line))
        : { at: -1, line: `exited early\n${bot.tail()}` },
    45_000,
  );
  expect(filled.at, filled.line).toBeGreaterThan(0);
  const firstLine = bot.stdout[0] ?? bot.stderr[0];
  const budgetMs = filled.at - (firstLine?.at ?? bot.spawnedAt);
  console.info(
    `npm start: first line ${(firstLine?.at ?? 0) - bot.spawnedAt} ms after spawn, ` +
      `FILLED ${budgetMs} ms after the first line`,
  );
  expect(budgetMs, bot.tail()).toBeLessThan(10_000);
  // Readable lines, not JSON.
  expect(filled.line.startsWith('{')).toBe(false);
  // Issue 24: a fill's price to the market's tick (ETH-USD: 6 places), its fee to the cent; a
  // MARKET order shows the best quote it was sent at, not price=0.
  expect(filled.line).toMatch(/ avgPrice=\d+(\.\d{1,6})? /);
  expect(filled.line).toMatch(/ fee=\d+\.\d\d /);
  const sent = bot.stdout.find((l) => /\[executor[^\]]*\] order \d+: BUY .* MARKET/.test(l.line));
  expect(sent?.line).toMatch(/ referencePrice=\d+(\.\d+)? /);
  expect(sent?.line).not.toMatch(/ price=/);

  bot.child.kill('SIGINT');
  expect(await bot.exited, bot.tail()).toEqual({ code: 130, signal: null });
  const stderr = bot.stderr.map((l) => l.line).join('\n');
  expect(stderr).toMatch(/^quanta: stopped after \d+ snapshots$/m);
  expect(stderr).toMatch(/^ {2}orders: .*FILLED \d+/m);
  expect(stderr).toMatch(/^ {2}ETH-USD: position \d/m);
  // Issue 24: PnL named PnL (it said equity), money to the cent.
  expect(stderr).toMatch(/^ {2}net PnL: -?\d+\.\d\d \(realized net of fees \+ unrealized/m);
  expect(stderr).not.toMatch(/equity/);
  expect(stderr).not.toMatch(/Error|Warning/);
  // Its state (throwaway wallet key, journal) went to the temp dir.
  expect(existsSync(join(dir, 'state', 'paper-wallet.key'))).toBe(true);
  expect(existsSync(join(dir, 'state', 'paper', 'journal.sqlite'))).toBe(true);
}, 60_000);

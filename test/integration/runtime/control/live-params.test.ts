/**
 * Issue 30, live params against a real `quanta run` process and the paper venue: a change of
 * dca's quoteAmount through `POST /strategies/dca/params` shows in the next orders' amounts in
 * the journal, an invalid one is answered with the schema's message and changes nothing, the
 * audit lists the change, and after a SIGKILL and a restart the changed params are in effect.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { generatePrivateKey } from 'viem/accounts';
import { OrderJournal } from '../../../../src/execution/journal.ts';
import type { OrderRecord } from '../../../../src/execution/order-record.ts';
import { startPaperVenue } from '../../../../src/paper/index.ts';
import {
  journalPath,
  killOnCleanup,
  spawnQuanta,
  strategyModule,
  tempDir,
  waitFor,
  WALLET_ENV,
  type QuantaProcess,
} from '../harness.ts';
import { call, startRunningBot, writeControlConfig } from './control-harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

/** The control server's URL, from the bot's log line. */
async function controlUrl(bot: QuantaProcess): Promise<string> {
  return waitFor(
    'the control server',
    () => {
      for (const { line } of [...bot.stdout, ...bot.stderr]) {
        const found = /control server listening on (http:\/\/[^\s"]+)/.exec(line);
        if (found?.[1] !== undefined) return found[1];
      }
      if (bot.child.exitCode !== null) throw new Error(bot.tail());
      return undefined;
    },
    60_000,
  );
}

function orders(path: string): OrderRecord[] {
  const journal = OrderJournal.openReadOnly(path);
  try {
    return journal.all();
  } finally {
    journal.close();
  }
}

/** Quote value of an order (amount × fill price), as a number to compare ratios. */
function quoteValue(order: OrderRecord): number {
  return (Number(order.amountX18) / 1e18) * (Number(order.avgFillPriceX18 ?? 0n) / 1e18);
}

it('a params change applies to the next orders, is audited, and survives SIGKILL and restart', async () => {
  const paper = await startPaperVenue({ port: 0, seed: 30 });
  cleanups.push(() => paper.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const configPath = await writeControlConfig(dir, {
    writeUrl: paper.url,
    strategies: [
      {
        module: strategyModule('dca'),
        markets: ['ETH-USD'],
        params: { quoteAmount: '50', everySnapshots: 2 },
      },
    ],
  });
  const env = { ...process.env, [WALLET_ENV]: generatePrivateKey() };
  const journal = journalPath(dir);
  const filled = (after = 0) =>
    orders(journal).filter((o) => o.state === 'FILLED' && o.createdAt > after);

  const first = killOnCleanup(cleanups, spawnQuanta(['run', '--config', configPath], env));
  const url = await controlUrl(first);
  await waitFor('a first fill', () => filled().at(0));

  // Invalid: the schema's own message, nothing changed, nothing audited.
  const invalid = await call(url, '/strategies/dca/params', {
    body: { params: { quoteAmount: 'lots' } },
  });
  expect(invalid).toEqual({
    status: 422,
    body: {
      error: 'invalid params for strategy dca (1 problem):',
      details: ['params.quoteAmount: expected a decimal string like "50"'],
    },
  });
  expect((await call(url, '/strategies/nope/params', { body: { params: { a: 1 } } })).status).toBe(
    404,
  );
  expect((await call(url, '/strategies/dca/params')).body).toMatchObject({
    params: { quoteAmount: '50', everySnapshots: 2 },
    changes: [],
  });

  const changed = await call(url, '/strategies/dca/params', {
    body: { params: { quoteAmount: '100' } },
  });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  expect(changed.body.params).toEqual({ quoteAmount: '100', everySnapshots: 2 });
  const change = changed.body.change as { at: string; seq: number; by: string };
  expect(change.seq).toBe(1);
  expect(change.by).toMatch(/^api with no token \(loopback\) from /);
  const changedAt = Date.parse(change.at);
  const before = filled().filter((o) => o.createdAt <= changedAt);
  const after = await waitFor('two fills after the change', () => {
    const found = filled(changedAt);
    return found.length >= 2 ? found : undefined;
  });
  // Before the change each buy is worth 50, after it 100 (prices move a little in between).
  for (const order of before) expect(quoteValue(order)).toBeCloseTo(50, -1);
  for (const order of after) expect(quoteValue(order)).toBeCloseTo(100, -1);
  const audit = await call(url, '/params');
  expect(audit.body).toMatchObject({
    params: { dca: { quoteAmount: '100', everySnapshots: 2 } },
    changes: [
      {
        seq: 1,
        strategy: 'dca',
        previous: { quoteAmount: '50', everySnapshots: 2 },
        params: { quoteAmount: '100', everySnapshots: 2 },
      },
    ],
  });

  first.child.kill('SIGKILL');
  await first.exited;
  const restartedAt = Date.now();
  const second = killOnCleanup(cleanups, spawnQuanta(['run', '--config', configPath], env));
  const url2 = await controlUrl(second);
  expect((await call(url2, '/strategies/dca/params')).body).toMatchObject({
    params: { quoteAmount: '100', everySnapshots: 2 },
    changes: [{ seq: 1, params: { quoteAmount: '100', everySnapshots: 2 } }],
  });
  const afterRestart = await waitFor('a fill after the restart', () => filled(restartedAt).at(0));
  expect(quoteValue(afterRestart)).toBeCloseTo(100, -1);
  expect(second.stdout.map((l) => l.line).join('\n')).toMatch(
    /strategy dca runs on the params changed live at .* by api with no token/,
  );
}, 90_000);

/** A port free right now (the bot's control server needs a fixed one for the CLI to find it). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

it('quanta params set changes a running bot’s params, and prints the schema’s refusal (exit 2)', async () => {
  const paper = await startPaperVenue({ port: 0, seed: 31 });
  cleanups.push(() => paper.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const configPath = await writeControlConfig(dir, {
    writeUrl: paper.url,
    control: { port: await freePort(), tokenEnv: 'QUANTA_T_PARAMS' },
    strategies: [
      { module: strategyModule('dca'), markets: ['ETH-USD'], params: { everySnapshots: 1000 } },
    ],
  });
  const env = { QUANTA_T_PARAMS: 'params-token-0c1d2e3f4a5b6c7d' };
  const { bot } = await startRunningBot(configPath, env, cleanups);
  const cli = async (...args: string[]) => {
    const run = spawnQuanta(['params', ...args, '--config', configPath], {
      ...process.env,
      ...env,
    });
    const exit = await run.exited;
    return {
      code: exit.code,
      out: run.stdout.map((l) => l.line).join('\n'),
      err: run.stderr.map((l) => l.line).join('\n'),
    };
  };

  const set = await cli('set', 'dca', 'everySnapshots=7', 'quoteAmount=25');
  expect(set.code, set.err).toBe(0);
  expect(set.out).toMatch(
    /^dca: params now \{"quoteAmount":"25","everySnapshots":7\} \(change 1, \d{4}-/,
  );
  expect(bot.status().params).toEqual({
    dca: { quoteAmount: '25', everySnapshots: 7 },
  });

  const invalid = await cli('set', 'dca', 'everySnapshots=-1');
  expect(invalid.code).toBe(2);
  expect(invalid.err).toContain('the bot refused the change: invalid params for strategy dca');
  expect(invalid.err).toContain('params.everySnapshots: Too small: expected number to be >0');
  const list = await cli('list');
  expect(list.code, list.err).toBe(0);
  const listed = JSON.parse(list.out) as { changes: { by: string }[] };
  expect(listed.changes).toHaveLength(1);
  expect(listed.changes[0]?.by).toMatch(/^cli with the act token from 127\.0\.0\.1$/);

  const usage = await cli('set', 'dca', 'everySnapshots');
  expect(usage.code).toBe(2);
  expect(usage.err).toContain('expected KEY=VALUE, got "everySnapshots"');
}, 90_000);

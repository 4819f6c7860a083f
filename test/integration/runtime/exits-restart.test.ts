/**
 * Protective exits survive SIGKILL and restart (issue 27), with a real bot process
 * (`node bin/quanta.js run`) against a paper venue on port 0 whose ETH-USD book this test sets.
 *
 * The bot buys 0.1 ETH with a 5 % trailing stop. The bid rises to 3300 (the best price the exit
 * follows, written to the journal's `exits` table) and the bot is killed with SIGKILL. While it
 * is down the bid gaps to 3130, through the stop at 3135. The restarted bot must read the exit
 * and its best price back and close at once, at the gap price 3130 (the book the MARKET order
 * meets), not at the stop level. Had the best price been lost, the restarted bot would follow
 * from 3130 and never fire.
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { generatePrivateKey } from 'viem/accounts';
import { afterEach, expect, it } from 'vitest';
import { startPaperVenue } from '../../../src/paper/index.ts';
import { SimEngine } from '../../../src/sim/index.ts';
import {
  accountIdOf,
  journalPath,
  killOnCleanup,
  readJournal,
  spawnQuanta,
  strategyModule,
  tempDir,
  waitFor,
  WALLET_ENV,
  writeBotConfig,
  type QuantaProcess,
} from './harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

/** The one row of the journal's `exits` table, parsed, or undefined (read-only connection). */
function exitRow(path: string): { openedAt: number | null; best: string | null } | undefined {
  if (!existsSync(path)) return undefined;
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT state FROM exits').get() as { state: string } | undefined;
    return row === undefined
      ? undefined
      : (JSON.parse(row.state) as { openedAt: number | null; best: string | null });
  } catch {
    // The bot may not have created the journal (or its tables) yet.
    return undefined;
  } finally {
    db.close();
  }
}

/** {@link waitFor} whose timeout error carries the bot's output (what it was doing). */
async function waitOn(bot: QuantaProcess, what: string, check: () => boolean): Promise<void> {
  try {
    await waitFor(what, () => bot.child.exitCode !== null || check(), 60_000);
  } catch (error) {
    throw new Error(`${String(error)}\n${bot.tail()}`, { cause: error });
  }
  expect(bot.child.exitCode, bot.tail()).toBeNull();
}

/** The journal state of the order tagged `tag` (read-only connection), or undefined. */
function stateOf(path: string, tag: string): string | undefined {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT state FROM orders WHERE tag = ?').get(tag) as
      { state: string } | undefined;
    return row?.state;
  } finally {
    db.close();
  }
}

const book = (bid: string, ask: string) => [
  {
    marketId: 1,
    timestamp: Date.now(),
    bids: [{ price: bid, quantity: '10' }],
    asks: [{ price: ask, quantity: '10' }],
  },
];

it('a trailing stop set before SIGKILL fires after restart, at the gap price', async () => {
  const engine = new SimEngine({ clock: Date.now, seed: 3 });
  engine.setExternalQuotes(book('3000', '3000.5'));
  const venue = await startPaperVenue({ port: 0, engine });
  cleanups.push(() => venue.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const config = await writeBotConfig(dir, {
    writeUrl: venue.url,
    log: { level: 'info' },
    risk: { maxOrderNotional: '10000', maxPositionNotional: '10000' },
    strategies: [
      {
        module: strategyModule('fixtures/guarded'),
        markets: ['ETH-USD'],
        params: { amount: '0.1', exits: { trailingStop: '5%' } },
      },
    ],
  });
  const walletKey = generatePrivateKey();
  const env = { ...process.env, [WALLET_ENV]: walletKey };
  const accountId = accountIdOf(walletKey);
  const journal = journalPath(dir);
  const positionAtVenue = () => engine.position(accountId, 1).amountX18;

  const first = killOnCleanup(cleanups, spawnQuanta(['run', '--config', config], env));
  await waitOn(
    first,
    'the entry filled and the exit seeing its position',
    () => positionAtVenue() === 10n ** 17n && exitRow(journal)?.openedAt != null,
  );
  engine.setExternalQuotes(book('3300', '3300.5'));
  await waitOn(
    first,
    'the exit following the best bid 3300',
    () => exitRow(journal)?.best === (3300n * 10n ** 18n).toString(),
  );
  first.child.kill('SIGKILL');
  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
  // Nothing closed before the kill: the stop (3135) was never crossed.
  expect(readJournal(journal).map((order) => order.tag)).toEqual(['entry']);

  // The bid gaps through the stop while the bot is down.
  engine.setExternalQuotes(book('3130', '3130.5'));
  const second = killOnCleanup(cleanups, spawnQuanta(['run', '--config', config], env));
  await waitOn(second, 'the restarted bot to close the position', () => positionAtVenue() === 0n);
  // The venue is flat as soon as it filled the exit; the journal records the answer after that.
  await waitOn(
    second,
    'the exit order journaled FILLED',
    () => stateOf(journal, 'exit:trailing-stop') === 'FILLED',
  );
  second.child.kill('SIGTERM');
  await second.exited;
  const orders = readJournal(journal);
  expect(
    orders.map((order) => ({
      tag: order.tag,
      side: order.side,
      reduceOnly: order.reduceOnly,
      filled: order.filledX18,
      price: order.avgFillPriceX18,
    })),
  ).toEqual([
    {
      tag: 'entry',
      side: 'BUY',
      reduceOnly: false,
      filled: 10n ** 17n,
      price: 30005n * 10n ** 17n,
    },
    {
      tag: 'exit:trailing-stop',
      side: 'SELL',
      reduceOnly: true,
      filled: 10n ** 17n,
      price: 3130n * 10n ** 18n,
    },
  ]);
}, 240_000);

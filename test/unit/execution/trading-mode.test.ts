/**
 * Trading modes in the order path: `halt` refuses every intent, `halt-entries` and `flatten` all
 * but reduce-only ones; the kill-switch file names the mode; a change is one log line and one
 * event; refusals caused by the mode are counted, never logged one by one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import {
  evaluateIntent,
  type EvaluationContext,
} from '../../../src/execution/pre-trade/evaluate-intent.ts';
import { RefusalLog } from '../../../src/execution/refusal-log.ts';
import {
  readKillSwitchFile,
  TradingModes,
  type ModeChange,
  type TradingMode,
} from '../../../src/execution/trading-mode.ts';
import { createLogger } from '../../../src/log/logger.ts';
import { createSnapshot } from '../../../src/market/snapshot.ts';
import { parseDecimalToX18 as x18 } from '../../../src/money/index.ts';
import type { OrderIntent } from '../../../src/domain/index.ts';
import { testMarket } from '../../helpers/markets.ts';

const eth = testMarket();

function context(mode: TradingMode, positionX18 = 0n): EvaluationContext {
  return {
    snapshot: createSnapshot({
      seq: 1,
      takenAt: 0,
      markets: [eth],
      quotes: [
        {
          marketId: eth.id,
          timestamp: 0,
          bids: [{ price: '2999.5', quantity: '10' }],
          asks: [{ price: '3000.5', quantity: '10' }],
        },
      ],
    }),
    positionX18: () => positionX18,
    limits: { maxOrderNotionalX18: x18('5000'), maxPositionNotionalX18: x18('20000') },
    dailyPnlX18: 0n,
    killSwitchOn: false,
    mode,
  };
}

const entry: OrderIntent = { marketId: eth.id, side: 'BUY', type: 'MARKET', amount: '0.1' };
const exit: OrderIntent = { ...entry, side: 'SELL', reduceOnly: true };

function logLines(): { log: ReturnType<typeof createLogger>; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: createLogger({ level: 'debug', destination }), lines };
}

describe('evaluateIntent under a trading mode', () => {
  it('lets everything through while trading', () => {
    expect(evaluateIntent(entry, context('trading'))).not.toHaveProperty('refused');
  });

  it('refuses everything on halt, reduce-only included', () => {
    expect(evaluateIntent(entry, context('halt'))).toMatchObject({ reason: 'HALTED' });
    expect(evaluateIntent(exit, context('halt', x18('0.5')))).toMatchObject({ reason: 'HALTED' });
  });

  it.each(['halt-entries', 'flatten'] as const)('%s passes only reduce-only intents', (mode) => {
    expect(evaluateIntent(entry, context(mode))).toMatchObject({ reason: 'ENTRIES_HALTED' });
    expect(evaluateIntent(exit, context(mode, x18('0.5')))).toMatchObject({
      side: 'SELL',
      reduceOnly: true,
      amountX18: x18('0.1'),
    });
  });
});

describe('TradingModes', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('reads the mode from the kill-switch file: empty or unknown is halt', () => {
    dir = mkdtempSync(join(tmpdir(), 'quanta-mode-'));
    const file = join(dir, 'KILL');
    expect(readKillSwitchFile(file)).toBeUndefined();
    writeFileSync(file, '');
    expect(readKillSwitchFile(file)).toEqual({ mode: 'halt', known: true });
    writeFileSync(file, ' Halt-Entries\n');
    expect(readKillSwitchFile(file)).toEqual({ mode: 'halt-entries', known: true });
    writeFileSync(file, 'flatten');
    expect(readKillSwitchFile(file)).toEqual({ mode: 'flatten', known: true });
    writeFileSync(file, 'stop please');
    expect(readKillSwitchFile(file)).toEqual({ mode: 'halt', known: false });
  });

  it('one log line and one event per change; the stricter of file and command wins', () => {
    dir = mkdtempSync(join(tmpdir(), 'quanta-mode-'));
    const file = join(dir, 'KILL');
    const { log, lines } = logLines();
    const modes = new TradingModes({ now: () => 42, log, killSwitchFile: file });
    const changes: ModeChange[] = [];
    modes.onChange((change) => changes.push(change));
    expect(modes.mode).toBe('trading');
    expect(modes.set('halt-entries', 'control')).toBe('halt-entries');
    for (let i = 0; i < 5; i++) expect(modes.mode).toBe('halt-entries');
    writeFileSync(file, 'halt');
    for (let i = 0; i < 5; i++) expect(modes.mode).toBe('halt');
    // Resuming by command does not lift the file's halt.
    expect(modes.set('trading', 'control')).toBe('halt');
    rmSync(file);
    expect(modes.mode).toBe('trading');
    expect(changes).toEqual([
      { from: 'trading', to: 'halt-entries', source: 'control', at: 42 },
      { from: 'halt-entries', to: 'halt', source: 'kill-switch-file', at: 42 },
      { from: 'halt', to: 'trading', source: 'kill-switch-file', at: 42 },
    ]);
    expect(lines.filter((line) => String(line.msg).startsWith('trading mode'))).toHaveLength(3);
  });
});

it('counts refusals caused by the mode without a log line each', () => {
  const { log, lines } = logLines();
  const refusals = new RefusalLog({ now: () => 0, log });
  for (let i = 0; i < 100; i++) {
    refusals.record('dca', 'HALTED', 'trading is halted');
    refusals.record('dca', 'ENTRIES_HALTED', 'halt-entries');
  }
  expect(refusals.totals()).toEqual({ HALTED: 100, ENTRIES_HALTED: 100 });
  expect(lines).toHaveLength(0);
});

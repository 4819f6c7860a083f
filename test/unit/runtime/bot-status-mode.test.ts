/**
 * `quanta status` names the mode the bot is in: the stricter of the mode commanded through the
 * control server (journaled) and the kill-switch file's, as the bot decides it (effectiveMode,
 * src/execution/trading-mode.ts). It showed the file's whenever there was one: after a commanded
 * `halt` and a file saying `flatten`, it said positions were being closed while the bot, halted,
 * sent nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/index.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { MODE_SCOPE, type TradingMode } from '../../../src/execution/trading-mode.ts';
import { readBotStatus } from '../../../src/runtime/bot-status.ts';
import { journalPathOf } from '../../../src/runtime/state-paths.ts';

let dir: string;
let states = 0;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quanta-status-mode-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** `quanta status`'s mode with `commanded` journaled and the kill-switch file holding `file`. */
function statusMode(commanded: TradingMode | undefined, file: string | undefined): string {
  const killSwitch = join(dir, 'STOP');
  rmSync(killSwitch, { force: true });
  if (file !== undefined) writeFileSync(killSwitch, file);
  const config = parseConfig(
    [
      'venue: { writeUrl: http://127.0.0.1:1, readUrl: http://127.0.0.1:1 }',
      // A state dir of its own for each case: no mode journaled by the one before.
      `state: { dir: ${JSON.stringify(join(dir, `state-${(states += 1)}`))} }`,
      `risk: { killSwitchFile: ${JSON.stringify(killSwitch)} }`,
      'strategies: [{ module: strategies/dca.ts, markets: [ETH-USD] }]',
    ].join('\n'),
    'bot.yaml',
    dir,
  );
  const journal = OrderJournal.open(journalPathOf(config.state.dir, config.venue));
  if (commanded !== undefined) journal.kvSet(MODE_SCOPE, 'mode', commanded);
  journal.close();
  return readBotStatus(config).mode;
}

it('shows the stricter of the commanded mode and the kill-switch file, as the bot runs', () => {
  expect(statusMode('halt', 'flatten')).toBe('halt');
  expect(statusMode('halt-entries', 'flatten')).toBe('flatten');
  expect(statusMode('flatten', 'halt-entries')).toBe('flatten');
  expect(statusMode('trading', 'halt-entries')).toBe('halt-entries');
  expect(statusMode('halt', undefined)).toBe('halt');
  expect(statusMode(undefined, undefined)).toBe('trading');
  // An empty file is halt (fail closed), whatever was commanded.
  expect(statusMode('flatten', '')).toBe('halt');
});

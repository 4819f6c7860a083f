/**
 * Alert bodies per webhook format, and webhook URLs read from the environment (exit 2 when the
 * variable is missing).
 */
import { describe, expect, it } from 'vitest';
import { ErrorCodes, isQuantaError } from '../../../src/errors/index.ts';
import { alertBody, notifyTargets, type Alert } from '../../../src/runtime/control/notifier.ts';

const alert: Alert = {
  kind: 'mode-change',
  message: 'trading mode trading → halt (control)',
  at: Date.UTC(2026, 0, 2, 3, 4, 5),
  details: { from: 'trading', to: 'halt' },
};

describe('alertBody', () => {
  it('json: kind, bot, time, message and details', () => {
    expect(alertBody(alert, { url: 'http://x', format: 'json', fills: false }, 'bot-a')).toEqual({
      kind: 'mode-change',
      bot: 'bot-a',
      at: '2026-01-02T03:04:05.000Z',
      message: 'trading mode trading → halt (control)',
      details: { from: 'trading', to: 'halt' },
    });
  });

  it('slack: { text }; telegram: { chat_id, text }', () => {
    expect(alertBody(alert, { url: 'http://x', format: 'slack', fills: false }, 'b')).toEqual({
      text: '[quanta b] trading mode trading → halt (control)',
    });
    expect(
      alertBody(alert, { url: 'http://x', format: 'telegram', chatId: -100, fills: false }, 'b'),
    ).toEqual({
      chat_id: -100,
      text: '[quanta b] trading mode trading → halt (control)',
      disable_web_page_preview: true,
    });
  });
});

describe('notifyTargets', () => {
  const config = {
    notify: [
      { urlEnv: 'QUANTA_TEST_HOOK', format: 'slack' as const, fills: false },
      { url: 'https://hooks.example/x', format: 'json' as const, fills: true },
    ],
  };

  it('reads urlEnv from the environment', () => {
    expect(
      notifyTargets(config, { QUANTA_TEST_HOOK: 'https://hooks.slack.example/T/B/secret' }),
    ).toEqual([
      { url: 'https://hooks.slack.example/T/B/secret', format: 'slack', fills: false },
      { url: 'https://hooks.example/x', format: 'json', fills: true },
    ]);
  });

  it('refuses a missing or non-URL variable (exit 2), naming it', () => {
    for (const env of [{}, { QUANTA_TEST_HOOK: 'not a url' }]) {
      let caught: unknown;
      try {
        notifyTargets(config, env);
      } catch (error) {
        caught = error;
      }
      expect(isQuantaError(caught, ErrorCodes.CONFIG_INVALID)).toBe(true);
      expect(String((caught as Error).message)).toMatch(
        /notify\[0\]\.urlEnv: names QUANTA_TEST_HOOK/,
      );
    }
  });
});

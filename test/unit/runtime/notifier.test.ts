/**
 * Alert bodies per webhook format, and webhook URLs read from the environment (exit 2 when the
 * variable is missing).
 */
import { describe, expect, it } from 'vitest';
import { ErrorCodes, isQuantaError } from '../../../src/errors/index.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import {
  alertBody,
  Notifier,
  notifyTargets,
  type Alert,
} from '../../../src/runtime/control/notifier.ts';
import { manualTimer } from '../../helpers/manual-timer.ts';
import { captureLogs } from '../../integration/runtime/harness.ts';
import { sendJson, startStubServer } from '../../helpers/stub-server.ts';

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

describe('a webhook URL with a user name or password', () => {
  const SECRET = 'S3cretPass';
  const hook = `https://alerts:${SECRET}@hooks.example/q`;

  it('is refused at start (exit 2), without the URL in the message', () => {
    let caught: unknown;
    try {
      notifyTargets(
        { notify: [{ urlEnv: 'QUANTA_TEST_HOOK', format: 'json' as const, fills: false }] },
        { QUANTA_TEST_HOOK: hook },
      );
    } catch (error) {
      caught = error;
    }
    expect(isQuantaError(caught, ErrorCodes.CONFIG_INVALID)).toBe(true);
    const message = String((caught as Error).message);
    expect(message).toMatch(/notify\[0\]\.urlEnv: the webhook URL holds a user name or password/);
    expect(message).not.toContain(SECRET);
  });

  it("given to a Notifier anyway: fetch's refusal, which quotes the URL, is logged without it", async () => {
    // fetch refuses such a URL and its error message holds the whole URL, password included.
    const logs = captureLogs();
    const notifier = new Notifier({
      targets: [{ url: hook, format: 'json', fills: false }],
      bot: 'b',
      log: logs.log,
      sleep: () => Promise.resolve(),
    });
    notifier.notify(alert);
    await notifier.close(60_000);
    expect(notifier.counts()).toMatchObject({ failed: 1 });
    const lines = JSON.stringify(logs.records);
    expect(lines).toContain('https://hooks.example/…');
    expect(lines).not.toContain(SECRET);
  });
});

describe('Notifier timers', () => {
  it('waits its backoff on the injected sleep and its deadlines on the injected timer', async () => {
    // Issue 31: nothing of a bot waits on a real timer when it is given its own (the simulator).
    let answered = 0;
    const stub = await startStubServer({
      'POST /hook': (_req, res) => {
        answered += 1;
        sendJson(res, answered <= 2 ? 500 : 200, {});
      },
    });
    try {
      const waits: number[] = [];
      const timer = manualTimer();
      const notifier = new Notifier({
        targets: [{ url: `${stub.url}/hook`, format: 'json', fills: false }],
        bot: 'b',
        log: silentLogger,
        sleep: (ms) => {
          waits.push(ms);
          return Promise.resolve();
        },
        startTimer: timer.start,
      });
      notifier.notify(alert);
      await notifier.close(60_000);
      expect(stub.requests).toHaveLength(3);
      expect(waits).toEqual([500, 1000]);
      expect(notifier.counts()).toEqual({ dropped: 0, sent: 1, failed: 0 });
      // Each request's 5 s deadline and the closing one (60 s) were armed there, all cancelled.
      expect(timer.started()).toEqual([5000, 60_000, 5000, 5000]);
      expect(timer.armed()).toEqual([]);
    } finally {
      await stub.close();
    }
  });
});

// Issue 30: the live page in headless Chromium (as the report browser test: test/helpers/
// chromium.ts) against a running paper bot bound off loopback with a token. Without the token
// the page and the controls are refused; signed in, the page shows the bot's first fill within
// 2 s of it, halting from the page stops new orders (the venue sees none after) and resuming
// restarts them. Screenshots at 1280x800 and 1920x1080 (into docs/ with UPDATE_SCREENSHOTS=1,
// else a temp dir). Never skipped: when no browser starts, beforeAll fails and says why.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { OrderRecord } from '../../src/execution/order-record.ts';
import { startPaperVenue } from '../../src/paper/index.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { ROOT } from '../helpers/strategy-harness.ts';
import { startRunningBot, writeControlConfig } from './runtime/control/control-harness.ts';
import { strategyModule, tempDir, waitFor } from './runtime/harness.ts';

// The DOM shapes the page callbacks use (the project compiles without the DOM lib).
declare const document: {
  readonly body: { readonly dataset: Record<string, string | undefined> };
  getElementById(id: string): { readonly textContent: string | null } | null;
  readonly documentElement: { readonly scrollWidth: number; readonly clientWidth: number };
};
declare function fetch(
  path: string,
  init?: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ readonly status: number }>;

const TOKEN = 'page-token-4b7e2a91c0d35f68';
let browser: Browser;
let shots: string;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  shots =
    process.env.UPDATE_SCREENSHOTS === '1'
      ? join(ROOT, 'docs')
      : await mkdtemp(join(tmpdir(), 'quanta-live-page-'));
  browser = await launchChromium();
}, 60_000);
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});
afterAll(async () => {
  await browser?.close();
  if (process.env.UPDATE_SCREENSHOTS !== '1' && shots !== undefined)
    await rm(shots, { recursive: true, force: true });
});

/** A page that records console and page errors and any request that leaves the bot. */
async function watchedPage(
  origin: string,
  viewport: { width: number; height: number },
): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  page.on('console', (message) => {
    // The sign-in page answers 401 and an invalid params change 422 by design; the browser logs
    // those as console errors.
    if (message.type() === 'error' && !/status of (401|422)\b/.test(message.text()))
      problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    if (!request.url().startsWith(origin)) problems.push(`request off the bot: ${request.url()}`);
  });
  // Every control asks for a confirmation: the person says yes.
  page.on('dialog', (dialog) => void dialog.accept());
  return { page, problems };
}

/** Waits until the page's latest orders show order `id` as FILLED (its row, not just the id). */
async function shownFilled(page: Page, id: number): Promise<void> {
  await page
    .locator('#last-orders tr')
    .filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${id}$`) }) })
    .filter({ hasText: 'FILLED' })
    .waitFor({ timeout: 5_000 });
}

it('a paper bot watched and commanded from its page, the token asked off loopback', async () => {
  const paper = await startPaperVenue({ port: 0, seed: 30 });
  cleanups.push(() => paper.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const configPath = await writeControlConfig(dir, {
    writeUrl: paper.url,
    control: { host: '0.0.0.0', tokenEnv: 'QUANTA_T_PAGE' },
    strategies: [
      { module: strategyModule('dca'), markets: ['ETH-USD'], params: { everySnapshots: 3 } },
    ],
  });
  const { bot, url: bound } = await startRunningBot(configPath, { QUANTA_T_PAGE: TOKEN }, cleanups);
  // The bot starts halted: its first order waits for the page's Resume.
  bot.setMode('halt', 'control');
  const url = bound.replace('0.0.0.0', '127.0.0.1');
  const origin = new URL(url).origin;
  const { page, problems } = await watchedPage(origin, { width: 1280, height: 800 });

  // Without the token: the page is the sign-in form (401), the feed and the controls refused.
  const first = await page.goto(url, { waitUntil: 'load' });
  expect(first?.status()).toBe(401);
  expect(await page.locator('#login').count()).toBe(1);
  expect(await page.locator('#positions').count()).toBe(0);
  const refused = await page.evaluate(async () => [
    (await fetch('/status')).status,
    (await fetch('/events')).status,
    (
      await fetch('/resume', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-quanta-request': '1' },
        body: '{}',
      })
    ).status,
  ]);
  expect(refused).toEqual([401, 401, 401]);
  await page.fill('#token', 'wrong-token');
  await page.click('#login button');
  await page.waitForFunction(() => document.getElementById('login-error')?.textContent !== '');
  expect(bot.mode).toBe('halt');

  // Signed in: the page, live.
  await page.fill('#token', TOKEN);
  await Promise.all([page.waitForNavigation(), page.click('#login button')]);
  await page.waitForFunction(() => document.body.dataset.mode === 'halt', null, {
    timeout: 10_000,
  });
  expect(paper.requestCount('/api/v1/order')).toBe(0);

  // Resume from the page; the first fill shows within 2 s of it.
  await page.click('#resume');
  const filled = await waitFor('the first fill', () =>
    bot.journal.all().find((order) => order.state === 'FILLED'),
  );
  await shownFilled(page, filled.id);
  const shownAfterMs = Date.now() - filled.updatedAt;
  expect(shownAfterMs).toBeLessThanOrEqual(2_000);
  expect(await page.locator('#last-orders').textContent()).toContain('FILLED');
  expect(await page.locator('#positions').textContent()).toContain('ETH-USD');
  expect(await page.locator('#credentials').textContent()).toMatch(/^expire \d{4}-\d\d-\d\dT/);

  // Halt from the page: no order reaches the venue after it.
  await page.click('button[data-mode="halt"]');
  await page.waitForFunction(() => document.body.dataset.mode === 'halt');
  expect(bot.mode).toBe('halt');
  await waitFor('orders in flight drained', () => bot.status().inFlight === 0);
  const sentAtHalt = paper.requestCount('/api/v1/order');
  expect(sentAtHalt).toBeGreaterThan(0);
  const snapshotsAtHalt = bot.status().snapshots;
  // Ten snapshots, each of which would have sent an order every third one.
  await waitFor('ten snapshots halted', () => bot.status().snapshots >= snapshotsAtHalt + 10);
  expect(paper.requestCount('/api/v1/order')).toBe(sentAtHalt);

  // Resume restarts them.
  await page.click('#resume');
  await page.waitForFunction(() => document.body.dataset.mode === 'trading');
  await waitFor('an order after resume', () =>
    paper.requestCount('/api/v1/order') > sentAtHalt ? true : undefined,
  );

  // A params change from the page: the next decisions buy 100 worth, not 50, and the journal
  // has the change; an invalid one shows the schema's error and changes nothing.
  const valueOf = (o: OrderRecord) =>
    (Number(o.amountX18) / 1e18) * (Number(o.avgFillPriceX18 ?? 0n) / 1e18);
  await page.selectOption('#params-strategy', 'dca');
  await page.fill('#params-key', 'quoteAmount');
  await page.fill('#params-value', 'lots');
  await page.click('#params-form button');
  await page.waitForFunction(
    () => (document.getElementById('params-error')?.textContent ?? '') !== '',
  );
  expect(await page.locator('#params-error').textContent()).toBe(
    'invalid params for strategy dca (1 problem):\nparams.quoteAmount: expected a decimal string like "50"',
  );
  expect(bot.status().paramChanges).toEqual([]);
  await page.fill('#params-value', '100');
  await page.click('#params-form button');
  await page.waitForFunction(() =>
    (document.getElementById('param-changes')?.textContent ?? '').includes('"quoteAmount":"100"'),
  );
  expect(await page.locator('#params-error').textContent()).toBe('');
  expect(await page.locator('#params').textContent()).toContain('"quoteAmount":"100"');
  const [change] = bot.status().paramChanges ?? [];
  expect(change?.by).toMatch(/^page with the act token from /);
  expect(bot.journal.kvList('quanta:params')).toHaveLength(1);
  const changedAt = Date.parse(change?.at ?? '');
  const before = bot.journal.all().filter((o) => o.state === 'FILLED' && o.createdAt <= changedAt);
  const next = await waitFor('a fill decided after the change', () =>
    bot.journal.all().find((o) => o.state === 'FILLED' && o.createdAt > changedAt),
  );
  for (const order of before) expect(valueOf(order)).toBeCloseTo(50, -1);
  expect(valueOf(next)).toBeCloseTo(100, -1);
  await shownFilled(page, next.id);

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(viewport);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `${viewport.width}x${viewport.height}`).toBeLessThanOrEqual(0);
    await page.screenshot({
      path: join(shots, `live-page-${viewport.width}x${viewport.height}.png`),
    });
  }
  expect(problems).toEqual([]);
  await page.close();
}, 120_000);

/**
 * Issue 25, "secrets and locations": every config error a bot can hit names `file:line:col` and
 * the key path. Before, these exited 2 with no location: no strategies, a module that is
 * missing, throws at import or exports no strategy, an unknown paper listing, a webhook or
 * control token variable that is not set, a wallet key variable that is not set; a key written
 * twice named no key path.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.ts';
import { isQuantaError } from '../../../src/errors/index.ts';
import { startBot } from '../../../src/runtime/bot.ts';
import { captureLogs, ROOT } from './harness.ts';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quanta-config-locations-'));
  await writeFile(join(dir, 'throws.ts'), "throw new Error('broken at import');\n");
  await writeFile(join(dir, 'nothing.ts'), 'export default 42;\n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const DCA = join(ROOT, 'strategies/dca.ts');

/** Starts a bot on `yaml` (an embedded venue) and returns the error it refuses with. */
async function startError(yaml: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const path = join(dir, 'bot.yaml');
  await writeFile(path, `state: { dir: ${join(dir, 'state')} }\n${yaml}`);
  try {
    const config = await loadConfig(path, { env });
    const bot = await startBot({ config, env, log: captureLogs().log, projectRoot: ROOT });
    await bot.shutdown();
  } catch (error) {
    if (!isQuantaError(error)) throw error;
    return `${error.code}: ${error.message}`.replaceAll(dir, '<dir>').replaceAll(ROOT, '<root>');
  }
  throw new Error('expected the bot to refuse to start');
}

const EMBEDDED = 'venue: { writeUrl: embedded, readUrl: embedded }\n';

it('no strategies', async () => {
  expect(await startError(EMBEDDED)).toMatchInlineSnapshot(`
    "QUANTA_CONFIG_INVALID: <dir>/bot.yaml:1:1 strategies: no strategies to run
    Add a list like: strategies: [{ module: strategies/dca.ts, markets: [ETH-USD] }]
    (quanta register and quanta markets need no strategies)."
  `);
});

it('a strategy module that is missing, throws at import, or exports no strategy', async () => {
  const module = (path: string) =>
    startError(`${EMBEDDED}strategies:\n  - module: ${path}\n    markets: [ETH-USD]\n`);
  expect(await module('missing.ts')).toMatchInlineSnapshot(`
    "QUANTA_STRATEGY_LOAD: <dir>/bot.yaml:4:5 strategies[0].module: strategy module <root>/missing.ts not found
    Looked in: <root>/missing.ts, <dir>/missing.ts"
  `);
  expect(await module('throws.ts')).toMatchInlineSnapshot(
    `"QUANTA_STRATEGY_LOAD: <dir>/bot.yaml:4:5 strategies[0].module: strategy module <dir>/throws.ts failed to load: broken at import"`,
  );
  expect(await module('nothing.ts')).toMatchInlineSnapshot(`
    "QUANTA_STRATEGY_LOAD: <dir>/bot.yaml:4:5 strategies[0].module: strategy module <dir>/nothing.ts has no strategy as default export
    Write \`export default defineStrategy({ name, onSnapshot })\` with defineStrategy from 'quanta'."
  `);
});

const STRATEGY = `strategies:\n  - module: ${DCA}\n    markets: [ETH-USD]\n    params: { quoteAmount: '10' }\n`;

it('a paper listing the embedded venue does not have', async () => {
  expect(
    await startError(
      `${EMBEDDED}paper:\n  listings:\n    - { market: NOPE-USD, activeAfterMs: 1000 }\n${STRATEGY}`,
    ),
  ).toMatchInlineSnapshot(`
    "QUANTA_CONFIG_INVALID: <dir>/bot.yaml:5:9 paper.listings[0].market: market "NOPE-USD" is not a paper venue market
    Paper markets: ETH-USD, BTC-USD, SOL-USD, TSLA-USD, ETH-USDC"
  `);
});

it('variables named by the config that are not set', async () => {
  expect(
    await startError(`${EMBEDDED}notify:\n  - { urlEnv: HOOK_URL, format: json }\n${STRATEGY}`),
  ).toMatchInlineSnapshot(`
    "QUANTA_CONFIG_INVALID: <dir>/bot.yaml:4:7 notify[0].urlEnv: names HOOK_URL, which does not hold an http(s) URL
    export HOOK_URL=https://…"
  `);
  expect(await startError(`${EMBEDDED}control:\n  host: 0.0.0.0\n  port: 0\n${STRATEGY}`))
    .toMatchInlineSnapshot(`
    "QUANTA_CONTROL_TOKEN_MISSING: <dir>/bot.yaml:4:3 control.host: 0.0.0.0 is not loopback: the control server needs a bearer token (control.tokenEnv)
    Set control.tokenEnv to the NAME of an environment variable and export a long random token in it,
    or bind control.host to 127.0.0.1."
  `);
  expect(await startError(`${EMBEDDED}control:\n  port: 0\n  tokenEnv: CONTROL_TOKEN\n${STRATEGY}`))
    .toMatchInlineSnapshot(`
    "QUANTA_CONTROL_TOKEN_MISSING: <dir>/bot.yaml:5:3 control.tokenEnv: names CONTROL_TOKEN, which is not set: the control server will not start without its token
    export CONTROL_TOKEN=<a long random token>"
  `);
  expect(
    await startError(
      `venue: { writeUrl: 'http://127.0.0.1:9', readUrl: 'http://127.0.0.1:9' }\nwallet:\n  privateKeyEnv: MY_KEY\n${STRATEGY}`,
    ),
  ).toMatchInlineSnapshot(`
    "QUANTA_WALLET_KEY_MISSING: <dir>/bot.yaml:4:3 wallet.privateKeyEnv: environment variable MY_KEY is not set
    Export the wallet's private key as MY_KEY (wallet.privateKeyEnv in the config names the variable)."
  `);
});

it('a key written twice names its key path', async () => {
  expect(
    await startError(
      `${EMBEDDED}strategies:\n  - module: ${DCA}\n    markets: [ETH-USD]\n    params:\n      quoteAmount: '10'\n      quoteAmount: '20'\n`,
    ),
  ).toMatchInlineSnapshot(`
    "QUANTA_CONFIG_INVALID: invalid config <dir>/bot.yaml (1 problem):
    <dir>/bot.yaml:8:7 strategies[0].params.quoteAmount: duplicate key "quoteAmount": each key may appear once in a mapping"
  `);
});

/**
 * Issue 25, "secrets and locations": a wallet key pasted into any string field of the config
 * (found by walking the config schema, so a field added later is covered too) is refused with
 * its key path and location, and no error line holds any 8-character part of it. Before, a key
 * pasted as a market symbol, a strategy name, a paper listing symbol, a module path, a
 * state.dir component or a kill-switch file name passed validation and was printed whole later.
 */
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { z } from 'zod';
import { parseConfig } from '../../../src/config/index.ts';
import { configSchema } from '../../../src/config/schema.ts';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';

type Path = (string | number)[];

/** A string written at `path`, or (`asKey`) as a key of the free mapping at `path`. */
type Leaf = { readonly path: Path; readonly asKey: boolean };

/** Every place of the schema where a string is written: values, and keys of free mappings. */
function stringLeaves(schema: z.core.$ZodType, path: Path, out: Leaf[]): Leaf[] {
  if (schema instanceof z.ZodString) out.push({ path, asKey: false });
  else if (schema instanceof z.ZodObject) {
    const shape: Record<string, z.core.$ZodType> = schema.shape;
    for (const [key, field] of Object.entries(shape)) stringLeaves(field, [...path, key], out);
  } else if (schema instanceof z.ZodPipe) stringLeaves(schema.in, path, out);
  else if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodPrefault
  )
    stringLeaves(schema.unwrap(), path, out);
  else if (schema instanceof z.ZodArray) stringLeaves(schema.element, [...path, 0], out);
  else if (schema instanceof z.ZodUnion)
    for (const option of schema.options) stringLeaves(option, path, out);
  else if (schema instanceof z.ZodRecord) {
    // Both the keys and the values of a free mapping are written by the user.
    out.push({ path: [...path, 'x'], asKey: false }, { path, asKey: true });
  }
  return out;
}

const leaves = stringLeaves(configSchema, [], []).filter(
  // One entry per path (a union of two string forms is one field).
  (leaf, i, all) =>
    all.findIndex((o) => o.asKey === leaf.asKey && o.path.join('.') === leaf.path.join('.')) === i,
);

const HEX = 'c0ffee11'.repeat(8);
const FORMS = [`0x${HEX}`, HEX, `0x${HEX.toUpperCase()}`, `strategies/${HEX}.ts`];

function baseConfig(): Record<string, unknown> {
  return {
    venue: { writeUrl: 'embedded', readUrl: 'embedded' },
    strategies: [{ module: '/srv/bot/strategies/dca.ts', markets: ['ETH-USD'] }],
  };
}

/** Writes `value` at `path` (or, with `asKey`, a key named `value` in the mapping at `path`). */
function put(target: Record<string, unknown>, leaf: Leaf, value: string): void {
  let node: Record<string | number, unknown> = target;
  const steps = leaf.asKey ? leaf.path : leaf.path.slice(0, -1);
  for (const [i, step] of steps.entries()) {
    const next = steps[i + 1] ?? (leaf.asKey ? undefined : leaf.path.at(-1));
    node[step] ??= typeof next === 'number' ? [] : {};
    node = node[step] as Record<string | number, unknown>;
  }
  if (leaf.asKey) node[value] = 1;
  else node[leaf.path.at(-1) as string | number] = value;
}

/** Every 8-character part of the key's hex digits, any case. */
const parts = Array.from({ length: HEX.length - 7 }, (_, i) => HEX.slice(i, i + 8).toLowerCase());

function errorText(yaml: string): string {
  try {
    parseConfig(yaml, 'bot.yaml', '/srv/bot/config', { env: {} });
  } catch (error) {
    expect(error).toBeInstanceOf(QuantaError);
    expect((error as QuantaError).code).toBe(ErrorCodes.CONFIG_INVALID);
    return (error as QuantaError).message;
  }
  throw new Error('expected the config to be refused');
}

describe('a key pasted into any string field of the config', () => {
  it('the schema walk finds every string field', () => {
    expect(leaves.map((l) => `${l.path.join('.')}${l.asKey ? ' (keys)' : ''}`))
      .toMatchInlineSnapshot(`
        [
          "venue.writeUrl",
          "venue.readUrl",
          "venue.headerPrefix",
          "venue.signing.name",
          "venue.signing.version",
          "venue.signing.registerVerifyingContract",
          "venue.signing.orderVerifyingContract",
          "wallet.privateKeyEnv",
          "state.dir",
          "execution.rateBudget",
          "risk.maxOrderNotional",
          "risk.maxPositionNotional",
          "risk.dailyLossLimit",
          "risk.capital",
          "risk.maxLeverage.x",
          "risk.maxLeverage (keys)",
          "risk.killSwitchFile",
          "paper.balance",
          "paper.listings.0.market",
          "backtest.startingCapital",
          "record.dir",
          "control.host",
          "control.tokenEnv",
          "control.readTokenEnv",
          "notify.0.url",
          "notify.0.urlEnv",
          "notify.0.chatId",
          "strategies.0.module",
          "strategies.0.markets.0",
          "strategies.0.params.x",
          "strategies.0.params (keys)",
          "strategies.0.name",
        ]
      `);
  });

  for (const leaf of leaves) {
    const name = `${leaf.path.join('.')}${leaf.asKey ? ' (as a key)' : ''}`;
    it(`${name}: refused with its key path and location, no part of it shown`, () => {
      for (const form of FORMS) {
        const config = baseConfig();
        put(config, leaf, form);
        const text = errorText(stringify(config));
        const lower = text.toLowerCase();
        for (const part of parts) expect(lower, `${name} = ${form}`).not.toContain(part);
        expect(text).toMatch(/^bot\.yaml:\d+:\d+ .+: .*not shown/m);
      }
    });
  }
});

it('a contract address (public, 40 hex digits) is still accepted where one belongs', () => {
  const config = baseConfig();
  config.venue = {
    writeUrl: 'embedded',
    readUrl: 'embedded',
    signing: { orderVerifyingContract: `0x${'ab'.repeat(20)}` },
  };
  const parsed = parseConfig(stringify(config), 'bot.yaml', '/srv/bot/config', { env: {} });
  expect(parsed.venue.signing.orderVerifyingContract).toBe(`0x${'ab'.repeat(20)}`);
});

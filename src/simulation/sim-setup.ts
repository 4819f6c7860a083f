import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hex } from 'viem';
import { parseConfig, type Config } from '../config/index.ts';
import { SIM_MIXES, type SimMix } from './sim-mix.ts';
import type { SimRandom } from './sim-random.ts';

/** Where virtual time starts (the venue's wall clock): 2026-01-01T00:00:00Z. */
export const EPOCH_MS = Date.UTC(2026, 0, 1);
/** The venue both sides of the bot talk to (never contacted: the network is simulated). */
const VENUE_URL = 'http://127.0.0.1:9';
/** Each subaccount's starting cash at the venue, and the bot's `risk.capital`. */
export const SIM_BALANCE = '100000';
/** `risk.maxPositionNotional` of the simulated bot, in quote units. */
export const POSITION_CAP = 3000n;

/** A wallet or signing key drawn from the schedule's key stream. */
export function keyFrom(random: SimRandom): Hex {
  // 32 bytes whose first is 0x10-0x7f: never zero, always below the curve order.
  let hex = random.int(0x10, 0x7f).toString(16);
  for (let i = 1; i < 32; i++) hex += random.int(0, 255).toString(16).padStart(2, '0');
  return `0x${hex}`;
}

/** A new directory for the schedules' state dirs: in /dev/shm when it exists, else the temp dir. */
export function defaultStateRoot(): string {
  try {
    return mkdtempSync('/dev/shm/quanta-sim-');
  } catch {
    return mkdtempSync(join(tmpdir(), 'quanta-sim-'));
  }
}

function extensionOf(url: string): string {
  // Loaded through tsx in a worker thread the URL may carry a query.
  return /\.ts(\?.*)?$/.test(url) ? '.ts' : '.js';
}

/**
 * The simulated bot's config: one sim-trader strategy on the mix's markets (`default`: ETH-USD),
 * its state dir under `dir`.
 */
export function simConfig(dir: string, seed: number, mix: SimMix = SIM_MIXES.default): Config {
  const document = {
    venue: {
      writeUrl: VENUE_URL,
      readUrl: VENUE_URL,
      timeoutMs: 2000,
      // Renewed a few times in a schedule: renewals meet the faults too.
      credentialTtlMs: 4 * 60_000,
      renewMarginMs: 60_000,
    },
    wallet: { privateKeyEnv: 'QUANTA_SIM_WALLET_KEY' },
    state: { dir: join(dir, 'state') },
    // Quotes of the one market the bot trades (ETH-USD in the default mix): the other markets' books
    // are not read by anything in a schedule.
    poll: { intervalMs: 1000, quotes: true, quoteMarkets: 'traded' },
    execution: {
      orderTtlMs: 20_000,
      maxAttempts: 3,
      rateLimit: { requests: 10, perMs: 1000 },
    },
    // The venue's balance: the bot knows its account (without it every opening order would be
    // refused MARGIN_UNKNOWN, docs/margin.md).
    risk: {
      maxOrderNotional: '1500',
      maxPositionNotional: String(POSITION_CAP),
      dailyLossLimit: String(mix.dailyLossLimit),
      capital: SIM_BALANCE,
    },
    log: { level: 'silent' },
    strategies: [
      {
        module: fileURLToPath(
          new URL(`./sim-trader${extensionOf(import.meta.url)}`, import.meta.url),
        ),
        markets: mix.markets,
        // The default mix's params as they always were: its traces stay the ledger's.
        params: mix.cross || mix.exits ? { seed, cross: mix.cross, exits: mix.exits } : { seed },
      },
    ],
  };
  // JSON is YAML (1.2): the same document, parsed and checked as any config, without the cost
  // of writing it as block YAML first.
  return parseConfig(JSON.stringify(document), join(dir, 'sim.yaml'), dir);
}

import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import type { Hex } from 'viem';
import type { Config } from '../config/index.ts';
import type { Logger } from '../log/logger.ts';
import { prepareStrategies, type PreparedStrategy } from '../strategy/prepare-strategies.ts';
import { addressOfPrivateKey } from '../venue/signing/index.ts';
import type { FaultChoices } from './fault-plan.ts';
import type { FillStats } from './fill-stats.ts';
import type { Violation } from './invariants.ts';
import type { NetworkFaults } from './sim-network.ts';
import { SIM_MIXES, type SimMix, type SimMixName } from './sim-mix.ts';
import { SimRandom, STREAMS } from './sim-random.ts';
import { keyFrom, simConfig } from './sim-setup.ts';

/** What one schedule runs. */
export interface ScheduleOptions {
  readonly seed: number;
  /** What the bot trades and on which books (`SIM_MIXES`); default `default`. */
  readonly mix?: SimMixName;
  /** Virtual length of the schedule; default 10 minutes. */
  readonly durationMs?: number;
  /** The last part of it, without faults (healing); default 2 minutes. */
  readonly healMs?: number;
  /** Crashes of the bot process; default 1. */
  readonly crashes?: number;
  readonly faults?: NetworkFaults;
  /** Faults forced instead of the seed's draw (tests). */
  readonly choices?: FaultChoices;
  /** Where state dirs are made (default /dev/shm when it exists, else the OS temp dir). */
  readonly stateRoot?: string;
  /** Logs of the bots (default none). */
  readonly log?: Logger;
  /** Told every trace event as it happens (tests read the whole trace). */
  readonly onEvent?: (event: string) => void;
}

/** What a schedule gave. */
export interface ScheduleResult {
  readonly seed: number;
  readonly traceHash: string;
  readonly violations: readonly Violation[];
  /** The schedule's planned faults by name (the network's per-request ones are counted). */
  readonly faultNames: readonly string[];
  readonly stats: {
    readonly events: number;
    readonly steps: number;
    readonly virtualMs: number;
    readonly ordersJournaled: number;
    readonly ordersAccepted: number;
    /** The plan's crashes that happened: a process was running when one came. */
    readonly crashes: number;
    /**
     * The plan's crashes due to strike: its crash, and the restarted bot's second one when the
     * first came early enough and the faults had not stopped (src/simulation/crash-timing.ts).
     */
    readonly crashesDue: number;
    /** Crashes after which the journal's files were damaged (the plan's damage, done). */
    readonly journalDamages: number;
    /** Network faults that happened. */
    readonly faults: number;
    /** The venue's fills of the bot's orders by market id: what a mix exercised (sim-mix.ts). */
    readonly fills: Readonly<Record<number, FillStats>>;
    /** Orders the bot's protective exits sent (tagged `exit:…`), in the last journal. */
    readonly exitOrders: number;
  };
}

/** What a schedule is made of before it runs: its config, strategies, keys and account. */
export interface Setup {
  readonly options: ScheduleOptions;
  readonly dir: string;
  /** The options' mix, resolved (`SIM_MIXES`). */
  readonly mixName: SimMixName;
  readonly mix: SimMix;
  readonly config: Config;
  readonly strategies: readonly PreparedStrategy[];
  readonly walletKey: Hex;
  readonly keys: SimRandom;
  readonly accountId: string;
}

/** Makes the schedule's state dir under `root` and what its bots share. */
export async function setUp(options: ScheduleOptions, root: string): Promise<Setup> {
  const dir = mkdtempSync(join(root, `seed-${options.seed}-`));
  const mixName = options.mix ?? 'default';
  const mix: SimMix = SIM_MIXES[mixName];
  const config = simConfig(dir, options.seed, mix);
  const strategies = await prepareStrategies(config.strategies, [dir], config.source);
  const keys = new SimRandom(options.seed, STREAMS.keys);
  const walletKey = keyFrom(keys);
  const wallet = addressOfPrivateKey(walletKey, 'wallet key');
  const accountId = `${config.venue.brokerId}_${wallet.toLowerCase()}_${config.venue.subaccount}`;
  return { options, dir, mixName, mix, config, strategies, walletKey, keys, accountId };
}

import type { SimRandom } from './sim-random.ts';

/**
 * The faults of one schedule besides the network's per-request ones, decided before it runs:
 * partitions, crashes (each maybe followed by damage to the journal), a host clock off the
 * venue's for a while, a journal that cannot be written for a while; and, in a mix with venue
 * faults, markets the venue turns off for a while and price jumps.
 */

/** Damage done to the journal's files while the bot is down after a crash. */
export const DAMAGE_KINDS = ['wal-lost', 'page-flip', 'truncated'] as const;
/** One of {@link DAMAGE_KINDS}. */
export type DamageKind = (typeof DAMAGE_KINDS)[number];

/** A span of virtual ms since the schedule started, `from` included. */
export interface Window {
  readonly from: number;
  readonly to: number;
}

/**
 * The host's wall clock off the venue's by `offsetMs` (positive: ahead) from `from` to `to`.
 * `skew`: from the start (the bot boots on it); `step`: stepped mid-run, and back at `to` (the
 * operator fixed the host's time).
 */
export interface ClockFault extends Window {
  readonly kind: 'skew' | 'step';
  readonly offsetMs: number;
}

/** Every write of the journal fails (SQLite's error for a full disk or a read-only file). */
export interface DiskFault extends Window {
  readonly kind: 'full' | 'read-only';
}

/**
 * A crash of the bot process at `at`, or, with `atWrite`, right after the bot's `atWrite`-th
 * journal write from `at` on (in the middle of a step: after an order's row is committed and
 * before it is sent, after an attempt is counted, after an answer is written), and what then
 * happens to its journal.
 */
export interface CrashFault {
  readonly at: number;
  readonly atWrite?: number;
  readonly damage?: DamageKind;
}

/**
 * The network partitioned: every request lost, or, with `answersLost`, one way only (requests
 * reach the venue and it acts on them; every answer is lost on the way back).
 */
export interface Partition extends Window {
  readonly answersLost?: true;
}

/**
 * A second crash, of the process started after the first crash (on a sound journal):
 * `afterBootMs` after its boot, or, with `atWrite`, right after its `atWrite`-th journal write
 * from its boot (its start-up: the journal opened, unsent rows settled, lookups of what the crash
 * left unknown), at `afterBootMs` at the latest.
 */
export interface RestartCrash {
  readonly afterBootMs: number;
  readonly atWrite?: number;
}

/**
 * The venue's rate limiter refuses every request with 429 from `from` to `to` (another client of
 * the account spent its budget, or the venue cut it), and says how long to wait:
 * - `seconds`: `Retry-After` the seconds left (rounded up);
 * - `date`: `Retry-After` the end as an HTTP date, beside the answer's `Date` (the venue's clock);
 * - `one`: `Retry-After: 1` throughout (a limiter that refuses again after each wait);
 * - `bare`: no `Retry-After`.
 */
export interface RateLimitStorm extends Window {
  readonly retryAfter: 'seconds' | 'date' | 'one' | 'bare';
}

/** The ways a {@link RateLimitStorm} tells the wait. */
export const STORM_KINDS = ['seconds', 'date', 'one', 'bare'] as const;

/** The venue turns a market off (`IsActive` false: it takes no order, nothing rests fills). */
export interface MarketOff extends Window {
  readonly marketId: number;
}

/** The venue's price of a market jumps by `ppb` parts per billion of itself at once. */
export interface PriceJump {
  readonly at: number;
  readonly marketId: number;
  readonly ppb: number;
}

/** The venue revokes every credential of the bot's account at `at` (an operator's action). */
export interface Revocation {
  readonly at: number;
}

/** What one schedule does wrong, besides each request's network faults. */
export interface FaultPlan {
  readonly partitions: readonly Partition[];
  readonly crashes: readonly CrashFault[];
  readonly restartCrash?: RestartCrash;
  readonly clock?: ClockFault;
  readonly disk?: DiskFault;
  readonly storms: readonly RateLimitStorm[];
  /** Venue faults (a mix with `venueFaults`; none otherwise). */
  readonly marketsOff: readonly MarketOff[];
  readonly jumps: readonly PriceJump[];
  readonly revocations: readonly Revocation[];
}

/**
 * Faults a test forces instead of the seed's draw (`'none'`: none of that kind); a forced
 * damage applies to the first crash.
 */
export interface FaultChoices {
  readonly clock?: ClockFault | 'none';
  readonly damage?: DamageKind | 'none';
  /** The first crash comes right after this journal write from its time on (or at the time). */
  readonly crashAtWrite?: number | 'none';
  readonly disk?: DiskFault | 'none';
  readonly restartCrash?: RestartCrash | 'none';
  readonly storm?: RateLimitStorm | 'none';
  /**
   * The venue's faults: `'none'`, none even in a mix that has them (a schedule found before they
   * were); or exactly these, in any mix.
   */
  readonly venue?: 'none' | Partial<Pick<FaultPlan, 'marketsOff' | 'jumps' | 'revocations'>>;
}

/** How often each fault is drawn in the default mix, per thousand schedules (or crashes). */
const MIX = {
  clock: 400,
  /** Of the clock faults: within the 5 s the bot allows (1-4 s off). */
  smallClock: 200,
  /** Of the others: around that bound (4-8 s off), then seconds off (8-60 s). */
  nearClock: 200,
  secondsClock: 200,
  damage: 300,
  disk: 250,
  atWrite: 500,
  /** Of the partitions: one way only (requests reach the venue, its answers are lost). */
  answersLost: 400,
  /** A second crash, of the process started after the first, 0-10 s after its boot. */
  restartCrash: 300,
  /** A 429 storm of 3-20 s. */
  storm: 500,
} as const;
/** How often each venue fault is drawn (a mix with venue faults), per thousand schedules. */
const VENUE_MIX = { marketOff: 500, jumps: 600, revocation: 400 } as const;

/** What {@link planFaults} needs. */
export interface PlanInput {
  /** The stream partitions and crash times come from (kept as it was: old seeds replay). */
  readonly plan: SimRandom;
  /** The stream of the faults added since (clock, journal damage, disk). */
  readonly more: SimRandom;
  /** The stream of the faults added after those (one-way partitions, the restart's crash, 429 storms). */
  readonly extra: SimRandom;
  /** Faults happen before this (virtual ms); healing follows. */
  readonly faultsUntil: number;
  readonly crashes: number;
  readonly choices?: FaultChoices;
  /**
   * Venue faults among these markets, drawn from their own stream (absent: none, and nothing
   * drawn, so a mix without them replays as before).
   */
  readonly venue?: { readonly random: SimRandom; readonly marketIds: readonly number[] };
}

/** Draws the schedule's fault plan from its seed's streams. */
export function planFaults(input: PlanInput): FaultPlan {
  const { plan, more, extra, faultsUntil, choices = {} } = input;
  const partitions: Partition[] = [];
  for (let i = plan.int(0, 2); i > 0; i--) {
    const from = plan.int(10_000, Math.max(10_001, faultsUntil - 60_000));
    const to = from + plan.int(2_000, 40_000);
    partitions.push(extra.chance(MIX.answersLost) ? { from, to, answersLost: true } : { from, to });
  }
  const crashes: CrashFault[] = [];
  for (let i = input.crashes; i > 0; i--) {
    const at = plan.int(20_000, Math.max(20_001, faultsUntil - 20_000));
    const drawn = more.chance(MIX.damage)
      ? DAMAGE_KINDS[more.int(0, DAMAGE_KINDS.length - 1)]
      : undefined;
    const forced = crashes.length === 0 ? choices.damage : undefined;
    const damage = forced === undefined ? drawn : forced === 'none' ? undefined : forced;
    const drawnWrite = more.chance(MIX.atWrite) ? more.int(1, 6) : undefined;
    const forcedWrite = crashes.length === 0 ? choices.crashAtWrite : undefined;
    const atWrite =
      forcedWrite === undefined ? drawnWrite : forcedWrite === 'none' ? undefined : forcedWrite;
    crashes.push({
      at,
      ...(atWrite === undefined ? {} : { atWrite }),
      ...(damage === undefined ? {} : { damage }),
    });
  }
  const restartCrash = chosen(choices.restartCrash, () =>
    extra.chance(MIX.restartCrash)
      ? {
          afterBootMs: extra.int(0, 10_000),
          ...(extra.chance(500) ? { atWrite: extra.int(1, 3) } : {}),
        }
      : undefined,
  );
  const storm = chosen(choices.storm, () => drawStorm(extra, faultsUntil));
  const clock = chosen(choices.clock, () => drawClock(more, faultsUntil));
  const disk = chosen(choices.disk, () => drawDisk(more, faultsUntil));
  const venue =
    typeof choices.venue === 'object'
      ? choices.venue
      : input.venue === undefined || choices.venue === 'none'
        ? undefined
        : drawVenue(input.venue, faultsUntil);
  return {
    partitions,
    crashes,
    marketsOff: venue?.marketsOff ?? [],
    jumps: venue?.jumps ?? [],
    revocations: venue?.revocations ?? [],
    storms: storm === undefined ? [] : [storm],
    ...(restartCrash === undefined ? {} : { restartCrash }),
    ...(clock === undefined ? {} : { clock }),
    ...(disk === undefined ? {} : { disk }),
  };
}

function chosen<T>(choice: T | 'none' | undefined, draw: () => T | undefined): T | undefined {
  // Drawn either way, so that forcing one kind does not shift the draws of the others.
  const drawn = draw();
  if (choice === 'none') return undefined;
  return choice ?? drawn;
}

function drawClock(random: SimRandom, faultsUntil: number): ClockFault | undefined {
  if (!random.chance(MIX.clock)) return undefined;
  const kind = random.chance(500) ? 'skew' : 'step';
  const from = kind === 'skew' ? 0 : random.int(10_000, Math.max(10_001, faultsUntil - 60_000));
  const to = Math.min(from + random.int(20_000, 90_000), faultsUntil - 5_000);
  // Most are minutes off (refused); some within the 5 s the bot allows (signed); some around
  // that bound, where its estimate of the skew decides; some seconds off.
  const magnitude = random.chance(MIX.smallClock)
    ? random.int(1000, 4000)
    : random.chance(MIX.nearClock)
      ? random.int(4000, 8000)
      : random.chance(MIX.secondsClock)
        ? random.int(8000, 60_000)
        : random.int(60_000, 10 * 60_000);
  const offsetMs = random.chance(500) ? magnitude : -magnitude;
  return { kind, from, to: Math.max(to, from + 1), offsetMs };
}

function drawStorm(random: SimRandom, faultsUntil: number): RateLimitStorm | undefined {
  if (!random.chance(MIX.storm)) return undefined;
  const from = random.int(10_000, Math.max(10_001, faultsUntil - 30_000));
  const to = Math.min(from + random.int(3_000, 20_000), faultsUntil);
  return { from, to, retryAfter: STORM_KINDS[random.int(0, STORM_KINDS.length - 1)]! };
}

function drawDisk(random: SimRandom, faultsUntil: number): DiskFault | undefined {
  if (!random.chance(MIX.disk)) return undefined;
  const kind = random.chance(500) ? 'full' : 'read-only';
  const from = random.int(10_000, Math.max(10_001, faultsUntil - 40_000));
  return { kind, from, to: Math.min(from + random.int(5_000, 30_000), faultsUntil) };
}

/**
 * A market off for 5-60 s in half the schedules; 1-3 price jumps of 0.5-4% in 6 in 10; the
 * bot's credentials revoked once in 4 in 10.
 */
function drawVenue(
  venue: NonNullable<PlanInput['venue']>,
  faultsUntil: number,
): Pick<FaultPlan, 'marketsOff' | 'jumps' | 'revocations'> {
  const { random, marketIds } = venue;
  const market = (): number => marketIds[random.int(0, marketIds.length - 1)]!;
  const marketsOff: MarketOff[] = [];
  if (random.chance(VENUE_MIX.marketOff)) {
    const from = random.int(10_000, Math.max(10_001, faultsUntil - 60_000));
    marketsOff.push({ marketId: market(), from, to: from + random.int(5_000, 60_000) });
  }
  const jumps: PriceJump[] = [];
  if (random.chance(VENUE_MIX.jumps)) {
    for (let i = random.int(1, 3); i > 0; i--) {
      const size = random.int(5_000_000, 40_000_000);
      const at = random.int(10_000, Math.max(10_001, faultsUntil - 10_000));
      jumps.push({ at, marketId: market(), ppb: random.chance(500) ? size : -size });
    }
  }
  const revocations: Revocation[] = random.chance(VENUE_MIX.revocation)
    ? [{ at: random.int(10_000, Math.max(10_001, faultsUntil - 30_000)) }]
    : [];
  return { marketsOff, jumps, revocations };
}

/** The host clock's offset from the venue's at virtual time `at` (ms; positive: ahead). */
export function clockOffsetAt(plan: FaultPlan, at: number): number {
  const clock = plan.clock;
  return clock !== undefined && at >= clock.from && at < clock.to ? clock.offsetMs : 0;
}

/** The partition the network is in at `at`: `'both'` ways, `'answers'` lost only, or none. */
export function partitionAt(plan: FaultPlan, at: number): 'both' | 'answers' | undefined {
  let found: 'both' | 'answers' | undefined;
  for (const p of plan.partitions)
    if (at >= p.from && at < p.to) {
      if (p.answersLost !== true) return 'both';
      found = 'answers';
    }
  return found;
}

/** The 429 storm running at `at`, if any. */
export function stormAt(plan: FaultPlan, at: number): RateLimitStorm | undefined {
  return plan.storms.find((storm) => at >= storm.from && at < storm.to);
}

/** What the network reads of the plan as virtual time (`now`, ms) passes. */
export function onTheWire(
  plan: FaultPlan,
  now: () => number,
): {
  /** Partitioned both ways: every request is lost on its way. */
  readonly partitioned: () => boolean;
  /** Partitioned either way: every answer is lost on its way back. */
  readonly answersLost: () => boolean;
  readonly storm: () => RateLimitStorm | undefined;
} {
  return {
    partitioned: () => partitionAt(plan, now()) === 'both',
    answersLost: () => partitionAt(plan, now()) !== undefined,
    storm: () => stormAt(plan, now()),
  };
}

/** Whether `at` falls in one of `windows`. */
export function within(windows: readonly Window[], at: number): boolean {
  return windows.some((w) => at >= w.from && at < w.to);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function clockName(clock: ClockFault): string {
  const size =
    Math.abs(clock.offsetMs) >= 60_000
      ? `${(Math.abs(clock.offsetMs) / 60_000).toFixed(1)} min`
      : seconds(Math.abs(clock.offsetMs));
  return `clock-${clock.kind} ${size} ${clock.offsetMs > 0 ? 'ahead' : 'behind'} ${seconds(clock.from)}-${seconds(clock.to)}`;
}

/** The plan's faults by name, for the trace and `quanta sim`'s line (network faults aside). */
export function faultNames(plan: FaultPlan): string[] {
  const names: string[] = plan.partitions.map(
    (p) =>
      `partition${p.answersLost === true ? ' answers-lost' : ''} ${seconds(p.from)}-${seconds(p.to)}`,
  );
  for (const crash of plan.crashes) {
    const write = crash.atWrite === undefined ? '' : ` after write ${crash.atWrite}`;
    names.push(
      `crash ${seconds(crash.at)}${write}${crash.damage === undefined ? '' : ` ${crash.damage}`}`,
    );
  }
  const again = plan.restartCrash;
  if (again !== undefined)
    names.push(
      `crash again ${seconds(again.afterBootMs)} after the restart${again.atWrite === undefined ? '' : ` (or after write ${again.atWrite})`}`,
    );
  if (plan.clock !== undefined) names.push(clockName(plan.clock));
  if (plan.disk !== undefined)
    names.push(`disk-${plan.disk.kind} ${seconds(plan.disk.from)}-${seconds(plan.disk.to)}`);
  for (const storm of plan.storms)
    names.push(`429-storm ${storm.retryAfter} ${seconds(storm.from)}-${seconds(storm.to)}`);
  for (const off of plan.marketsOff)
    names.push(`market-${off.marketId}-off ${seconds(off.from)}-${seconds(off.to)}`);
  for (const revocation of plan.revocations) names.push(`revoke ${seconds(revocation.at)}`);
  for (const jump of plan.jumps)
    names.push(
      `jump market ${jump.marketId} ${jump.ppb > 0 ? '+' : ''}${(jump.ppb / 1e7).toFixed(1)}% ${seconds(jump.at)}`,
    );
  return names;
}

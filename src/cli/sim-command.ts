import { stdout } from 'node:process';
import { systemClock } from '../clock/clock.ts';
import { ErrorCodes, ExitCode, QuantaError } from '../errors/index.ts';
import { formatViolation } from '../simulation/invariants.ts';
import { rangeDigest } from '../simulation/range-digest.ts';
import { runSchedule, type ScheduleResult } from '../simulation/run-schedule.ts';
import { runSeeds } from '../simulation/run-seeds.ts';
import { isSimMixName, SIM_MIXES, type SimMixName } from '../simulation/sim-mix.ts';
import type { CommandInput } from './command-spec.ts';
import type { COMMANDS } from './commands.ts';

function usage(message: string): QuantaError {
  // main.ts adds the usage line from the command table.
  return new QuantaError(ErrorCodes.USAGE, message);
}

function count(flag: string, text: string): number {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
    throw usage(`--${flag}: expected a non-negative integer, got ${JSON.stringify(text)}`);
  return Number(text);
}

function line(result: ScheduleResult): string {
  const { stats } = result;
  const planned = result.faultNames.length === 0 ? '' : ` (${result.faultNames.join(', ')})`;
  return `seed ${result.seed} trace ${result.traceHash} orders ${stats.ordersJournaled} accepted ${stats.ordersAccepted} faults ${stats.faults}${planned} crashes ${stats.crashes} ${result.violations.length === 0 ? 'ok' : 'VIOLATION'}\n`;
}

function mixOf(text: string): SimMixName {
  if (!isSimMixName(text))
    throw usage(
      `--mix: expected one of ${Object.keys(SIM_MIXES).join(', ')}, got ${JSON.stringify(text)}`,
    );
  return text;
}

/**
 * `quanta sim --seed N | --seeds A-B`: runs whole-bot schedules (src/simulation) and prints
 * one line per seed, and each violation with its seed, invariant and last events; a range ends
 * with its digest (`rangeDigest`: rerun the range to check it). Exit 1 when any schedule broke an
 * invariant.
 */
export async function run({ flags }: CommandInput<typeof COMMANDS.sim>): Promise<number> {
  const minutes = count('minutes', flags.minutes);
  if (minutes < 1) throw usage('--minutes: expected at least 1');
  const durationMs = minutes * 60_000;
  const mix = mixOf(flags.mix);
  const mixNote = mix === 'default' ? '' : `, mix ${mix}`;
  let results: ScheduleResult[];
  if (flags.seed !== undefined && flags.seeds === undefined) {
    const result = await runSchedule({
      seed: count('seed', flags.seed),
      durationMs,
      healMs: durationMs / 5,
      mix,
    });
    stdout.write(line(result));
    results = [result];
  } else if (flags.seeds !== undefined && flags.seed === undefined) {
    const range = /^(\d+)-(\d+)$/.exec(flags.seeds);
    const from = Number(range?.[1]);
    const to = Number(range?.[2]);
    if (range === null || from > to)
      throw usage(`--seeds: expected a range A-B with A <= B, got ${JSON.stringify(flags.seeds)}`);
    const started = systemClock.monotonic();
    results = await runSeeds({
      from,
      to,
      durationMs,
      mix,
      ...(flags.threads === undefined ? {} : { threads: count('threads', flags.threads) }),
      onResult: (result) => stdout.write(line(result)),
    });
    const seconds = (systemClock.monotonic() - started) / 1000;
    const violating = results.filter((r) => r.violations.length > 0).length;
    stdout.write(
      `seeds ${from}-${to} (${minutes} min${mixNote}): ${results.length} schedules, ${violating} with violations, range digest ${rangeDigest(results)}; ${seconds.toFixed(1)} s of wall time (${(results.length / seconds).toFixed(2)} schedules/s)\n`,
    );
  } else {
    throw usage('quanta sim needs --seed N or --seeds A-B (one of them)');
  }
  // Spelled out even at their defaults: the replay line then runs this very schedule whatever
  // the defaults become.
  const runFlags = `--minutes ${minutes} --mix ${mix}`;
  for (const result of results)
    for (const violation of result.violations)
      stdout.write(`${formatViolation(violation, runFlags)}\n`);
  return results.some((r) => r.violations.length > 0) ? ExitCode.FAILURE : ExitCode.OK;
}

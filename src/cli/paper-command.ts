import { ErrorCodes, isQuantaError, QuantaError } from '../errors/index.ts';
import type { PaperVenueOptions } from '../paper/index.ts';
import type { CommandInput } from './command-spec.ts';
import type { COMMANDS } from './commands.ts';

/** Where the command writes and how it learns that it should stop. */
export interface PaperCommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Resolves with the signal's name when the process is asked to stop. */
  readonly stopRequested: () => Promise<NodeJS.Signals>;
}

/**
 * Resolves on the first SIGINT or SIGTERM. The listeners are removed then, so a second signal
 * during shutdown ends the process the default way.
 */
function firstStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
    const onSignal = (signal: NodeJS.Signals): void => {
      for (const name of signals) process.off(name, onSignal);
      resolve(signal);
    };
    for (const name of signals) process.on(name, onSignal);
  });
}

const processIo: PaperCommandIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stopRequested: firstStopSignal,
};

function integerFlag(name: string, text: string | undefined, min: number, max: number) {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new QuantaError(
      ErrorCodes.USAGE,
      `--${name}: expected an integer from ${min} to ${max}, got ${JSON.stringify(text)}`,
    );
  }
  return value;
}

/**
 * The venue options of the flags.
 * @throws QuantaError `QUANTA_USAGE` for a value out of range.
 */
function paperOptions(flags: CommandInput<typeof COMMANDS.paper>['flags']): PaperVenueOptions {
  const port = integerFlag('port', flags.port, 0, 65_535);
  const seed = integerFlag('seed', flags.seed, 0, Number.MAX_SAFE_INTEGER);
  const rateLimit = integerFlag('rate-limit', flags['rate-limit'], 1, Number.MAX_SAFE_INTEGER);
  if (flags.host.trim() === '')
    throw new QuantaError(ErrorCodes.USAGE, '--host: expected a host name or IP address');
  return {
    host: flags.host,
    ...(port === undefined ? {} : { port }),
    ...(seed === undefined ? {} : { seed }),
    ...(rateLimit === undefined ? {} : { rateLimit }),
  };
}

/**
 * `quanta paper`: serves the paper venue, prints one JSON line `{"url", "host", "port"}` once
 * listening, and on SIGINT or SIGTERM closes the server and returns 0: a requested stop of a
 * server is its normal end, not an interruption of work (so not 130).
 *
 * @returns the exit code: 0 after a clean stop, 1 when the venue cannot start (e.g. the port is
 *   taken).
 * @throws QuantaError `QUANTA_USAGE` for a value out of range (the CLI prints it with the usage).
 */
export async function run(
  { flags }: CommandInput<typeof COMMANDS.paper>,
  io: PaperCommandIo = processIo,
): Promise<number> {
  const parsed = paperOptions(flags);
  // Listen for signals before listening on the port: a stop right after the line is not lost.
  const stop = io.stopRequested();
  // Loaded only now: a usage error answers without loading the venue, the engine and viem.
  const { startPaperVenue } = await import('../paper/index.ts');
  let venue;
  try {
    venue = await startPaperVenue(parsed);
  } catch (error) {
    if (!isQuantaError(error)) throw error;
    io.stderr(`quanta paper: ${error.shortMessage}\n`);
    return 1;
  }
  const { port } = new URL(venue.url);
  io.stdout(`${JSON.stringify({ url: venue.url, host: parsed.host, port: Number(port) })}\n`);
  await stop;
  await venue.close();
  return 0;
}

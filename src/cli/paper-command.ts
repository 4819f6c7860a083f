import { parseArgs } from 'node:util';
import { isQuantaError } from '../errors/index.ts';
import type { PaperVenueOptions } from '../paper/index.ts';

/** The usage text of `quanta paper`. */
export const PAPER_USAGE = `Usage: quanta paper [--host 127.0.0.1] [--port N] [--seed N] [--rate-limit N]

Serves the paper venue (write and read API on one port) until SIGINT or SIGTERM.
Once listening it prints one JSON line to stdout: {"url":"http://127.0.0.1:PORT",...}

Options:
  --host HOST        address to listen on (default 127.0.0.1)
  --port N           port, 0 for any free one (default 0)
  --seed N           seed of the price walks; also makes credentials deterministic
  --rate-limit N     requests per second per client; beyond it 429 with Retry-After
  -h, --help         show this help
`;

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

class UsageProblem {
  constructor(readonly message: string) {}
}

function integerFlag(name: string, text: string | undefined, min: number, max: number) {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    return new UsageProblem(
      `--${name}: expected an integer from ${min} to ${max}, got ${JSON.stringify(text)}`,
    );
  }
  return value;
}

function parsePaperArgs(args: readonly string[]): PaperVenueOptions | 'help' | UsageProblem {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        seed: { type: 'string' },
        'rate-limit': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return new UsageProblem(error instanceof Error ? error.message : String(error));
  }
  if (values.help === true) return 'help';
  const port = integerFlag('port', values.port, 0, 65_535);
  const seed = integerFlag('seed', values.seed, 0, Number.MAX_SAFE_INTEGER);
  const rateLimit = integerFlag('rate-limit', values['rate-limit'], 1, Number.MAX_SAFE_INTEGER);
  for (const value of [port, seed, rateLimit]) if (value instanceof UsageProblem) return value;
  if (values.host !== undefined && values.host.trim() === '') {
    return new UsageProblem('--host: expected a host name or IP address');
  }
  return {
    host: values.host ?? '127.0.0.1',
    ...(typeof port === 'number' ? { port } : {}),
    ...(typeof seed === 'number' ? { seed } : {}),
    ...(typeof rateLimit === 'number' ? { rateLimit } : {}),
  };
}

/**
 * `quanta paper [--host 127.0.0.1] [--port N] [--seed N] [--rate-limit N]`: serves the paper
 * venue, prints one JSON line `{"url", "host", "port"}` once listening, and on SIGINT or SIGTERM
 * closes the server and returns 0: a requested stop of a server is its normal end, not an
 * interruption of work (so not 130).
 *
 * @param args - the arguments after `paper`.
 * @returns the exit code: 0 after a clean stop, 1 when the venue cannot start (e.g. the port is
 *   taken), 2 for a usage error (unknown flag, bad value), with the usage on stderr.
 */
export async function runPaperCommand(
  args: readonly string[],
  io: PaperCommandIo = processIo,
): Promise<number> {
  const parsed = parsePaperArgs(args);
  if (parsed === 'help') {
    io.stdout(PAPER_USAGE);
    return 0;
  }
  if (parsed instanceof UsageProblem) {
    io.stderr(`quanta paper: ${parsed.message}\n\n${PAPER_USAGE}`);
    return 2;
  }
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

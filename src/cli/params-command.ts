import { stdout } from 'node:process';
import type { Config } from '../config/index.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { CommandInput } from './command-spec.ts';
import type { COMMANDS } from './commands.ts';
import { loadConfigFlag } from './common.ts';
import { ExitCode } from './exit-codes.ts';

/** `KEY=VALUE` arguments as the change to send (the bot reads a refused text value as JSON). */
function changesOf(args: readonly string[]): Record<string, string> {
  if (args.length === 0)
    throw new QuantaError(ErrorCodes.USAGE, 'set needs a STRATEGY and at least one KEY=VALUE');
  const changes: Record<string, string> = {};
  for (const arg of args) {
    const at = arg.indexOf('=');
    if (at <= 0)
      throw new QuantaError(ErrorCodes.USAGE, `expected KEY=VALUE, got ${JSON.stringify(arg)}`);
    changes[arg.slice(0, at)] = arg.slice(at + 1);
  }
  return changes;
}

/** The running bot's control server, from the config. */
function controlOf(config: Config, env: NodeJS.ProcessEnv): { url: string; token?: string } {
  const control = config.control;
  if (control === undefined)
    throw new QuantaError(
      ErrorCodes.USAGE,
      'the config has no control: section, so the bot has no control server to send the change to',
    );
  if (control.port === 0)
    throw new QuantaError(
      ErrorCodes.USAGE,
      'control.port is 0 (a free port each run): give the control server a fixed port to reach it',
    );
  const host =
    control.host === '0.0.0.0' ? '127.0.0.1' : control.host === '::' ? '::1' : control.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${control.port}`;
  const token = control.tokenEnv === undefined ? undefined : env[control.tokenEnv];
  if (control.tokenEnv !== undefined && (token === undefined || token === ''))
    throw new QuantaError(
      ErrorCodes.CONTROL_TOKEN_MISSING,
      `control.tokenEnv names ${control.tokenEnv}, which is not set here: the bot would refuse the change`,
    );
  return token === undefined ? { url } : { url, token };
}

async function ask(
  url: string,
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<{ status: number; answer: Record<string, unknown> }> {
  const headers: Record<string, string> = { 'x-quanta-client': 'cli' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['x-quanta-request'] = '1';
  }
  let res: Response;
  try {
    res = await fetch(`${url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (cause) {
    const code = (cause as { cause?: { code?: string } }).cause?.code;
    throw new QuantaError(
      ErrorCodes.USAGE,
      `cannot reach the bot's control server at ${url}${code === undefined ? '' : ` (${code})`}: is the bot running with this config?`,
      { cause },
    );
  }
  const answer = (await res.json()) as Record<string, unknown>;
  return { status: res.status, answer };
}

/**
 * `quanta params set STRATEGY KEY=VALUE...` / `quanta params list`: a running bot's strategy
 * params, changed through its control server (`POST /strategies/{name}/params`), which
 * validates, applies, journals and keeps the change.
 */
export async function run({
  flags,
  positional,
  rest = [],
}: CommandInput<typeof COMMANDS.params>): Promise<number> {
  const config = await loadConfigFlag(flags.config, process.env);
  const { url, token } = controlOf(config, process.env);
  if (positional === 'list' && rest.length === 0) {
    const { status, answer } = await ask(url, '/params', token);
    if (status !== 200) throw refusal(status, answer);
    stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    return ExitCode.OK;
  }
  if (positional !== 'set')
    throw new QuantaError(
      ErrorCodes.USAGE,
      `expected set STRATEGY KEY=VALUE... or list, got ${JSON.stringify(positional ?? '')}`,
    );
  const [strategy, ...pairs] = rest;
  if (strategy === undefined || strategy.includes('='))
    throw new QuantaError(ErrorCodes.USAGE, 'set needs a STRATEGY name before KEY=VALUE');
  const { status, answer } = await ask(
    url,
    `/strategies/${encodeURIComponent(strategy)}/params`,
    token,
    { params: changesOf(pairs) },
  );
  if (status !== 200) throw refusal(status, answer);
  if (flags.json) {
    stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    return ExitCode.OK;
  }
  const change = answer['change'] as { seq: number; at: string };
  stdout.write(
    `${strategy}: params now ${JSON.stringify(answer['params'])} (change ${change.seq}, ${change.at})\n`,
  );
  return ExitCode.OK;
}

/** The bot's refusal as an error: the schema's message and its lines, or why else. */
function refusal(status: number, answer: Record<string, unknown>): QuantaError {
  const error = typeof answer['error'] === 'string' ? answer['error'] : `HTTP ${status}`;
  const details = Array.isArray(answer['details']) ? answer['details'].map(String) : [];
  if (status === 401 || status === 403)
    return new QuantaError(ErrorCodes.CONTROL_TOKEN_MISSING, `the bot refused: ${error}`);
  if (status === 422)
    return new QuantaError(ErrorCodes.STRATEGY_PARAMS, `the bot refused the change: ${error}`, {
      details,
    });
  return new QuantaError(ErrorCodes.USAGE, `the bot refused the change: ${error}`, { details });
}

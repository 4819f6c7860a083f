/**
 * Helpers of the control-server tests: bot configs with `control:`/`notify:` sections, a proxy
 * that can make the venue go away and come back on the same port, and small HTTP calls.
 */
import { writeFile } from 'node:fs/promises';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { generatePrivateKey } from 'viem/accounts';
import { loadConfig } from '../../../../src/config/index.ts';
import { startBotWithParts, type BotWithParts } from '../../../../src/runtime/bot.ts';
import { captureLogs, PAPER_BALANCE, WALLET_ENV } from '../harness.ts';

/** What a control test config sets beyond the venue and strategies. */
export interface ControlTestConfig {
  readonly writeUrl: string;
  readonly readUrl?: string;
  readonly strategies: readonly {
    module: string;
    markets: string[];
    params?: object;
    name?: string;
    timeoutMs?: number;
    isolate?: 'none' | 'worker';
    heapLimitMb?: number;
  }[];
  readonly poll?: { intervalMs?: number; staleAfterMs?: number; maxBackoffMs?: number };
  readonly control?: {
    host?: string;
    port?: number;
    tokenEnv?: string;
    readTokenEnv?: string;
    lastOrders?: number;
  };
  readonly notify?: readonly Record<string, unknown>[];
  readonly risk?: Record<string, unknown>;
  /** Extra venue keys (timeoutMs, credentialTtlMs, renewMarginMs). */
  readonly venue?: Record<string, unknown>;
  readonly execution?: Record<string, unknown>;
}

/** Writes `<dir>/bot.yaml` (state in `<dir>/state`, wallet key from WALLET_ENV). */
export async function writeControlConfig(dir: string, config: ControlTestConfig): Promise<string> {
  const document = {
    venue: {
      writeUrl: config.writeUrl,
      readUrl: config.readUrl ?? config.writeUrl,
      ...config.venue,
    },
    wallet: { privateKeyEnv: WALLET_ENV },
    state: { dir: join(dir, 'state') },
    poll: { intervalMs: 100, ...config.poll },
    // Polls every 100 ms would be skipped half the time under the default budget of 10/s.
    execution: { countPolls: false, ...config.execution },
    // The paper venue's starting balance (without it every opening order is MARGIN_UNKNOWN).
    risk: { capital: PAPER_BALANCE, ...config.risk },
    log: { level: 'debug' },
    control: { host: '127.0.0.1', port: 0, ...config.control },
    ...(config.notify === undefined ? {} : { notify: config.notify }),
    strategies: config.strategies,
  };
  const path = join(dir, 'bot.yaml');
  await writeFile(path, stringify(document), 'utf8');
  return path;
}

/** A JSON answer of the control server. */
export interface JsonAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** GET or POST `path` on `base`, with an optional bearer token and JSON body. */
export async function call(
  base: string,
  path: string,
  options: { method?: string; token?: string; body?: unknown } = {},
): Promise<JsonAnswer> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  // What the server asks of every state-changing request (request-guard.ts): JSON and its header.
  const writes = method !== 'GET' && method !== 'HEAD';
  if (writes) {
    headers['content-type'] = 'application/json';
    headers['x-quanta-request'] = '1';
  }
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(writes ? { body: JSON.stringify(options.body ?? {}) } : {}),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Record<string, unknown> };
}

const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'content-length',
  'keep-alive',
  'transfer-encoding',
]);

function forwardHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (HOP_BY_HOP.has(name) || value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** A proxy in front of a venue that can stop listening (the venue went away) and come back. */
export interface OutageProxy {
  readonly url: string;
  /** Stops listening and cuts every connection: requests are refused. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

/** Starts an {@link OutageProxy} on 127.0.0.1, port 0, forwarding to `target`. */
export async function startOutageProxy(target: string): Promise<OutageProxy> {
  const sockets = new Set<Socket>();
  const make = (): Server => {
    const server = createServer((req, res) => {
      res.on('error', () => undefined);
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        void (async () => {
          const body = Buffer.concat(chunks);
          const upstream = await fetch(`${target}${req.url ?? '/'}`, {
            method: req.method ?? 'GET',
            headers: forwardHeaders(req.headers),
            ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
          });
          const text = await upstream.text();
          res.writeHead(upstream.status, {
            'content-type': upstream.headers.get('content-type') ?? 'application/json',
          });
          res.end(text);
        })().catch(() => res.destroy());
      });
    });
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    return server;
  };
  const listen = (server: Server, port: number): Promise<number> =>
    new Promise((done, fail) => {
      server.once('error', fail);
      server.listen(port, '127.0.0.1', () => done((server.address() as AddressInfo).port));
    });
  const stop = (server: Server): Promise<void> =>
    new Promise((done) => {
      server.close(() => done());
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
    });
  let server: Server | undefined = make();
  const port = await listen(server, 0);
  return {
    url: `http://127.0.0.1:${port}`,
    down: async () => {
      if (server === undefined) return;
      const current = server;
      server = undefined;
      await stop(current);
    },
    up: async () => {
      if (server !== undefined) return;
      server = make();
      await listen(server, port);
    },
    close: async () => {
      if (server !== undefined) await stop(server);
      server = undefined;
    },
  };
}

/** A local webhook receiver: every POST body, by path, in arrival order. */
export interface WebhookReceiver {
  readonly url: string;
  readonly received: { path: string; body: Record<string, unknown>; at: number }[];
  close(): Promise<void>;
}

/** Starts a {@link WebhookReceiver} on 127.0.0.1, port 0, answering 200 `ok`. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: { path: string; body: Record<string, unknown>; at: number }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        path: req.url ?? '/',
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
        at: Date.now(),
      });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * A webhook that is down in the worst way: it accepts connections and never answers (a client
 * waits for its own timeout). Counts the requests that arrived.
 */
export async function startBlackHole(): Promise<{
  url: string;
  requests: () => number;
  close(): Promise<void>;
}> {
  let requests = 0;
  const server = createServer(() => {
    requests += 1;
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests: () => requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** An answer read raw: status, headers and body text. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/**
 * A request with any headers, `Host` and `Origin` included (fetch will not send a `Host` of
 * the caller's choosing): what a browser on another site, or a rebound name, would send.
 */
export async function rawRequest(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const url = new URL(path, base);
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        signal: AbortSignal.timeout(10_000),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * Starts a bot from `configPath` (a fresh wallet key in its env) and runs it; `cleanups` gets
 * the step that stops it and shuts it down.
 */
export async function startRunningBot(
  configPath: string,
  env: NodeJS.ProcessEnv,
  cleanups: (() => Promise<unknown>)[],
): Promise<{ bot: BotWithParts; url: string }> {
  const fullEnv = { [WALLET_ENV]: generatePrivateKey(), ...env };
  const config = await loadConfig(configPath, { env: fullEnv });
  const { log } = captureLogs();
  const bot = await startBotWithParts({ config, env: fullEnv, log, projectRoot: process.cwd() });
  const controller = new AbortController();
  const running = bot.run(controller.signal);
  cleanups.push(async () => {
    controller.abort();
    await running;
    await bot.shutdown();
  });
  if (bot.controlUrl === undefined) throw new Error('control server not started');
  return { bot, url: bot.controlUrl };
}

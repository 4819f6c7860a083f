import { SimEngine, type SimEngineOptions } from '../sim/index.ts';
import type { PaperContext } from './context.ts';
import { createCredentialGenerator } from './credential-generator.ts';
import { credentialHeaderNames } from './credential-headers.ts';
import { CredentialStore } from './credential-store.ts';
import type { ResolvedPaperOptions } from './options.ts';
import { ReplayGuard } from './replay-guard.ts';
import { createRouter, type Router } from './router.ts';
import { createOrderRoute } from './routes/create-order.ts';
import { findOrderRoute, getOrderRoute } from './routes/get-order.ts';
import { listMarketsRoute } from './routes/list-markets.ts';
import { quotesRoute } from './routes/quotes.ts';
import { registerRoute } from './routes/register.ts';
import { SubaccountRegistry } from './subaccount-registry.ts';

function buildEngine(options: ResolvedPaperOptions): SimEngine {
  if (options.engine !== undefined) return options.engine;
  const engineOptions: SimEngineOptions = {
    clock: options.clock,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.markets === undefined ? {} : { markets: options.markets }),
    ...(options.volatilityBps === undefined ? {} : { volatilityBps: options.volatilityBps }),
    ...(options.spreadBps === undefined ? {} : { spreadBps: options.spreadBps }),
    ...(options.levelNotional === undefined ? {} : { levelNotional: options.levelNotional }),
    ...(options.listings === undefined ? {} : { listings: options.listings }),
    ...(options.balance === undefined ? {} : { initialBalance: options.balance }),
  };
  return new SimEngine(engineOptions);
}

/**
 * The paper venue's engine and route table: what the HTTP server (server.ts) and
 * the in-process venue (in-process.ts) both serve.
 */
export function buildPaperRoutes(resolved: ResolvedPaperOptions): {
  engine: SimEngine;
  router: Router;
  credentials: CredentialStore;
} {
  const engine = buildEngine(resolved);
  const context: PaperContext = {
    engine,
    clock: resolved.clock,
    domain: resolved.domain,
    headerNames: credentialHeaderNames(resolved.headerPrefix),
    registry: new SubaccountRegistry(),
    credentials: new CredentialStore(createCredentialGenerator(resolved.seed)),
    replayGuard: new ReplayGuard(),
  };
  const router = createRouter([
    registerRoute(context),
    createOrderRoute(context),
    getOrderRoute(context),
    findOrderRoute(context),
    listMarketsRoute(context),
    quotesRoute(context),
  ]);
  return { engine, router, credentials: context.credentials };
}

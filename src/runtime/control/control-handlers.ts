import type { HaltMode, TradingMode } from '../../execution/trading-mode.ts';
import type { ParamsOutcome } from '../live-params.ts';
import type { ControlRole } from './control-auth.ts';
import type { FeedListener } from './live-feed.ts';

/** What the bot answers through the control server. */
export interface ControlHandlers {
  /** True while the bot's run loop runs. */
  live(): boolean;
  /** Why the bot is not ready to trade; empty when it is. */
  notReadyReasons(): string[];
  /** The status line's content plus open and latest orders (JSON-safe). */
  status(): unknown;
  /** The Prometheus exposition. */
  metrics(): Promise<{ contentType: string; body: string }>;
  halt(mode: HaltMode): TradingMode;
  resume(): TradingMode;
  resumeStrategy(name: string): 'resumed' | 'not-paused' | 'unknown';
  /** Every strategy's params in effect and every live change of them, oldest first. */
  params(): { params: unknown; changes: readonly { readonly strategy: string }[] };
  /** Changes some params of a strategy (`by`: who asked, for the audit). */
  setParams(name: string, changes: Record<string, unknown>, by: string): Promise<ParamsOutcome>;
  /** Adds a live page (`GET /events`); returns the function that removes it. */
  watch(listener: FeedListener): () => void;
}

/** What the request may do, and the cookie that would open a page session for it. */
export interface Session {
  readonly role: ControlRole;
  readonly cookie: string;
  /** Who asked, as the params audit records it. */
  readonly by: string;
}

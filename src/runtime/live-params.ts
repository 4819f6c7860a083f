import { isQuantaError } from '../errors/index.ts';
import type { Logger } from '../log/logger.ts';
import { parseStrategyParams } from '../strategy/load-strategy.ts';
import type { PreparedStrategy } from '../strategy/prepare-strategies.ts';

/** The journal's key-value scope of the params audit: one row per change, keyed by its number. */
export const PARAMS_SCOPE = 'quanta:params';

/** One live change of a strategy's params, as the journal keeps it and `GET /params` shows it. */
export interface ParamsChangeRecord {
  /** 1, 2, 3… over every strategy of the bot. */
  readonly seq: number;
  readonly strategy: string;
  /** When it was applied (ISO 8601, the bot's clock). */
  readonly at: string;
  /** Who asked: how (page, cli, api), with which token, from which address. */
  readonly by: string;
  /** The params before and after, as given (before the schema's defaults), JSON. */
  readonly previous: unknown;
  readonly params: unknown;
}

/** The audit's rows in the journal (its key-value store, scope {@link PARAMS_SCOPE}). */
export interface ParamsAuditStore {
  list(): readonly { readonly key: string; readonly value: string }[];
  set(key: string, value: string): void;
}

/** Where the changes go: the trading session's strategies. */
export interface ParamsTarget {
  /** The params in effect (parsed), undefined for an unknown strategy. */
  paramsOf(name: string): unknown;
  /** Puts parsed params in effect between two snapshots; throws why it cannot. */
  setParams(name: string, params: unknown): Promise<void>;
}

/** How a change ended. */
export type ParamsOutcome =
  | { readonly ok: true; readonly change: ParamsChangeRecord; readonly params: unknown }
  | {
      readonly ok: false;
      /**
       * `unknown`: no such strategy; `invalid`: the schema said no; `refused`: the strategy did;
       * `unsaved`: the journal could not keep it (the previous params are back in effect).
       */
      readonly why: 'unknown' | 'invalid' | 'refused' | 'unsaved';
      readonly error: string;
      readonly details: readonly string[];
    };

/** The audit read from the journal, oldest first; a row that is not a change is damage. */
export function readParamsAudit(store: Pick<ParamsAuditStore, 'list'>): ParamsChangeRecord[] {
  return store.list().map(({ key, value }) => {
    const row = JSON.parse(value) as Partial<ParamsChangeRecord>;
    if (
      typeof row.seq !== 'number' ||
      typeof row.strategy !== 'string' ||
      typeof row.at !== 'string' ||
      typeof row.by !== 'string'
    )
      throw new Error(`params audit row ${key} is not a params change: ${value.slice(0, 200)}`);
    return row as ParamsChangeRecord;
  });
}

/** The params as configured, made an object a change can be merged into. */
function asObject(raw: unknown): Record<string, unknown> {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw)
    ? { ...(raw as Record<string, unknown>) }
    : {};
}

/**
 * The prepared strategies with each one's latest live change put back (a restart keeps what
 * was changed while the bot ran), and the raw params each now runs on. A stored change the
 * strategy's schema no longer accepts (its code changed) is not applied: the config's params
 * are, with an error line saying so.
 */
export function restoreLiveParams(
  prepared: readonly PreparedStrategy[],
  configParams: (index: number) => unknown,
  audit: readonly ParamsChangeRecord[],
  log: Logger,
): { strategies: PreparedStrategy[]; raw: Map<string, unknown> } {
  const latest = new Map<string, ParamsChangeRecord>();
  for (const change of audit) latest.set(change.strategy, change);
  const raw = new Map<string, unknown>();
  const strategies = prepared.map((entry) => {
    raw.set(entry.name, configParams(entry.index));
    const change = latest.get(entry.name);
    if (change === undefined || entry.worker !== undefined) return entry;
    try {
      const params = parseStrategyParams(entry.strategy, entry.name, change.params, {
        keyPath: `params (changed live at ${change.at})`,
      });
      raw.set(entry.name, change.params);
      log.info(
        { strategy: entry.name, params: change.params, changedAt: change.at, by: change.by },
        `strategy ${entry.name} runs on the params changed live at ${change.at} by ${change.by}, not the config's`,
      );
      return { ...entry, params };
    } catch (error) {
      if (!isQuantaError(error)) throw error;
      log.error(
        { strategy: entry.name, err: error },
        `strategy ${entry.name}: the params changed live at ${change.at} no longer pass its schema; it runs on the config's params`,
      );
      return entry;
    }
  });
  return { strategies, raw };
}

/**
 * Live params (issue 30): a change is merged into the params in effect, parsed by the
 * strategy's own schema, put in effect between two snapshots with the strategy's state kept,
 * and journaled with who, when, the old and the new params. A change the schema refuses, or
 * the strategy's `onParams` refuses, changes nothing and is not journaled.
 */
export class LiveParams {
  readonly #strategies: ReadonlyMap<string, PreparedStrategy>;
  readonly #raw: Map<string, unknown>;
  readonly #store: ParamsAuditStore;
  readonly #target: ParamsTarget;
  readonly #now: () => number;
  readonly #log: Logger;
  #audit: ParamsChangeRecord[];
  /** Changes are applied one at a time, in the order they came. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: {
    readonly strategies: readonly PreparedStrategy[];
    /** Each strategy's raw params in effect (`restoreLiveParams`). */
    readonly raw: ReadonlyMap<string, unknown>;
    readonly store: ParamsAuditStore;
    readonly target: ParamsTarget;
    readonly now: () => number;
    readonly log: Logger;
  }) {
    this.#strategies = new Map(options.strategies.map((entry) => [entry.name, entry]));
    this.#raw = new Map(options.raw);
    this.#store = options.store;
    this.#target = options.target;
    this.#now = options.now;
    this.#log = options.log;
    this.#audit = readParamsAudit(options.store);
  }

  /** Every change, oldest first (of one strategy when named). */
  audit(strategy?: string): ParamsChangeRecord[] {
    return strategy === undefined
      ? this.#audit.slice()
      : this.#audit.filter((change) => change.strategy === strategy);
  }

  /** Each strategy's params in effect (parsed), by name. */
  current(): Record<string, unknown> {
    return Object.fromEntries(
      [...this.#strategies.keys()].map((name) => [name, this.#target.paramsOf(name)]),
    );
  }

  /**
   * Changes some params of a strategy. A value given as text that the schema refuses is tried
   * once more as the JSON it reads as (`window=30` from a form or the command line is the
   * number 30 where the schema wants a number; `amount=0.01` stays text where it wants text).
   */
  change(name: string, changes: Record<string, unknown>, by: string): Promise<ParamsOutcome> {
    const next = this.#queue.then(() => this.#change(name, changes, by));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #change(
    name: string,
    changes: Record<string, unknown>,
    by: string,
  ): Promise<ParamsOutcome> {
    const entry = this.#strategies.get(name);
    if (entry === undefined)
      return { ok: false, why: 'unknown', error: `no strategy named ${name}`, details: [] };
    const previous = this.#raw.get(name);
    const merged = { ...asObject(previous), ...changes };
    const candidate = retypeTextValues(entry, merged, changes);
    let parsed: unknown;
    try {
      parsed = parseStrategyParams(entry.strategy, name, candidate);
    } catch (error) {
      if (!isQuantaError(error)) throw error;
      return { ok: false, why: 'invalid', error: error.shortMessage, details: error.details };
    }
    const before = this.#target.paramsOf(name);
    try {
      await this.#target.setParams(name, parsed);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, why: 'refused', error: message, details: [] };
    }
    const change: ParamsChangeRecord = {
      seq: (this.#audit.at(-1)?.seq ?? 0) + 1,
      strategy: name,
      at: new Date(this.#now()).toISOString(),
      by,
      previous: previous ?? null,
      params: candidate,
    };
    try {
      this.#store.set(String(change.seq).padStart(10, '0'), JSON.stringify(change));
    } catch (error) {
      return this.#unsaved(name, before, error);
    }
    this.#audit.push(change);
    this.#raw.set(name, candidate);
    this.#log.info(
      { strategy: name, previous: change.previous, params: candidate, by },
      `strategy ${name}: params changed by ${by}`,
    );
    return { ok: true, change, params: parsed };
  }

  /**
   * A change the journal could not keep (a full disk): the params in effect before it are put
   * back, so the bot never runs on params that a restart, the audit and the next change would
   * not know of.
   */
  async #unsaved(name: string, before: unknown, error: unknown): Promise<ParamsOutcome> {
    const cause = error instanceof Error ? error.message : String(error);
    let restored = true;
    try {
      await this.#target.setParams(name, before);
    } catch {
      restored = false;
    }
    const outcome = restored
      ? 'the previous params are back in effect'
      : 'and putting the previous params back failed: the strategy runs on params the journal does not hold until the next change or a restart';
    this.#log[restored ? 'warn' : 'error'](
      { strategy: name, err: cause },
      `strategy ${name}: params change not journaled (${cause}); ${outcome}`,
    );
    return {
      ok: false,
      why: 'unsaved',
      error: `the change could not be written to the journal (${cause}); ${outcome}`,
      details: [],
    };
  }
}

/**
 * `merged` with each changed value that is text, and that the schema refuses as text, replaced
 * by the JSON it reads as (a number, true/false, null, a list or an object).
 */
function retypeTextValues(
  entry: PreparedStrategy,
  merged: Record<string, unknown>,
  changes: Record<string, unknown>,
): Record<string, unknown> {
  const schema = entry.strategy.params;
  if (schema === undefined) return merged;
  const result = schema.safeParse(merged);
  if (result.success) return merged;
  const refused = new Set(result.error.issues.map((issue) => String(issue.path[0])));
  const retyped = { ...merged };
  for (const [key, value] of Object.entries(changes)) {
    if (typeof value !== 'string' || !refused.has(key)) continue;
    try {
      retyped[key] = JSON.parse(value) as unknown;
    } catch {
      // Not JSON either: the schema's message about the text stands.
    }
  }
  return retyped;
}

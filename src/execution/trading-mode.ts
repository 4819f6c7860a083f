import { readFileSync } from 'node:fs';
import type { Logger } from '../log/logger.ts';

/**
 * How far a bot trades, least to most restrictive:
 * - `trading`: every intent goes through the checks;
 * - `halt-entries`: only reduce-only intents pass;
 * - `flatten`: like `halt-entries`, and the bot itself sends reduce-only MARKET orders that
 *   close every position (within the risk checks), then turns to `halt`;
 * - `halt`: nothing is sent.
 */
export const TRADING_MODES = ['trading', 'halt-entries', 'flatten', 'halt'] as const;
export type TradingMode = (typeof TRADING_MODES)[number];

/** The modes an operator can command (`POST /halt`, the kill-switch file's content). */
export const HALT_MODES = ['halt', 'halt-entries', 'flatten'] as const;
export type HaltMode = (typeof HALT_MODES)[number];

/** The journal key-value scope where the commanded trading mode is kept across restarts. */
export const MODE_SCOPE = 'quanta:mode';

/** Who set a mode. */
export type ModeSource = 'start' | 'control' | 'signal' | 'kill-switch-file' | 'flatten-done';

/** One mode change: logged once and told to listeners (alerts), never once per refused intent. */
export interface ModeChange {
  readonly from: TradingMode;
  readonly to: TradingMode;
  readonly source: ModeSource;
  readonly at: number;
}

const rank = (mode: TradingMode): number => TRADING_MODES.indexOf(mode);

/** The more restrictive of two modes. */
export function stricterMode(a: TradingMode, b: TradingMode): TradingMode {
  return rank(a) >= rank(b) ? a : b;
}

/**
 * The mode in effect: the commanded one, or the kill-switch file's where that is stricter. The
 * one rule for the bot (TradingModes) and for what `quanta status` reads from its state dir.
 */
export function effectiveMode(commanded: TradingMode, fileMode: HaltMode | undefined): TradingMode {
  return fileMode === undefined ? commanded : stricterMode(commanded, fileMode);
}

/** Whether `value` names a mode an operator may command. */
export function isHaltMode(value: unknown): value is HaltMode {
  return typeof value === 'string' && (HALT_MODES as readonly string[]).includes(value);
}

/**
 * What the kill-switch file asks for: nothing while it is absent; its content names the mode
 * (`halt`, `halt-entries`, `flatten`); an empty file is `halt` (what the file always meant),
 * and so is anything unreadable or unknown (fail closed).
 */
export function readKillSwitchFile(path: string): { mode: HaltMode; known: boolean } | undefined {
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { mode: 'halt', known: false };
  }
  const word = content.trim().toLowerCase();
  if (word === '') return { mode: 'halt', known: true };
  return isHaltMode(word) ? { mode: word, known: true } : { mode: 'halt', known: false };
}

/** Options of {@link TradingModes}. */
export interface TradingModesOptions {
  readonly now: () => number;
  readonly log: Logger;
  /** `risk.killSwitchFile`, read whenever the mode is asked for. */
  readonly killSwitchFile?: string | undefined;
  /**
   * Where the commanded mode survives a restart (the journal's key-value store): a bot halted
   * by its operator stays halted when it is restarted, until it is told to resume.
   */
  readonly store?: { get(key: string): string | undefined; set(key: string, value: string): void };
}

/**
 * The bot's trading mode: the mode commanded (control server, SIGUSR2, the end of a flatten)
 * combined with the kill-switch file's (the stricter wins while the file exists). Every change
 * is one log line and one event.
 */
export class TradingModes {
  readonly #options: TradingModesOptions;
  readonly #listeners = new Set<(change: ModeChange) => void>();
  #commanded: TradingMode = 'trading';
  #effective: TradingMode = 'trading';
  #warnedUnknownFile = false;

  constructor(options: TradingModesOptions) {
    this.#options = options;
    const stored = options.store?.get('mode');
    if (stored !== undefined && isHaltMode(stored)) {
      this.#commanded = stored;
      this.#changed(stored, 'start');
    }
  }

  /** The mode in effect now (reads the kill-switch file). */
  get mode(): TradingMode {
    const effective = effectiveMode(this.#commanded, this.fileMode());
    // Outside set(), only the file changes the mode.
    this.#changed(effective, 'kill-switch-file');
    return effective;
  }

  /** The mode the kill-switch file names, or undefined while there is no file. */
  fileMode(): HaltMode | undefined {
    const path = this.#options.killSwitchFile;
    if (path === undefined) return undefined;
    const read = readKillSwitchFile(path);
    if (read === undefined) return undefined;
    if (!read.known && !this.#warnedUnknownFile) {
      this.#warnedUnknownFile = true;
      this.#options.log.warn(
        { file: path },
        'kill-switch file names no mode (halt, halt-entries, flatten) or cannot be read: halt',
      );
    }
    return read.mode;
  }

  /** Commands a mode (`trading` resumes). Returns the mode now in effect. */
  set(mode: TradingMode, source: ModeSource): TradingMode {
    this.#commanded = mode;
    this.#options.store?.set('mode', mode);
    const effective = effectiveMode(mode, this.fileMode());
    this.#changed(effective, source);
    return effective;
  }

  /** Told about every change of the mode in effect. */
  onChange(listener: (change: ModeChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(to: TradingMode, source: ModeSource): void {
    const from = this.#effective;
    if (to === from) return;
    this.#effective = to;
    const change: ModeChange = { from, to, source, at: this.#options.now() };
    this.#options.log.warn(
      { mode: to, previous: from, source },
      `trading mode ${from} → ${to} (${source})`,
    );
    for (const listener of this.#listeners) listener(change);
  }
}

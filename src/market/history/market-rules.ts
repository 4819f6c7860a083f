/**
 * A market's trading rules for imported history, from a small YAML or JSON file (JSON is
 * YAML): what the backtest's simulation needs to trade it exactly as the venue would (the
 * price and amount grids from the quantum exponents, the minimum amount, the fees, the maximum
 * position value). docs/recording-format.md ("Importing history") shows a file.
 */
import { readFile } from 'node:fs/promises';
import { isScalar, parseDocument } from 'yaml';
import type { Market } from '../../domain/index.ts';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import { parseDecimalToX18, quantumX18 } from '../../money/index.ts';

/** The rules file's fields: decimals as strings (or plain numbers, read as written). */
const FIELDS = {
  symbol: 'the venue symbol, like ETH-USD (required)',
  id: 'the market id in the recording (default 1)',
  type: 'PERPETUAL or SPOT (default PERPETUAL)',
  baseAsset: 'default: the symbol before "-"',
  quoteAsset: 'default: the symbol after "-"',
  amountExpo: 'amount step 10^-amountExpo (required)',
  priceExpo: 'price tick 10^-priceExpo (required)',
  minAmount: 'smallest order amount, a decimal (required)',
  maxPositionValue: 'largest position value, a decimal (required)',
  makerFee: 'maker fee as a fraction, like 0.0002 (required)',
  takerFee: 'taker fee as a fraction, like 0.0005 (required)',
  initialMargin: 'initial margin fraction (default 0.05)',
  maintenanceMargin: 'maintenance margin fraction (default 0.02)',
  sourceSymbol:
    "the symbol the files' symbol column holds, like ETHUSDT (default: the first row's)",
  listedAt: 'ISO 8601 listing time (default 1970-01-01T00:00:00Z)',
} as const;

/** A market for imported history, and the symbol its source files name it by (if known). */
export interface MarketRules {
  readonly market: Market;
  /** The symbol column's expected value; undefined: the first row's value is taken. */
  readonly sourceSymbol: string | undefined;
}

function invalid(file: string, key: string, rule: string, got: unknown): QuantaError {
  return new QuantaError(
    ErrorCodes.HISTORY_INVALID,
    `${file} ${key}: expected ${rule}, got ${JSON.stringify(got) ?? String(got)}`,
  );
}

/** A rules document's top-level mapping, and the source text of each number in it. */
interface RulesDocument {
  readonly raw: Readonly<Record<string, unknown>>;
  /** Numbers are read from their source text: `makerFee: 0.0002` is that decimal, not a float. */
  readonly written: ReadonlyMap<string, string>;
}

/**
 * Parses the YAML (or JSON) text into a mapping of known keys.
 *
 * @throws QuantaError `QUANTA_HISTORY_INVALID` for text that is neither, a document that is not a
 *   mapping, or an unknown key.
 */
function readRulesDocument(text: string, file: string): RulesDocument {
  let document: unknown;
  const written = new Map<string, string>();
  try {
    const parsed = parseDocument(text);
    const firstError = parsed.errors[0];
    if (firstError !== undefined) throw firstError;
    document = parsed.toJS();
    const contents = parsed.contents;
    if (contents !== null && 'items' in contents)
      for (const item of contents.items as { key: unknown; value: unknown }[])
        if (isScalar(item.key) && isScalar(item.value) && typeof item.value.value === 'number') {
          const range = item.value.range;
          if (range !== undefined && range !== null)
            written.set(String(item.key.value), text.slice(range[0], range[1]));
        }
  } catch (error) {
    throw new QuantaError(
      ErrorCodes.HISTORY_INVALID,
      `${file}: not YAML or JSON (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
      { cause: error },
    );
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw invalid(file, '(top)', 'a mapping of market rules (symbol, priceExpo, …)', document);
  const raw = document as Record<string, unknown>;
  for (const key of Object.keys(raw))
    if (!(key in FIELDS))
      throw new QuantaError(
        ErrorCodes.HISTORY_INVALID,
        `${file} ${key}: unknown key (known: ${Object.keys(FIELDS).join(', ')})`,
      );
  return { raw, written };
}

/** Reads one field of a rules document each, or throws naming the file, the key and its rule. */
class RulesFields {
  readonly #raw: Readonly<Record<string, unknown>>;
  readonly #written: ReadonlyMap<string, string>;
  readonly #file: string;

  constructor({ raw, written }: RulesDocument, file: string) {
    this.#raw = raw;
    this.#written = written;
    this.#file = file;
  }

  has(key: keyof typeof FIELDS): boolean {
    return this.#raw[key] !== undefined;
  }

  /** A non-empty string without white space. */
  word(key: keyof typeof FIELDS, fallback?: string): string {
    const value = this.#raw[key] ?? fallback;
    if (typeof value !== 'string' || value.trim() === '' || /\s/.test(value))
      throw invalid(this.#file, key, `a word (${FIELDS[key]})`, value);
    return value;
  }

  integer(key: keyof typeof FIELDS, fallback?: number): number {
    const value = this.#raw[key] ?? fallback;
    if (typeof value !== 'number' || !Number.isSafeInteger(value))
      throw invalid(this.#file, key, `an integer (${FIELDS[key]})`, value);
    return value;
  }

  /** A plain decimal ≥ 0, exact from its source text, as x18. */
  decimal(key: keyof typeof FIELDS, fallback?: string): bigint {
    const value = this.#raw[key] ?? fallback;
    const source = typeof value === 'number' ? this.#written.get(key) : value;
    if (typeof source !== 'string')
      throw invalid(this.#file, key, `a decimal (${FIELDS[key]})`, value);
    try {
      return parseDecimalToX18(source, key);
    } catch {
      throw invalid(this.#file, key, `a plain decimal ≥ 0 (${FIELDS[key]})`, source);
    }
  }

  /** A quantum exponent: an integer the money grid accepts. */
  expo(key: 'amountExpo' | 'priceExpo'): number {
    const value = this.integer(key);
    try {
      quantumX18(value);
    } catch {
      throw invalid(this.#file, key, 'an integer between -18 and 18', value);
    }
    return value;
  }

  /** `type`: PERPETUAL (the default) or SPOT. */
  marketType(): Market['type'] {
    const type = this.#raw['type'] ?? 'PERPETUAL';
    if (type !== 'PERPETUAL' && type !== 'SPOT')
      throw invalid(this.#file, 'type', 'PERPETUAL or SPOT', type);
    return type;
  }

  /** `id`: a positive integer, 1 by default. */
  marketId(): number {
    const id = this.integer('id', 1);
    if (id <= 0) throw invalid(this.#file, 'id', 'a positive integer', id);
    return id;
  }

  /** `listedAt`: an ISO 8601 time, the epoch by default. */
  listedAt(): string {
    const listedAt = this.word('listedAt', '1970-01-01T00:00:00Z');
    if (!Number.isFinite(Date.parse(listedAt)))
      throw invalid(this.#file, 'listedAt', 'an ISO 8601 time', listedAt);
    return listedAt;
  }
}

/**
 * Parses a market rules document (already read) into a `Market`.
 *
 * @throws QuantaError `QUANTA_HISTORY_INVALID` naming the file and the key for an unknown key,
 *   a missing one or a value that breaks its rule.
 */
export function parseMarketRules(text: string, file: string): MarketRules {
  const fields = new RulesFields(readRulesDocument(text, file), file);
  // Checked in this order, so the first broken field named is always the same.
  const symbol = fields.word('symbol');
  const [base, quote] = symbol.split('-');
  const type = fields.marketType();
  const id = fields.marketId();
  const listedAt = fields.listedAt();
  const market: Market = {
    id,
    symbol,
    type,
    baseAsset: fields.word('baseAsset', base),
    quoteAsset: fields.word('quoteAsset', quote),
    amountExpo: fields.expo('amountExpo'),
    priceExpo: fields.expo('priceExpo'),
    minAmountX18: fields.decimal('minAmount'),
    maxPositionValueX18: fields.decimal('maxPositionValue'),
    makerFeeX18: fields.decimal('makerFee'),
    takerFeeX18: fields.decimal('takerFee'),
    initialMarginX18: fields.decimal('initialMargin', '0.05'),
    maintenanceMarginX18: fields.decimal('maintenanceMargin', '0.02'),
    isActive: true,
    createdAt: listedAt,
    updatedAt: listedAt,
    deletedAt: null,
  };
  const sourceSymbol = fields.has('sourceSymbol') ? fields.word('sourceSymbol') : undefined;
  return { market, sourceSymbol };
}

/**
 * Reads a market rules file (`.yaml`, `.yml` or `.json`).
 *
 * @throws QuantaError `QUANTA_HISTORY_INVALID` for a missing file or bad rules (see
 *   {@link parseMarketRules}).
 */
export async function readMarketRules(file: string): Promise<MarketRules> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new QuantaError(ErrorCodes.HISTORY_INVALID, `${file}: cannot read the market rules`, {
      cause: error,
    });
  }
  return parseMarketRules(text, file);
}

import type { Config } from '../config/index.ts';
import type { Market, Quote, QuoteLevel } from '../domain/index.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { X18_SCALE, formatX18, parseDecimalToX18 } from '../money/index.ts';
import { RatioDecimal } from './ratio-decimal.ts';

/**
 * How a backtest fills orders. Printed in every report and summary, so a result always says
 * what it assumed. Decimal strings where a figure may have a fraction.
 */
export interface FillModel {
  /**
   * An order meets the book of the first snapshot taken at or after send time + `latencyMs`;
   * `null` (the default) means one snapshot later. Only an explicit 0 lets an order fill at the
   * snapshot that produced it.
   */
  readonly latencyMs: number | null;
  /** Extra slippage in basis points: asks are met this much higher, bids this much lower. */
  readonly slippageBps: string;
  /** Maker fee in basis points replacing every market's own; null keeps the market's. */
  readonly makerFeeBps: string | null;
  /** Taker fee in basis points replacing every market's own; null keeps the market's. */
  readonly takerFeeBps: string | null;
  /** Equity before the first snapshot, quote units. */
  readonly startingCapital: string;
}

/** CLI flags that replace the config's `backtest:` values (strings as typed). */
export interface FillModelOverrides {
  readonly latencyMs?: string | undefined;
  readonly slippageBps?: string | undefined;
  readonly makerFeeBps?: string | undefined;
  readonly takerFeeBps?: string | undefined;
  readonly startingCapital?: string | undefined;
}

/** The default model: next snapshot, no slippage, the markets' fees, 100000 capital. */
export const DEFAULT_FILL_MODEL: FillModel = {
  latencyMs: null,
  slippageBps: '0',
  makerFeeBps: null,
  takerFeeBps: null,
  startingCapital: '100000',
};

const BPS_PER_ONE = 10_000n;

/** The name a value is refused under: the flag the user typed, or its config key path. */
type NameOf = (key: keyof FillModelOverrides) => string;

function invalid(what: string, expected: string, got: string): QuantaError {
  return new QuantaError(
    ErrorCodes.BACKTEST_INVALID_OPTION,
    `${what}: expected ${expected}, got ${JSON.stringify(got)}`,
  );
}

/** A config number (already checked ≥ 0) as a plain decimal string. */
function numberText(value: number): string {
  return new RatioDecimal(value).toFixed();
}

function checkedBps(what: string, text: string, max?: bigint): string {
  let x18: bigint;
  try {
    x18 = parseDecimalToX18(text, what);
  } catch {
    throw invalid(what, 'a plain decimal number of basis points ≥ 0, like 2.5', text);
  }
  if (max !== undefined && x18 >= max * X18_SCALE)
    throw invalid(what, `less than ${max} basis points`, text);
  return formatX18(x18);
}

function checkedLatency(what: string, text: string): number {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
    throw invalid(what, 'an integer ≥ 0 (milliseconds)', text);
  return Number(text);
}

function checkedCapital(what: string, text: string): string {
  let x18: bigint;
  try {
    x18 = parseDecimalToX18(text, what);
  } catch {
    throw invalid(what, 'a plain decimal above 0, like 100000', text);
  }
  if (x18 <= 0n) throw invalid(what, 'a plain decimal above 0, like 100000', text);
  return formatX18(x18);
}

/**
 * The fill model of a run: the config's `backtest:` section, each value replaced by the CLI flag
 * given for it.
 *
 * @param flagNames - what each override is called where the user typed it (`--latency-ms`), so a
 *   refusal names that; a value from the config is named by its key path (`backtest.latencyMs`),
 *   an override without a flag name by its field name.
 * @throws QuantaError `QUANTA_BACKTEST_INVALID_OPTION` for a malformed value, naming it.
 */
export function resolveFillModel(
  section: Partial<Config['backtest']> | undefined,
  overrides: FillModelOverrides = {},
  flagNames: Partial<Record<keyof FillModelOverrides, string>> = {},
): FillModel {
  const nameOf: NameOf = (key) =>
    overrides[key] === undefined ? `backtest.${key}` : (flagNames[key] ?? key);
  const fromConfig = (value: number | undefined): string | undefined =>
    value === undefined ? undefined : numberText(value);
  const latency = overrides.latencyMs ?? fromConfig(section?.latencyMs);
  const slippage = overrides.slippageBps ?? fromConfig(section?.slippageBps) ?? '0';
  const maker = overrides.makerFeeBps ?? fromConfig(section?.makerFeeBps);
  const taker = overrides.takerFeeBps ?? fromConfig(section?.takerFeeBps);
  const capital =
    overrides.startingCapital ?? section?.startingCapital ?? DEFAULT_FILL_MODEL.startingCapital;
  return {
    latencyMs: latency === undefined ? null : checkedLatency(nameOf('latencyMs'), latency),
    slippageBps: checkedBps(nameOf('slippageBps'), slippage, BPS_PER_ONE),
    makerFeeBps: maker === undefined ? null : checkedBps(nameOf('makerFeeBps'), maker, BPS_PER_ONE),
    takerFeeBps: taker === undefined ? null : checkedBps(nameOf('takerFeeBps'), taker, BPS_PER_ONE),
    startingCapital: checkedCapital(nameOf('startingCapital'), capital),
  };
}

/**
 * One line a person reads: what the run assumed about fills. `latency` replaces the model's
 * latency clause when the run used other latencies (`quanta compare`: the live run's own).
 */
export function describeFillModel(model: FillModel, latency?: string): string {
  latency ??=
    model.latencyMs === null
      ? 'latency: one snapshot later'
      : model.latencyMs === 0
        ? 'latency: 0 ms (fills at the snapshot that produced the order)'
        : `latency: ${model.latencyMs} ms (first snapshot at or after send + latency)`;
  const fees =
    model.makerFeeBps === null && model.takerFeeBps === null
      ? "fees: the markets' own"
      : `fees: maker ${model.makerFeeBps ?? "market's"}${model.makerFeeBps === null ? '' : ' bps'}, taker ${model.takerFeeBps ?? "market's"}${model.takerFeeBps === null ? '' : ' bps'}`;
  return `${latency}; depth walked level by level (MARKET rest cancelled); slippage ${model.slippageBps} bps; ${fees}; starting capital ${model.startingCapital}`;
}

/** A fraction x18 (what `Market` fee fields hold) of a basis-point decimal string, floored. */
export function bpsToFractionX18(bps: string): bigint {
  return parseDecimalToX18(bps, 'bps') / BPS_PER_ONE;
}

/** Whether the model changes any market's fees. */
export function overridesFees(model: FillModel): boolean {
  return model.makerFeeBps !== null || model.takerFeeBps !== null;
}

/** The market with the model's fees in place of its own (the same object when none are set). */
export function withModelFees(market: Market, model: FillModel): Market {
  if (!overridesFees(model)) return market;
  return {
    ...market,
    ...(model.makerFeeBps === null ? {} : { makerFeeX18: bpsToFractionX18(model.makerFeeBps) }),
    ...(model.takerFeeBps === null ? {} : { takerFeeX18: bpsToFractionX18(model.takerFeeBps) }),
  };
}

function slipLevels(levels: readonly QuoteLevel[], factorX18: bigint, up: boolean): QuoteLevel[] {
  const denominator = BPS_PER_ONE * X18_SCALE;
  return levels.map((level) => {
    const product = parseDecimalToX18(level.price, 'quote price') * factorX18;
    // Always against the order: asks rounded up, bids rounded down.
    const priceX18 = up ? (product + denominator - 1n) / denominator : product / denominator;
    return { price: formatX18(priceX18), quantity: level.quantity };
  });
}

/**
 * `slippedQuote` for every quote of a replay, each computed only when its levels are read: what
 * the backtest hands the engine at every snapshot, most of which no order ever meets. Gives the
 * quote itself when slippage is 0.
 */
export function lazySlipper(model: FillModel): (quote: Quote) => Quote {
  const bpsX18 = parseDecimalToX18(model.slippageBps, 'slippageBps');
  if (bpsX18 === 0n) return (quote) => quote;
  const one = BPS_PER_ONE * X18_SCALE;
  return (quote) => new SlippedQuote(quote, one - bpsX18, one + bpsX18);
}

/** A quote whose levels are slipped when first read (a class: V8 builds it fast). */
class SlippedQuote implements Quote {
  readonly marketId: number;
  readonly timestamp: number;
  readonly #quote: Quote;
  readonly #bidFactorX18: bigint;
  readonly #askFactorX18: bigint;
  #bids: QuoteLevel[] | undefined;
  #asks: QuoteLevel[] | undefined;

  constructor(quote: Quote, bidFactorX18: bigint, askFactorX18: bigint) {
    this.marketId = quote.marketId;
    this.timestamp = quote.timestamp;
    this.#quote = quote;
    this.#bidFactorX18 = bidFactorX18;
    this.#askFactorX18 = askFactorX18;
  }

  get bids(): QuoteLevel[] {
    return (this.#bids ??= slipLevels(this.#quote.bids, this.#bidFactorX18, false));
  }

  get asks(): QuoteLevel[] {
    return (this.#asks ??= slipLevels(this.#quote.asks, this.#askFactorX18, true));
  }
}

/**
 * The quote as the model's orders meet it: every ask `slippageBps` higher (rounded up), every
 * bid that much lower (rounded down), quantities unchanged. The same quote when slippage is 0.
 */
export function slippedQuote(quote: Quote, model: FillModel): Quote {
  const bpsX18 = parseDecimalToX18(model.slippageBps, 'slippageBps');
  if (bpsX18 === 0n) return quote;
  const one = BPS_PER_ONE * X18_SCALE;
  return {
    ...quote,
    asks: slipLevels(quote.asks, one + bpsX18, true),
    bids: slipLevels(quote.bids, one - bpsX18, false),
  };
}

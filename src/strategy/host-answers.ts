/** What a strategy host makes of its hooks' answers: pure helpers of strategy-host.ts. */
import type { OrderIntent } from '../domain/index.ts';
import { checkOrderIntentFast, orderIntentSchema } from '../domain/intent-schema.ts';

/**
 * Appends a hook's intents to `out` (returned, for chaining). `onBar` may return nothing;
 * anything else that is not an array is the hook's failure.
 */
export function gather(out: unknown[], returned: unknown, hook: 'onBar' | 'onSnapshot'): unknown[] {
  if (Array.isArray(returned)) {
    for (const candidate of returned) out.push(candidate);
    return out;
  }
  if (returned === undefined && hook === 'onBar') return out;
  throw new TypeError(`${hook} must return an array of intents, got ${typeof returned}`);
}

/**
 * The valid intents among what the hooks returned; each other value is told to `invalid` with
 * what is wrong with it (its first problem, by path).
 *
 * @throws TypeError when `returned` is not an array.
 */
export function validIntents(
  returned: unknown,
  invalid: (detail: string, candidate: unknown) => void,
): OrderIntent[] {
  if (!Array.isArray(returned)) {
    throw new TypeError(`onSnapshot must return an array of intents, got ${typeof returned}`);
  }
  if (returned.length === 0) return [];
  const intents: OrderIntent[] = [];
  for (const candidate of returned) {
    const fast = checkOrderIntentFast(candidate);
    if (fast !== undefined) {
      intents.push(fast);
      continue;
    }
    const parsed = orderIntentSchema.safeParse(candidate);
    if (parsed.success) {
      intents.push(parsed.data as OrderIntent);
      continue;
    }
    const issue = parsed.error.issues[0];
    const path = issue?.path.join('.') ?? '';
    invalid(
      `not a valid OrderIntent: ${path === '' ? '' : `${path}: `}${issue?.message ?? 'invalid'}`,
      candidate,
    );
  }
  return intents;
}

/** An indicator set as one line (`fast=1m ema(9), slow=1m ema(21)`), to compare two. */
export function describeIndicators(
  set: Readonly<Record<string, { timeframe: string; label: string }>>,
): string {
  return Object.entries(set)
    .map(([key, spec]) => `${key}=${spec.timeframe} ${spec.label}`)
    .join(', ');
}

/** The symbol of the market an intent names, when it names one (for a refusal's detail). */
export function marketOf(candidate: unknown, symbolOf: (id: number) => string): string | undefined {
  const marketId = (candidate as { marketId?: unknown } | null)?.marketId;
  return typeof marketId === 'number' ? symbolOf(marketId) : undefined;
}

export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

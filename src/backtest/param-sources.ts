/** One param of a strategy instance as the run used it, and where its value came from. */
export interface ParamUse {
  readonly name: string;
  /** The value after the strategy's schema parsed it (JSON data: a bigint as its digits). */
  readonly value: unknown;
  /** `config`: written in the config's `params`; `default`: the strategy's schema supplied it. */
  readonly source: 'config' | 'default';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A parsed value as JSON data: bigints as decimal digits, what JSON cannot hold as null. */
function jsonValue(value: unknown): unknown {
  const text = JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'bigint' ? v.toString() : v,
  ) as string | undefined;
  return text === undefined ? null : (JSON.parse(text) as unknown);
}

/**
 * Each param the strategy ran with (the keys of its parsed params, in the schema's order) and
 * whether the config gave it or the strategy's default did: a param the config leaves out is
 * the default (the report shows it, so a run that silently took a default says so). Params
 * that are not an object (a strategy without a schema) are listed as configured, if an object.
 *
 * @param configured - the instance's `params` as written in the config.
 * @param parsed - the same after the strategy's `params` schema (defaults applied).
 */
export function paramUses(configured: unknown, parsed: unknown): ParamUse[] {
  const given = isRecord(configured) ? configured : {};
  const used = isRecord(parsed) ? parsed : given;
  return Object.keys(used).map((name) => ({
    name,
    value: jsonValue(used[name]),
    source: Object.hasOwn(given, name) ? 'config' : 'default',
  }));
}

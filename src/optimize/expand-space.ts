import { createHash } from 'node:crypto';
import { Decimal } from 'decimal.js';
import type { ParamSpec, SweepSpace } from './space.ts';

/** One parameter set of a sweep: the searched params only, and a stable id. */
export interface ParamSet {
  /** 16 hex digits of the SHA-256 of the params in canonical JSON: stable across runs. */
  readonly id: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** JSON with object keys sorted at every level: one text per value. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function paramSetOf(params: Readonly<Record<string, unknown>>): ParamSet {
  const id = createHash('sha256').update(canonicalJson(params)).digest('hex').slice(0, 16);
  return { id, params };
}

/** The values a grid spec stands for. */
function gridValues(spec: ParamSpec): readonly unknown[] {
  if (spec.kind === 'values' || spec.kind === 'choice') return spec.values;
  if (spec.kind === 'range') {
    const values: unknown[] = [];
    const to = new Decimal(spec.to);
    const step = new Decimal(spec.step);
    for (let v = new Decimal(spec.from); v.lte(to); v = v.plus(step))
      values.push(spec.asString ? v.toFixed() : v.toNumber());
    return values;
  }
  throw new Error(`not a grid spec: ${spec.kind}`);
}

/** mulberry32: a small, fast, seeded generator; the same seed gives the same sequence. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Six significant digits: random values that print short and parse back to themselves. */
function round6(value: number): number {
  return Number(value.toPrecision(6));
}

/**
 * The parameter sets of a space, in a fixed order. A grid (only `values` and ranges) is the
 * cartesian product, the last param varying fastest. With any distribution it is a random search:
 * `samples` draws from a generator seeded by `seed` (grid params are drawn from their values),
 * duplicates dropped. The same space gives the same sets in the same order.
 */
export function expandSpace(space: Pick<SweepSpace, 'params' | 'samples' | 'seed'>): ParamSet[] {
  const names = [...space.params.keys()];
  const specs = [...space.params.values()];
  const random = specs.some((s) => s.kind !== 'values' && s.kind !== 'range');
  const sets: ParamSet[] = [];
  const seen = new Set<string>();
  const add = (params: Record<string, unknown>): void => {
    const set = paramSetOf(params);
    if (seen.has(set.id)) return;
    seen.add(set.id);
    sets.push(set);
  };
  if (!random) {
    const grids = specs.map(gridValues);
    const total = grids.reduce((n, g) => n * g.length, 1);
    for (let i = 0; i < total; i++) {
      const params: Record<string, unknown> = {};
      let rest = i;
      for (let p = names.length - 1; p >= 0; p--) {
        const grid = grids[p]!;
        params[names[p]!] = grid[rest % grid.length];
        rest = Math.floor(rest / grid.length);
      }
      add(Object.fromEntries(names.map((name) => [name, params[name]])));
    }
    return sets;
  }
  const next = generator(space.seed);
  const samples = space.samples ?? 1;
  // Bounded: a space with fewer distinct sets than samples stops once draws keep repeating.
  for (let draw = 0; sets.length < samples && draw < samples * 20; draw++) {
    const params: Record<string, unknown> = {};
    for (const [index, spec] of specs.entries()) {
      const u = next();
      let value: unknown;
      if (spec.kind === 'uniform') value = round6(spec.low + u * (spec.high - spec.low));
      else if (spec.kind === 'loguniform')
        value = round6(
          Math.exp(Math.log(spec.low) + u * (Math.log(spec.high) - Math.log(spec.low))),
        );
      else if (spec.kind === 'int') value = spec.low + Math.floor(u * (spec.high - spec.low + 1));
      else {
        const values = gridValues(spec);
        value = values[Math.floor(u * values.length)];
      }
      params[names[index]!] = value;
    }
    add(params);
  }
  return sets;
}

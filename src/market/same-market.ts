import type { Market } from '../domain/index.ts';

/** True when two market values have the same fields (bigint-aware, shallow). */
export function sameMarket(a: Market, b: Market): boolean {
  for (const key of Object.keys(a) as (keyof Market)[]) if (a[key] !== b[key]) return false;
  return Object.keys(a).length === Object.keys(b).length;
}

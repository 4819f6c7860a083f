/**
 * Keeps `value` under `key` in `map`, first forgetting the oldest entry when the map holds
 * `limit` already: the signing caches (what a private key derives: its account, its address,
 * its order signer; an order domain's separator), a few entries at a time, oldest out first.
 */
export function keepBounded<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
  if (map.size >= limit) {
    const oldest = map.keys().next();
    if (oldest.done !== true) map.delete(oldest.value);
  }
  map.set(key, value);
}

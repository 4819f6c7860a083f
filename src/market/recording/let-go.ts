import type { Snapshot } from '../snapshot.ts';

/**
 * A batch's snapshot `at`, its entry cleared (the batch is its iterator's, see SnapshotBatch):
 * held to the end of their batch, the levels a strategy read lived through a few scavenges, and
 * V8 then made every level in the old generation (allocation-site pretenuring), tripling the GC.
 */
export function letGo(snapshots: readonly Snapshot[], at: number): Snapshot {
  const entries = snapshots as (Snapshot | undefined)[];
  const snapshot = entries[at] as Snapshot;
  entries[at] = undefined;
  return snapshot;
}

/**
 * The task handler of the sweep's worker threads (piscina): runs one parameter set. Each thread
 * decodes a recording once (see `decodedSnapshots`) and keeps it for every set it runs.
 */
import { runSet, type SetOutcome, type SetTask } from './run-set.ts';

export default function runPoolTask(task: SetTask): Promise<SetOutcome> {
  return runSet(task);
}

/**
 * Both halves of a synchronous question from a strategy's worker to the main thread: the main
 * thread posts each answer on a `MessagePort` and counts it in a shared 32-bit cell; the worker,
 * whose `ctx` call must return a value, blocks on that cell until the answer with its question's
 * id is on the port.
 *
 * Why a count and ids, not a 0/1 flag: a wake-up can belong to an earlier question. The main
 * thread's `Atomics.notify` for one answer may run after the worker has already taken that answer
 * (it saw the flag set) and is waiting for the next one; woken with nothing on the port, a worker
 * that trusts the wake-up reads "no answer" and every later question gets the answer before its
 * own. The worker here trusts only the port: it waits until the count moves past what it saw
 * before it looked, takes answers by id and drops any to a question it gave up on.
 */
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

/** The answer to a question: the value, or the message of what the main thread threw. */
export type WorkerAnswer = { readonly id: number } & (
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string }
);

/** The shared cell and the port of one worker's answers. */
export interface AnswerLine {
  /** One 32-bit cell: how many answers the main thread has posted (wraps around). */
  readonly posted: Int32Array;
  /** The main thread's end posts the answers; the worker's end is read with receiveMessageOnPort. */
  readonly port: MessagePort;
}

/**
 * Main thread: posts `answer`, then counts it and wakes the worker. The post comes first, so a
 * worker that sees the count move finds the answer on the port.
 */
export function postAnswer(line: AnswerLine, answer: WorkerAnswer): void {
  line.port.postMessage(answer);
  Atomics.add(line.posted, 0, 1);
  Atomics.notify(line.posted, 0);
}

/**
 * Worker: the answer to question `id`, waiting for it. Answers to earlier questions (ones a
 * previous wait gave up on) are dropped; a wake-up with nothing new on the port waits again.
 *
 * @throws Error when `waitMs` passes in one wait with no answer posted at all.
 */
export function takeAnswer(line: AnswerLine, id: number, waitMs: number): WorkerAnswer {
  for (;;) {
    // Read before looking at the port: an answer posted after the look moves the count, so the
    // wait below returns at once instead of sleeping past it.
    const seen = Atomics.load(line.posted, 0);
    for (;;) {
      const received = receiveMessageOnPort(line.port);
      if (received === undefined) break;
      const answer = received.message as WorkerAnswer;
      if (answer.id === id) return answer;
    }
    if (Atomics.wait(line.posted, 0, seen, waitMs) === 'timed-out') {
      throw new Error(`no answer within ${waitMs} ms`);
    }
  }
}

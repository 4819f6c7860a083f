// A strategy in a worker asks the main thread synchronously (ctx.position, ctx.equity, …). The
// main thread's wake-up for one answer can land while the worker already waits for the next:
// the old worker read "no answer" there, failed that call, and every later question of the run
// got the answer before its own (ctx.entryPrice answered with the equity, and so on). A stand-in
// main thread in a real worker thread makes exactly that late wake-up here, deterministically: it
// wakes the asker only once the asker waits (Atomics.notify counts the waiters it woke).
import { once } from 'node:events';
import { MessageChannel, Worker } from 'node:worker_threads';
import { expect, it } from 'vitest';
import { takeAnswer, type AnswerLine } from '../../../src/strategy/isolate/sync-answers.ts';

// Plain JavaScript, run with `eval`: the main thread's side, misbehaving in time only.
const STAND_IN = `
const { workerData, parentPort } = require('node:worker_threads');
const { posted, port } = workerData;
const count = new Int32Array(posted);
// Question 1: answered and counted, its wake-up held back.
port.postMessage({ id: 1, ok: true, value: 'first' });
Atomics.add(count, 0, 1);
parentPort.postMessage('answered 1');
// The held-back wake-up, once the asker waits for question 2 (twice: a worker that goes back to
// waiting is woken again, with still nothing new).
while (Atomics.notify(count, 0, 1) === 0);
while (Atomics.notify(count, 0, 1) === 0);
// A late answer to question 1 (as if asked again after a give-up), then question 2's.
port.postMessage({ id: 1, ok: true, value: 'stale' });
port.postMessage({ id: 2, ok: true, value: 'second' });
Atomics.add(count, 0, 2);
Atomics.notify(count, 0);
`;

it('a wake-up meant for an earlier answer neither fails nor shifts the next question', async () => {
  const posted = new SharedArrayBuffer(4);
  const { port1, port2 } = new MessageChannel();
  const standIn = new Worker(STAND_IN, {
    eval: true,
    workerData: { posted, port: port2 },
    transferList: [port2],
  });
  try {
    await once(standIn, 'message');
    const line: AnswerLine = { posted: new Int32Array(posted), port: port1 };
    expect(takeAnswer(line, 1, 10_000)).toEqual({ id: 1, ok: true, value: 'first' });
    // Blocks this thread until question 2's answer is on the port (or 10 s pass).
    expect(takeAnswer(line, 2, 10_000)).toEqual({ id: 2, ok: true, value: 'second' });
  } finally {
    port1.close();
    await standIn.terminate();
  }
});

it('an answer that never comes fails the question after the wait, naming it', () => {
  const { port1, port2 } = new MessageChannel();
  const line: AnswerLine = { posted: new Int32Array(new SharedArrayBuffer(4)), port: port1 };
  try {
    expect(() => takeAnswer(line, 1, 20)).toThrow('no answer within 20 ms');
  } finally {
    port1.close();
    port2.close();
  }
});

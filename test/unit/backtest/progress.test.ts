import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../../src/backtest/progress.ts';

/** A stream that keeps every write, and a clock the test moves. */
function harness() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  const clock = { t: 1_000_000 };
  return { chunks, stream, clock, now: () => clock.t };
}

describe('createProgress on a TTY', () => {
  it('redraws one line in place with bar, rate and ETA, then ends it with the elapsed time', () => {
    const { chunks, stream, clock, now } = harness();
    const progress = createProgress({ total: 1000, stream, isTTY: true, now });
    clock.t += 500;
    progress.tick(100);
    clock.t += 500;
    progress.tick(150);
    clock.t += 1500;
    progress.tick(750);
    progress.done();
    expect(chunks).toEqual([
      '\rbacktest [##......................]  10% 100/1000  200/s  ETA 0:05',
      '\rbacktest [######..................]  25% 250/1000  250/s  ETA 0:03',
      '\rbacktest [########################] 100% 1000/1000  400/s  ETA 0:00',
      '\rbacktest [########################] 100% 1000/1000  400/s  done in 0:03',
      '\n',
    ]);
  });

  it('draws at most once per 100 ms of the clock however fast ticks come', () => {
    const { chunks, stream, clock, now } = harness();
    const progress = createProgress({ total: 1000, stream, isTTY: true, now });
    for (let i = 0; i < 1000; i += 1) {
      clock.t += 1;
      progress.tick();
    }
    // Draws at +1, +101, …, +901 ms.
    expect(chunks).toHaveLength(10);
    expect(chunks.every((c) => c.startsWith('\r') && !c.includes('\n'))).toBe(true);
    expect(chunks[9]).toContain(' 90% 901/1000');
  });

  it('pads over a longer previous line and works without a total', () => {
    const { chunks, stream, clock, now } = harness();
    const progress = createProgress({ stream, isTTY: true, now, label: 'replay' });
    clock.t += 60_000;
    progress.tick(123_456);
    clock.t += 61_000;
    progress.tick(4);
    expect(chunks[0]).toBe('\rreplay 123456 snapshots  2058/s  1:00 elapsed');
    expect(chunks[1]).toBe('\rreplay 123460 snapshots  1020/s  2:01 elapsed');
    progress.done();
    expect(chunks[2]).toBe('\rreplay 123460 snapshots  1020/s  done in 2:01');
  });

  it('pads a shorter line with spaces so no tail of the previous one stays on screen', () => {
    const { chunks, stream, clock, now } = harness();
    const progress = createProgress({ stream, isTTY: true, now });
    clock.t += 1000;
    progress.tick(1_000_000);
    clock.t += 99_000;
    progress.tick(1);
    expect(chunks).toEqual([
      '\rbacktest 1000000 snapshots  1000000/s  0:01 elapsed',
      '\rbacktest 1000001 snapshots  10000/s  1:40 elapsed  ',
    ]);
  });
});

describe('createProgress elsewhere (pipes, CI logs)', () => {
  it('writes a plain line at each 10% and a final line, never a carriage return', () => {
    const { chunks, stream, clock, now } = harness();
    const progress = createProgress({ total: 100, stream, isTTY: false, now });
    for (let i = 0; i < 100; i += 1) {
      clock.t += 50;
      progress.tick();
    }
    progress.done();
    expect(chunks.join('')).toMatchInlineSnapshot(`
      "backtest: 10% (10/100 snapshots), 20.0/s, ETA 0:05
      backtest: 20% (20/100 snapshots), 20.0/s, ETA 0:04
      backtest: 30% (30/100 snapshots), 20.0/s, ETA 0:04
      backtest: 40% (40/100 snapshots), 20.0/s, ETA 0:03
      backtest: 50% (50/100 snapshots), 20.0/s, ETA 0:03
      backtest: 60% (60/100 snapshots), 20.0/s, ETA 0:02
      backtest: 70% (70/100 snapshots), 20.0/s, ETA 0:02
      backtest: 80% (80/100 snapshots), 20.0/s, ETA 0:01
      backtest: 90% (90/100 snapshots), 20.0/s, ETA 0:01
      backtest: done, 100 snapshots in 0:05 (20.0/s)
      "
    `);
    expect(chunks.join('')).not.toContain('\r');
  });

  it('writes a line every 10 s of the clock when there is no total, or progress is slow', () => {
    const { chunks, stream, clock, now } = harness();
    const progress = createProgress({ stream, isTTY: false, now });
    for (let i = 0; i < 35; i += 1) {
      clock.t += 1000;
      progress.tick(10);
    }
    progress.done();
    expect(chunks).toEqual([
      'backtest: 100 snapshots, 10.0/s\n',
      'backtest: 200 snapshots, 10.0/s\n',
      'backtest: 300 snapshots, 10.0/s\n',
      'backtest: done, 350 snapshots in 0:35 (10.0/s)\n',
    ]);

    const slow = harness();
    const withTotal = createProgress({
      total: 1000,
      stream: slow.stream,
      isTTY: false,
      now: slow.now,
    });
    slow.clock.t += 10_000;
    withTotal.tick(1);
    expect(slow.chunks).toEqual(['backtest: 0% (1/1000 snapshots), 0.1/s, ETA 2:46:30\n']);
  });

  it('ignores ticks and a second done after done', () => {
    const { chunks, stream, now } = harness();
    const progress = createProgress({ total: 10, stream, isTTY: false, now });
    progress.done();
    progress.tick(10);
    progress.done();
    expect(chunks).toEqual(['backtest: done, 0 snapshots in 0:00 (-/s)\n']);
  });
});

describe('createProgress measured in bytes (one pass over a recording)', () => {
  it('draws the bar, percentage and ETA from the bytes consumed, counting snapshots', () => {
    const { chunks, stream, clock, now } = harness();
    const progress = createProgress({ totalBytes: 4000, stream, isTTY: true, now });
    clock.t += 1000;
    progress.tick(1, 1000);
    clock.t += 1000;
    progress.tick(1, 800); // never backwards
    clock.t += 1000;
    progress.tick(298, 3000);
    progress.done();
    expect(chunks).toEqual([
      '\rbacktest [######..................]  25% 1 snapshots  1.0/s  ETA 0:03',
      '\rbacktest [######..................]  25% 2 snapshots  1.0/s  ETA 0:06',
      '\rbacktest [##################......]  75% 300 snapshots  100/s  ETA 0:01',
      '\rbacktest [##################......]  75% 300 snapshots  100/s  done in 0:03',
      '\n',
    ]);
  });

  it('writes plain lines at each 10% of the bytes', () => {
    const { chunks, stream, clock, now } = harness();
    const progress = createProgress({ totalBytes: 1000, stream, isTTY: false, now });
    for (let i = 1; i <= 20; i += 1) {
      clock.t += 100;
      progress.tick(5, i * 50);
    }
    progress.done();
    expect(chunks.slice(0, 2)).toEqual([
      'backtest: 10% (10 snapshots), 50.0/s, ETA 0:02\n',
      'backtest: 20% (20 snapshots), 50.0/s, ETA 0:02\n',
    ]);
    expect(chunks).toHaveLength(10);
    expect(chunks[9]).toBe('backtest: done, 100 snapshots in 0:02 (50.0/s)\n');
  });

  it('a total in snapshots wins over bytes', () => {
    const { chunks, stream, clock, now } = harness();
    const progress = createProgress({ total: 10, totalBytes: 1000, stream, isTTY: true, now });
    clock.t += 1000;
    progress.tick(5, 900);
    expect(chunks[0]).toContain(' 50% 5/10');
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { recordProgress } from '../../../src/cli/record-command.ts';
import { RecordingWriter } from '../../../src/market/recording/index.ts';
import { createSnapshot } from '../../../src/market/snapshot.ts';
import { testMarket } from '../../helpers/markets.ts';

it('quanta record redraws one progress line on a terminal: snapshots, markets, bytes, elapsed', () => {
  const clock = { now: 1_000 };
  const written: string[] = [];
  const progress = recordProgress(
    { isTTY: true, write: (t: string) => written.push(t) },
    () => clock.now,
  );
  progress.update(1, 3, 1_500);
  clock.now += 50; // too soon to redraw
  progress.update(2, 3, 3_000);
  clock.now = 1_000 + 125_000;
  progress.update(250, 4, 2_345_678);
  progress.done();
  expect(written).toEqual([
    '\r\x1b[2Krecording: 1 snapshots, 3 markets, 0.00 MB, 0:00',
    '\r\x1b[2Krecording: 250 snapshots, 4 markets, 2.35 MB, 2:05',
    '\n',
  ]);
});

it('writes nothing when stderr is not a terminal', () => {
  const written: string[] = [];
  const progress = recordProgress({ isTTY: false, write: (t: string) => written.push(t) }, () => 0);
  progress.update(1, 1, 1);
  progress.done();
  expect(written).toEqual([]);
});

it('the writer counts the bytes of every line it wrote', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'quanta-record-bytes-'));
  try {
    const writer = await RecordingWriter.open({ dir });
    expect(writer.bytesWritten).toBeGreaterThan(0); // the header line
    const before = writer.bytesWritten;
    writer.write(createSnapshot({ seq: 1, takenAt: 1, markets: [testMarket()] }));
    await writer.drained();
    expect(writer.bytesWritten).toBeGreaterThan(before);
    await writer.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

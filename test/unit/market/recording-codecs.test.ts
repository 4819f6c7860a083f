// One codec per recording format version (issue 26), chosen from the header: each version's
// file is read by its own codec, with that version's features and nothing of a later one's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordingDecoder, RecordingWriter } from '../../../src/market/recording/index.ts';
import { RECORDING_VERSIONS } from '../../../src/market/recording/recording-format.ts';
import { createSnapshot, type Snapshot } from '../../../src/market/snapshot.ts';
import { testMarket } from '../../helpers/markets.ts';
import { RECORDING_T0 } from '../../helpers/recordings.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const tempDir = tempDirs('quanta-recording-codecs-');
const eth = testMarket({ id: 1, priceExpo: 2 });

function snapshots(count: number): Snapshot[] {
  return Array.from({ length: count }, (_, i) =>
    createSnapshot({
      seq: i + 1,
      takenAt: RECORDING_T0 + i * 1000,
      markets: [eth],
      quotes: [
        {
          marketId: 1,
          timestamp: RECORDING_T0 + i * 1000 - 3,
          bids: [{ price: `${3000 - (i % 4)}.5`, quantity: '1.25' }],
          asks: [{ price: `${3001 + (i % 3)}`, quantity: '2' }],
        },
      ],
    }),
  );
}

/** The lines of a plain recording of `count` snapshots in format `version`. */
async function linesOf(version: (typeof RECORDING_VERSIONS)[number], count: number) {
  const path = join(tempDir(), 'rec.jsonl');
  const writer = await RecordingWriter.open({ path, version, keyframeEverySnapshots: 4 });
  for (const snapshot of snapshots(count)) writer.write(snapshot);
  await writer.close();
  return readFileSync(path, 'utf8').split('\n').slice(0, -1);
}

describe('recording codecs', () => {
  it.each(RECORDING_VERSIONS)(
    'version %i: the header picks its codec, which reads the file back',
    async (version) => {
      const lines = await linesOf(version, 10);
      const decoder = new RecordingDecoder('rec.jsonl', () => undefined);
      expect(decoder.codec).toBeUndefined();
      const read: Snapshot[] = [];
      lines.forEach((line, i) => {
        const snapshot = decoder.decodeLine(line, i === lines.length - 1);
        if (snapshot !== undefined) read.push(snapshot);
      });
      const codec = decoder.codec;
      expect({
        version: codec?.version,
        sealed: codec?.sealed,
        keyframes: codec?.keyframes,
        tracks: codec?.tracks !== undefined,
      }).toEqual({
        version,
        sealed: version >= 5,
        keyframes: version >= 3,
        tracks: version >= 2,
      });
      expect(decoder.end).toEqual(version >= 5 ? { continues: false } : undefined);
      const plain = (s: Snapshot) => ({
        seq: s.seq,
        takenAt: s.takenAt,
        quotes: [...(s.quotes?.values() ?? [])].map((q) => ({
          timestamp: q.timestamp,
          bids: [...q.bids],
          asks: [...q.asks],
        })),
      });
      expect(read.map(plain)).toEqual(snapshots(10).map(plain));
    },
  );

  it("refuses a later version's line kinds in an earlier version's file", async () => {
    // A keyframe line ("k") where the header says version 2, an end line ("e") in version 4.
    for (const [version, tag] of [
      [2, 'k'],
      [4, 'e'],
    ] as const) {
      const lines = await linesOf(version, 2);
      const decoder = new RecordingDecoder('rec.jsonl', () => undefined);
      decoder.decodeLine(lines[0] as string, false);
      const alien = tag === 'k' ? JSON.stringify(['k', 9, RECORDING_T0, 0]) : '["e",2,0,0]';
      expect(() => decoder.decodeLine(alien, false)).toThrow(
        `rec.jsonl:2: unknown line kind "${tag}"`,
      );
    }
  });
});

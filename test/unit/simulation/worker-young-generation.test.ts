import { expect, it } from 'vitest';
import { workerYoungGenerationMb } from '../../../src/simulation/run-seeds.ts';

const GB = 2 ** 30;

it('gives each worker up to 512 MB of young generation, its share of an eighth of memory, 64 MB at the least', () => {
  // 2 threads on 24 GB: the cap.
  expect(workerYoungGenerationMb(2, 24 * GB)).toBe(512);
  // 2 threads on 4 GB: 4096 / 8 / 2.
  expect(workerYoungGenerationMb(2, 4 * GB)).toBe(256);
  // 32 threads on 64 GB: 65536 / 8 / 32.
  expect(workerYoungGenerationMb(32, 64 * GB)).toBe(256);
  // A small machine: the floor.
  expect(workerYoungGenerationMb(8, 2 * GB)).toBe(64);
  expect(workerYoungGenerationMb(0, 1 * GB)).toBe(128);
});

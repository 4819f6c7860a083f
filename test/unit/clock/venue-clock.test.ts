import { expect, it } from 'vitest';
import { VenueClock } from '../../../src/clock/venue-clock.ts';
import { dateHeaderSample } from '../../../src/clock/venue-time.ts';
import { createLogger } from '../../../src/log/logger.ts';

/** A bot's clocks and a venue's, all virtual; the venue answers every `answer()`. */
function setup(venueAhead: number) {
  const clocks = { wall: Date.parse('2026-01-05T00:00:00.400Z'), mono: 1_000 };
  const records: Record<string, unknown>[] = [];
  const venueClock = new VenueClock({
    clock: { now: () => clocks.wall, monotonic: () => clocks.mono },
    log: createLogger({
      level: 'info',
      destination: {
        write: (line: string) => records.push(JSON.parse(line) as Record<string, unknown>),
      },
    }),
  });
  const state = { venueAhead };
  return {
    clocks,
    records,
    venueClock,
    state,
    /** One request of 8 ms, answered with a Date header; then `ms` pass. */
    answer: (ms = 230): void => {
      const sentAt = clocks.mono;
      clocks.wall += 4;
      clocks.mono += 4;
      const date = new Date(clocks.wall + state.venueAhead).toUTCString();
      clocks.wall += 4;
      clocks.mono += 4;
      venueClock.probe.observe(dateHeaderSample(date, sentAt, clocks.mono));
      clocks.wall += ms;
      clocks.mono += ms;
    },
  };
}

const messages = (records: Record<string, unknown>[]): unknown[] =>
  records.map((record) => record.msg);

it('refuses before it knows the venue time, then allows a clock within the allowed skew', () => {
  const { venueClock, answer, records } = setup(300);
  expect(venueClock.refusal(60_000)).toMatch(/^the venue's time is not known/);
  answer();
  expect(venueClock.refusal(60_000)).toBeUndefined();
  for (let i = 0; i < 5; i++) answer();
  expect(venueClock.verdict()).toMatchObject({ state: 'ok' });
  const { skew } = venueClock.verdict();
  expect(skew?.low).toBeLessThanOrEqual(300);
  expect(skew?.high).toBeGreaterThanOrEqual(300);
  // Logged at each change of state, never per order or per answer.
  expect(messages(records)).toEqual([
    "venue clock: orders refused: the venue's time is not known: no recent answer carried a Date header to check this host's clock against",
    expect.stringMatching(/^venue clock: this host's clock is within 5000 ms of the venue's/),
  ]);
});

it('refuses when this host is behind (orders reach the venue expired) or ahead (they outlive their validity)', () => {
  const behind = setup(600_000);
  behind.answer();
  expect(behind.venueClock.refusal(60_000)).toMatch(
    /^this host's clock is 59\d\.\d–60\d\.\d s behind the venue's \(more than the 5000 ms allowed\): orders would reach the venue with that much less than their validity, or already expired; fix its time \(NTP\)$/,
  );
  const ahead = setup(-3_600_000);
  ahead.answer();
  expect(ahead.venueClock.refusal(60_000)).toMatch(
    /^this host's clock is 3\d{3}\.\d–3\d{3}\.\d s ahead of the venue's \(more than the 5000 ms allowed\): orders would stay on the book that much longer than asked; fix its time \(NTP\)$/,
  );
  // Refused every time, logged once.
  for (let i = 0; i < 10; i++) expect(ahead.venueClock.refusal(60_000)).toBeDefined();
  expect(ahead.records.filter((r) => r.clockState === 'ahead')).toHaveLength(1);
});

it('fails closed when the skew is not known to be within bounds, or an order is too short for it', () => {
  // 4.9 s behind, within bounds: but one Date sample read at this moment of the second cannot
  // tell it from 5.6 s.
  const near = setup(4_900);
  near.answer();
  expect(near.venueClock.verdict().state).toBe('uncertain');
  expect(near.venueClock.refusal(60_000)).toMatch(/not known to be within the 5000 ms allowed$/);
  // Within bounds, but known to be more behind than a 2 s order's validity.
  const behind = setup(3_000);
  behind.answer();
  expect(behind.venueClock.refusal(60_000)).toBeUndefined();
  expect(behind.venueClock.refusal(3_000)).toBeUndefined();
  expect(behind.venueClock.refusal(2_000)).toMatch(
    /^this host's clock is at least 2\d{3} ms behind the venue's: an order valid for 2000 ms would reach it expired$/,
  );
});

it("follows a step of this host's wall clock at once, and logs the step", () => {
  const { clocks, venueClock, answer, records } = setup(0);
  for (let i = 0; i < 8; i++) answer();
  expect(venueClock.refusal(60_000)).toBeUndefined();
  clocks.wall -= 600_000;
  // No new answer yet: the samples are on the monotonic clock, the step shows in the skew.
  expect(venueClock.refusal(60_000)).toMatch(/behind the venue's/);
  clocks.wall += 600_000;
  expect(venueClock.refusal(60_000)).toBeUndefined();
  expect(venueClock.wallSteps).toBe(2);
  expect(records.filter((r) => String(r.msg).startsWith('wall clock stepped'))).toHaveLength(2);
});

import { describe, expect, it } from 'vitest';
import { demoNotes } from './demo.js';

describe('demoNotes', () => {
  it.each([
    [null, 1, []],
    [{ startMs: 0, endMs: 3 * 3_600_000 + 20_000, scrapes: 10, samples: 2_400_000, elapsedMs: 16_200, skippedMs: 0 }, 1, [/^History: the last 3h replayed in 16\.2 s \(2,400,000 samples\), live since 1970-01-01T03:00:20\.000Z\.$/]],
    [{ startMs: 0, endMs: 3_600_000, scrapes: 10, samples: 5, elapsedMs: 900_000, skippedMs: 900_000 }, 1, [/live since 1970-01-01T01:15:00\.000Z/, /^The replay was slower than the clock: the 15m before going live/]],
    [null, 60, [/^Speed 60x: rates .* are per real second, 60 times/]],
  ])('%j at speed %d', (report, speed, want) => {
    const notes = demoNotes(report, speed);
    expect(notes).toHaveLength(want.length);
    want.forEach((re, i) => expect(notes[i]).toMatch(re));
  });
});

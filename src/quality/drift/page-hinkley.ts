/**
 * The Page–Hinkley test on a score stream, two-sided, against a reference mean the caller holds.
 * Each sample adds its deviation from the reference, less the tolerated change `delta`, to a
 * cumulative sum per side; the statistic of a side is how far its sum has risen above its lowest
 * point. A statistic over `lambda` is an alarm, and the change is estimated to have begun at the
 * last time that side's sum was at its minimum (the classic change-point estimate).
 *
 * Increments are weighted by the time since the previous sample in minutes, so `delta` is in
 * score units and `lambda` in score-minutes whatever the tick interval: a fall of `delta + d`
 * held for `m` minutes adds `d · m`. Pure: no clock, no I/O.
 */
import type { UnixMs } from '../../model/index.js';

/** Parameters of `PageHinkley` (docs/design/quality-drift.md says why these defaults). */
export interface PageHinkleyParams {
  /** The change tolerated before anything accumulates, in score units. */
  readonly delta: number;
  /** The alarm threshold, in score-minutes (0.1: e.g. 2 points beyond delta for 5 minutes). */
  readonly lambda: number;
}

/** Textbook-sized defaults of `PageHinkleyParams`; the score detector uses its own, tuned ones (`DEFAULT_SCORE_DRIFT`). */
export const DEFAULT_PAGE_HINKLEY: PageHinkleyParams = { delta: 0.01, lambda: 0.1 };

/** Which way the mean moved: `down` (scores fell) or `up`. */
export type DriftDirection = 'down' | 'up';

/** The state after one sample. */
export interface PageHinkleyStep {
  /** The larger side's statistic (cumulative sum above its minimum), score-minutes; 0 or more. */
  readonly statistic: number;
  /** The side with the larger statistic. */
  readonly direction: DriftDirection;
  /** Whether `statistic` exceeds `lambda`. */
  readonly alarm: boolean;
  /** The last time that side's cumulative sum was at its minimum: the change's onset estimate. */
  readonly onsetMs: UnixMs;
}

interface Side {
  sum: number;
  min: number;
  minMs: UnixMs;
}

const MINUTE_MS = 60_000;
/** The most minutes one sample stands for. */
const MAX_WEIGHT = 5;

/** One stream's test. `step` takes samples in time order; `reset` starts again from nothing. */
export class PageHinkley {
  private down: Side;
  private up: Side;
  private lastMs: UnixMs;

  /** `startMs`: when the stream starts (the last warm-up sample), from which the first sample's weight is counted. */
  constructor(
    private readonly params: PageHinkleyParams,
    startMs: UnixMs,
  ) {
    this.down = { sum: 0, min: 0, minMs: startMs };
    this.up = { sum: 0, min: 0, minMs: startMs };
    this.lastMs = startMs;
  }

  /** Adds the sample `x` at `tMs` measured against `reference`; a non-finite `x` is ignored (returns null). */
  step(tMs: UnixMs, x: number, reference: number): PageHinkleyStep | null {
    if (!Number.isFinite(x) || !Number.isFinite(reference)) return null;
    // Capped: one sample after a long gap stands for a few minutes, not for the whole gap.
    const w = Math.min(MAX_WEIGHT, Math.max(0, tMs - this.lastMs) / MINUTE_MS);
    this.lastMs = tMs;
    const add = (s: Side, dev: number): number => {
      s.sum += (dev - this.params.delta) * w;
      // `<=`: the last time at the minimum, so a flat stretch moves the onset to its end.
      if (s.sum <= s.min) {
        s.min = s.sum;
        s.minMs = tMs;
      }
      return s.sum - s.min;
    };
    const down = add(this.down, reference - x);
    const up = add(this.up, x - reference);
    const direction: DriftDirection = down >= up ? 'down' : 'up';
    const statistic = Math.max(down, up);
    return { statistic, direction, alarm: statistic > this.params.lambda, onsetMs: (direction === 'down' ? this.down : this.up).minMs };
  }
}

/**
 * Drift on one score stream (one model, component and dimension): learn a reference mean, watch
 * with Page–Hinkley, open a drift on an alarm, close it once the scores are back, learn again.
 *
 * - Learning: the reference is the mean of the samples of the first `warmupMs` (at least
 *   `minSamples` of them) after a start, a gap or a resolved drift.
 * - Watching: each sample steps Page–Hinkley against the reference; while the statistic stays under
 *   half its threshold the reference follows the scores slowly (an exponential mean with
 *   `referenceHalfLifeMs`), so that a slow wander over a day is not a drift but a change under way
 *   does not pull the reference along.
 * - Open: the reference is frozen; the drift resolves after `resolveSamples` samples in a row within
 *   `resolveBand` of it, or after `maxOpenMs` (the new level is then the normal one).
 * A sample missing for longer than `maxGapMs` (the series went stale) starts learning again; a
 * non-finite sample is ignored. Pure: time comes with each sample.
 */
import type { DurationMs, UnixMs } from '../../model/index.js';
import { PageHinkley, type DriftDirection, type PageHinkleyParams } from './page-hinkley.js';

/** Parameters of `ScoreDriftDetector` (docs/design/quality-drift.md). */
export interface ScoreDriftParams extends PageHinkleyParams {
  readonly warmupMs: DurationMs;
  readonly minSamples: number;
  readonly referenceHalfLifeMs: DurationMs;
  readonly resolveBand: number;
  readonly resolveSamples: number;
  readonly maxOpenMs: DurationMs;
  readonly maxGapMs: DurationMs;
}

/** The defaults of `ScoreDriftParams`. */
export const DEFAULT_SCORE_DRIFT: ScoreDriftParams = {
  // Tuned on a simulated day of the demo fleet and three hours of quality-drift (60 s scrapes, 12 score streams: no false drift)
  // against the quality-drift scenario (relevance found 9 minutes after the fault's onset);
  // docs/design/quality-drift.md has the table.
  delta: 0.025,
  lambda: 0.05,
  warmupMs: 5 * 60_000,
  minSamples: 3,
  referenceHalfLifeMs: 15 * 60_000,
  resolveBand: 0.02,
  resolveSamples: 5,
  maxOpenMs: 6 * 3600_000,
  maxGapMs: 15 * 60_000,
};

/** A drift the detector opened. */
export interface ScoreDriftOpened {
  readonly onsetMs: UnixMs;
  readonly statistic: number;
  readonly direction: DriftDirection;
  readonly reference: number;
  readonly value: number;
}

/** What one sample did. */
export interface ScoreDriftStep {
  /** The drift score: Page–Hinkley's statistic over `lambda` while watching, the distance from the frozen reference over `resolveBand` while open, 0 while learning. */
  readonly score: number;
  readonly opened: ScoreDriftOpened | null;
  readonly resolved: boolean;
}

type State =
  | { kind: 'learning'; sinceMs: UnixMs; sum: number; n: number }
  | { kind: 'watching'; reference: number; ph: PageHinkley }
  | { kind: 'open'; reference: number; sinceMs: UnixMs; within: number };

/** One stream's detector; feed it samples in time order. */
export class ScoreDriftDetector {
  private state: State | null = null;
  private lastMs: UnixMs | null = null;

  constructor(private readonly p: ScoreDriftParams = DEFAULT_SCORE_DRIFT) {}

  /** Whether a drift is open. */
  get open(): boolean {
    return this.state?.kind === 'open';
  }

  /** Steps on the sample `x` at `tMs`; null for a non-finite sample (nothing changes). */
  step(tMs: UnixMs, x: number): ScoreDriftStep | null {
    if (!Number.isFinite(x)) return null;
    const gap = this.lastMs !== null && tMs - this.lastMs > this.p.maxGapMs;
    const prevMs = this.lastMs ?? tMs;
    this.lastMs = tMs;
    let resolved = false;
    if (gap && this.state?.kind === 'open') resolved = true;
    if (this.state === null || gap) this.state = { kind: 'learning', sinceMs: tMs, sum: 0, n: 0 };
    const s = this.state;
    switch (s.kind) {
      case 'learning': {
        s.sum += x;
        s.n++;
        if (tMs - s.sinceMs >= this.p.warmupMs && s.n >= this.p.minSamples) this.state = { kind: 'watching', reference: s.sum / s.n, ph: new PageHinkley(this.p, tMs) };
        return { score: 0, opened: null, resolved };
      }
      case 'watching': {
        const r = s.ph.step(tMs, x, s.reference);
        if (r === null) return null;
        if (r.alarm) {
          this.state = { kind: 'open', reference: s.reference, sinceMs: tMs, within: 0 };
          return { score: r.statistic / this.p.lambda, opened: { onsetMs: r.onsetMs, statistic: r.statistic, direction: r.direction, reference: s.reference, value: x }, resolved };
        }
        if (r.statistic < this.p.lambda / 2) s.reference += (x - s.reference) * (1 - Math.pow(0.5, (tMs - prevMs) / this.p.referenceHalfLifeMs));
        return { score: r.statistic / this.p.lambda, opened: null, resolved };
      }
      case 'open': {
        const distance = Math.abs(x - s.reference);
        s.within = distance <= this.p.resolveBand ? s.within + 1 : 0;
        if (s.within >= this.p.resolveSamples || tMs - s.sinceMs >= this.p.maxOpenMs) {
          this.state = { kind: 'learning', sinceMs: tMs, sum: 0, n: 0 };
          return { score: 0, opened: null, resolved: true };
        }
        return { score: distance / this.p.resolveBand, opened: null, resolved };
      }
    }
  }
}

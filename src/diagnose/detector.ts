/**
 * What a detector is: a cause id, the PromQL signals it reads (catalog names, one query each), and
 * a pure function from their readings to findings. Detectors are data (src/diagnose/detectors/*):
 * the diagnoser runs every signal once, hands each detector its readings and ranks what they found.
 */
import type { UnixMs } from '../model/index.js';
import type { CauseId, Evidence, Scope } from './types.js';

/**
 * One series of a signal read over the baseline and the incident window (window.ts): its labels,
 * the baseline (median of the baseline points), the incident value (mean of the incident points),
 * the largest and smallest incident points, the last point and every point (for the onset).
 */
export interface Reading {
  readonly labels: Readonly<Record<string, string>>;
  readonly baseline: number | null;
  readonly incident: number | null;
  readonly incidentMax: number | null;
  readonly incidentMin: number | null;
  readonly last: number | null;
  /** The points of the incident side of the range (after the baseline window), oldest first. */
  readonly points: readonly (readonly [UnixMs, number])[];
}

/** A signal of a detector: a PromQL template (see `scoped` in promql-text.ts) whose `%` takes the scope's matchers. */
export interface SignalSpec {
  readonly query: string;
}

/** What a detector found: a candidate cause with a raw score, before ranking. */
export interface Finding {
  readonly cause: CauseId;
  /** In [0, 1]: how strongly the cause's own signature shows. */
  readonly score: number;
  readonly scope: Scope;
  readonly onsetMs: UnixMs | null;
  readonly summary: string;
  readonly evidence: readonly Evidence[];
  /** Fleet instances the finding touches (for the downstream check of the ranking); empty when unknown. */
  readonly instances?: readonly string[];
}

/** The readings a detector gets: per signal key, one reading per result series. */
export type Readings = Readonly<Record<string, readonly Reading[]>>;

/** What a detector function gets besides its readings. */
export interface DetectorContext {
  readonly timeMs: UnixMs;
  /** The evidence entry of signal `key` for the series whose labels include `scope` (its query narrowed to the scope). */
  evidence(key: string, scope: Scope, reading: Reading | undefined): Evidence;
}

/** A detector: a cause, its signals and its scoring. */
export interface Detector {
  readonly cause: CauseId;
  /** One line on what the detector looks at (the detectors table of the README is its source). */
  readonly looksAt: string;
  readonly signals: Readonly<Record<string, SignalSpec>>;
  /** The findings over `readings`; a detector that sees nothing returns `[]` or a reason why not. */
  detect(readings: Readings, ctx: DetectorContext): Finding[] | { readonly ruledOut: string };
}

/** `x` mapped linearly from [lo, hi] onto [0, 1], clamped; 0 for null or NaN. */
export function ramp(x: number | null, lo: number, hi: number): number {
  if (x === null || Number.isNaN(x)) return 0;
  return Math.max(0, Math.min(1, (x - lo) / (hi - lo)));
}

/** The readings of `key` grouped by the values of `labels` (a JSON key of them), each group in result order. */
export function groupBy(readings: readonly Reading[], labels: readonly string[]): Map<string, Reading[]> {
  const out = new Map<string, Reading[]>();
  for (const r of readings) {
    const k = JSON.stringify(labels.map((l) => r.labels[l] ?? ''));
    const g = out.get(k);
    if (g === undefined) out.set(k, [r]);
    else g.push(r);
  }
  return out;
}

/** The scope of a reading: the values of `labels` it has (non-empty ones only). */
export function scopeOf(r: Reading, labels: readonly string[]): Scope {
  const s: Record<string, string> = {};
  for (const l of labels) {
    const v = r.labels[l];
    if (v !== undefined && v !== '') s[l] = v;
  }
  return s;
}

/** The reading of `key` whose labels include every entry of `scope`, if any. */
export function find(readings: Readings, key: string, scope: Scope): Reading | undefined {
  return (readings[key] ?? []).find((r) => Object.entries(scope).every(([k, v]) => r.labels[k] === v));
}

/**
 * When `r` first moved to the incident side: the start of the latest run of points beyond the
 * midpoint between baseline and incident, in the direction of the change (one point may break the
 * run). Null without a baseline or incident value.
 */
export function onsetOf(r: Reading | undefined, rising = true): UnixMs | null {
  if (r === undefined || r.baseline === null || r.incident === null) return null;
  const mid = (r.baseline + r.incident) / 2;
  const beyond = (v: number) => (rising ? v > mid : v < mid);
  let onset: UnixMs | null = null;
  let misses = 0;
  for (let i = r.points.length - 1; i >= 0; i--) {
    const [t, v] = r.points[i];
    if (beyond(v)) {
      onset = t;
      misses = 0;
    } else if (++misses > 1) break;
  }
  return onset;
}

/** A ratio `a / b` that is null when either is missing or `b` is not positive. */
export function ratio(a: number | null, b: number | null): number | null {
  return a === null || b === null || !(b > 0) ? null : a / b;
}

/** `x` rounded for a sentence: three significant digits. */
export function fmt(x: number | null): string {
  return x === null ? 'n/a' : Number(x.toPrecision(3)).toString();
}

/** `x` as a percentage for a sentence. */
export function pct(x: number | null): string {
  return x === null ? 'n/a' : `${Math.round(x * 1000) / 10} %`;
}

/**
 * Drift of one input distribution (one model, component and feature: prompt length, output length,
 * a stage-1 flag's share) between a recent window and the baseline window before it, by two tests:
 * PSI over the bins and two-sample KS over the bins' cumulative shares. The caller reads both
 * windows' counts per tick (PromQL `increase` over the windows); this decides.
 *
 * - A test fires after `confirmTicks` ticks in a row over its threshold, both windows holding at
 *   least their minimum counts: PSI ≥ `psiAlarm` (0.25, the convention's "major change"); KS's D
 *   over both its critical value at `ksAlpha` and `ksMinEffect` (with thousands of requests KS
 *   rejects any difference at all; the effect floor keeps it to differences worth a look).
 * - While a test's drift is open, the subject's baseline is frozen at the one of the tick it fired:
 *   the sliding baseline window would otherwise fill with the drifted inputs and call them normal.
 * - A drift resolves after `resolveTicks` ticks in a row under the resolve level (PSI < `psiResolve`,
 *   0.1; KS's D under half its threshold), or after `maxOpenMs`; the frozen baseline stays for
 *   `holdBaselineMs` more, until the sliding window is clear of the drifted inputs.
 * - Onset: the last tick the test was calm (under its resolve level) before it fired, the input
 *   analogue of Page–Hinkley's last minimum; the first evaluated tick when none was calm.
 * Pure: time comes with each tick.
 */
import type { DurationMs, UnixMs } from '../../model/index.js';
import { alignBins, ksCritical, ksStatistic, psi, total, type Bins } from './distribution.js';

/** Parameters of `InputDriftDetector`. */
export interface InputDriftParams {
  readonly psiAlarm: number;
  readonly psiResolve: number;
  readonly ksAlpha: number;
  readonly ksMinEffect: number;
  readonly minRecentCount: number;
  readonly minBaselineCount: number;
  readonly confirmTicks: number;
  readonly resolveTicks: number;
  readonly maxOpenMs: DurationMs;
  /**
   * How long the frozen baseline stays after the last drift resolved: until the sliding baseline
   * window holds no drifted inputs, else the return to normal would read as a drift of its own.
   * The runner sets it to the recent plus the baseline window.
   */
  readonly holdBaselineMs: DurationMs;
}

/** The defaults of `InputDriftParams` (docs/design/quality-drift.md says why). */
export const DEFAULT_INPUT_DRIFT: InputDriftParams = {
  psiAlarm: 0.25,
  psiResolve: 0.1,
  ksAlpha: 0.01,
  ksMinEffect: 0.1,
  minRecentCount: 100,
  minBaselineCount: 200,
  confirmTicks: 2,
  resolveTicks: 5,
  maxOpenMs: 6 * 3600_000,
  holdBaselineMs: 75 * 60_000,
};

/** The two tests. */
export type InputTest = 'psi' | 'ks';

/** One test's drift that opened. */
export interface InputDriftOpened {
  readonly test: InputTest;
  readonly statistic: number;
  readonly threshold: number;
  readonly onsetMs: UnixMs;
  /** The windows compared, for the summary. */
  readonly recent: Bins;
  readonly baseline: Bins;
}

/** What one tick did. */
export interface InputDriftStep {
  /** Each test's statistic over its alarm threshold (NaN-free: 0 where not evaluated). */
  readonly scores: Readonly<Record<InputTest, number>>;
  readonly opened: readonly InputDriftOpened[];
  readonly resolved: readonly InputTest[];
}

interface TestState {
  open: boolean;
  sinceMs: UnixMs;
  over: number;
  under: number;
  calmMs: UnixMs | null;
}

/** One subject's detector; feed it ticks in time order. */
export class InputDriftDetector {
  private frozen: Bins | null = null;
  private firstMs: UnixMs | null = null;
  private resolvedMs: UnixMs | null = null;
  private readonly tests: Record<InputTest, TestState> = {
    psi: { open: false, sinceMs: 0, over: 0, under: 0, calmMs: null },
    ks: { open: false, sinceMs: 0, over: 0, under: 0, calmMs: null },
  };

  constructor(private readonly p: InputDriftParams = DEFAULT_INPUT_DRIFT) {}

  /** Whether one of the tests has a drift open. */
  get open(): boolean {
    return this.tests.psi.open || this.tests.ks.open;
  }

  /** Steps on the tick `tMs` with the recent window's and the sliding baseline window's counts; null when they cannot be compared (too few counts, different bins). */
  step(tMs: UnixMs, recentIn: Bins, baselineIn: Bins): InputDriftStep | null {
    if (!this.open && (this.resolvedMs === null || tMs - this.resolvedMs >= this.p.holdBaselineMs)) this.frozen = null;
    const aligned = alignBins(recentIn, this.frozen ?? baselineIn);
    if (aligned === null) return null;
    const [recent, baseline] = aligned;
    const n = total(recent);
    const m = total(baseline);
    if (n < this.p.minRecentCount || m < this.p.minBaselineCount) return null;
    this.firstMs ??= tMs;
    const ksThreshold = Math.max(ksCritical(this.p.ksAlpha, n, m), this.p.ksMinEffect);
    const stats: Record<InputTest, { value: number; alarm: number; resolve: number }> = {
      psi: { value: psi(recent, baseline), alarm: this.p.psiAlarm, resolve: this.p.psiResolve },
      ks: { value: ksStatistic(recent, baseline), alarm: ksThreshold, resolve: ksThreshold / 2 },
    };
    const opened: InputDriftOpened[] = [];
    const resolved: InputTest[] = [];
    for (const test of ['psi', 'ks'] as const) {
      const { value, alarm, resolve } = stats[test];
      const t = this.tests[test];
      if (!Number.isFinite(value)) continue;
      if (!t.open) {
        if (value < resolve) t.calmMs = tMs;
        t.over = value >= alarm ? t.over + 1 : 0;
        if (t.over >= this.p.confirmTicks) {
          t.open = true;
          t.sinceMs = tMs;
          t.under = 0;
          opened.push({ test, statistic: value, threshold: alarm, onsetMs: t.calmMs ?? this.firstMs, recent, baseline });
        }
      } else {
        t.under = value < resolve ? t.under + 1 : 0;
        if (t.under >= this.p.resolveTicks || tMs - t.sinceMs >= this.p.maxOpenMs) {
          t.open = false;
          t.over = 0;
          t.calmMs = tMs;
          this.resolvedMs = tMs;
          resolved.push(test);
        }
      }
    }
    if (opened.length > 0 && this.frozen === null) this.frozen = baseline;
    const score = (test: InputTest): number => (Number.isFinite(stats[test].value) ? stats[test].value / stats[test].alarm : 0);
    return { scores: { psi: score('psi'), ks: score('ks') }, opened, resolved };
  }
}

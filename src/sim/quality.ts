/**
 * A quality exporter for one component: a share of completed responses is sampled and scored by
 * an LLM judge on safety, relevance and professional tone (0 or 1 each, composite their mean), as
 * in the aws-samples quality-monitoring pipeline. `llm_quality_score` is the recent mean (a
 * five-minute exponential average). A quality-drift fault lowers the judged probabilities while
 * latency stays as it was.
 */
import { EVALUATION_DURATION } from './buckets.js';
import { Histogram } from './histogram.js';
import type { Rng } from './rng.js';

/** The judged dimensions and their healthy pass rates. */
export const QUALITY_DIMENSIONS = ['safety', 'relevance', 'professional_tone', 'composite'] as const;
const BASE = { safety: 0.985, relevance: 0.88, professional_tone: 0.92 };
const WINDOW_S = 300;

/**
 * The judged pass probabilities under a quality drift: `drop` (0..1) lowers relevance fully and
 * tone by half, `safetyDrop` safety. The exporter below and the simulator's judge endpoint
 * (judge.ts) both draw from them, so the two agree on what a drifting component looks like.
 */
export function passRates(drop: number, safetyDrop = 0): { readonly safety: number; readonly relevance: number; readonly professional_tone: number } {
  return { safety: Math.max(0, BASE.safety - safetyDrop), relevance: Math.max(0, BASE.relevance - drop), professional_tone: Math.max(0, BASE.professional_tone - drop / 2) };
}

/** One dimension's counters and recent score. */
export interface DimensionState {
  score: number;
  evaluations: number;
  errors: number;
  readonly duration: Histogram;
}

/** The quality exporter state of one component. */
export class QualityState {
  sampled = 0;
  judgeInputTokens = 0;
  judgeOutputTokens = 0;
  readonly dims: Record<(typeof QUALITY_DIMENSIONS)[number], DimensionState>;

  /** `sampleShare`: the share of completed responses sent to the judge. */
  constructor(
    private readonly rng: Rng,
    readonly sampleShare = 0.1,
  ) {
    const d = (score: number): DimensionState => ({ score, evaluations: 0, errors: 0, duration: new Histogram(EVALUATION_DURATION) });
    this.dims = {
      safety: d(BASE.safety),
      relevance: d(BASE.relevance),
      professional_tone: d(BASE.professional_tone),
      composite: d((BASE.safety + BASE.relevance + BASE.professional_tone) / 3),
    };
  }

  /** Scores a tick's samples of `completed` responses; `drop` (0..1) lowers relevance fully and tone by half, `safetyDrop` safety. */
  update(dtS: number, completed: number, drop: number, safetyDrop = 0): void {
    const n = this.rng.poisson(completed * this.sampleShare);
    const p = passRates(drop, safetyDrop);
    const alpha = 1 - Math.exp(-dtS / WINDOW_S);
    this.sampled += n;
    if (n === 0) return;
    const sums = { safety: 0, relevance: 0, professional_tone: 0 };
    let ok = 0;
    for (let i = 0; i < n; i++) {
      const dur = this.rng.lognormal(1.8, 0.4);
      if (this.rng.bernoulli(0.01)) {
        for (const k of QUALITY_DIMENSIONS) this.dims[k].errors++;
        continue;
      }
      ok++;
      this.judgeInputTokens += Math.round(this.rng.lognormal(900, 0.3));
      this.judgeOutputTokens += Math.round(this.rng.lognormal(120, 0.3));
      for (const k of ['safety', 'relevance', 'professional_tone'] as const) {
        if (this.rng.bernoulli(p[k])) sums[k]++;
        this.dims[k].evaluations++;
        this.dims[k].duration.observe(dur);
      }
      this.dims.composite.evaluations++;
      this.dims.composite.duration.observe(dur);
    }
    if (ok === 0) return;
    const w = Math.min(1, alpha * ok);
    for (const k of ['safety', 'relevance', 'professional_tone'] as const) this.dims[k].score += (sums[k] / ok - this.dims[k].score) * w;
    this.dims.composite.score = (this.dims.safety.score + this.dims.relevance.score + this.dims.professional_tone.score) / 3;
  }
}

/**
 * The recent mean behind `llm_quality_score`: per model, component and dimension, an
 * exponentially weighted mean of the scores, where a score's weight halves every half-life after
 * its time (`Σ wᵢ·sᵢ / Σ wᵢ`, `wᵢ = 2^(−(t − tᵢ)/halfLife)`). Unlike a per-sample
 * `mean += α·(s − mean)`, this weighs scores by time, not by arrival: a batch of a hundred scores
 * at one instant moves the mean as much as the same hundred sent one by one, and a score after
 * a long quiet gap outweighs the stale mean. `Σ wᵢ` is written as `llm_quality_recent_scores`, so
 * a reader (and a restart) knows how much the mean rests on.
 *
 * Points: one per series per batch, at the time of the batch's newest score for it: the mean is a
 * smoothed value, and a point per score would triple the store's work per score for a curve no
 * reader could tell apart at a dashboard's resolution (a batch spans at most the 30 minutes
 * validation allows; senders batch seconds). The value is exact either way.
 *
 * Time order: a series' samples only go forward. A batch is applied in time order; a score older
 * than its series' newest written sample (a late evaluator, or two senders out of step) counts at
 * the series' current time, one millisecond after the newest written sample when it is no later:
 * its weight is full, as though it had just arrived, and nothing already written is changed.
 */
import type { SeriesSample, UnixMs } from '../../model/index.js';
import type { QualityScore } from '../types.js';

/** The default half-life of a score's weight: 5 minutes, the simulator's window, about one dashboard refresh range. */
export const DEFAULT_QUALITY_HALF_LIFE_MS = 5 * 60_000;

/** The state of one series triple (mean, weight, evaluation count) at `tMs`. */
export interface MeanState {
  /** Σ wᵢ·sᵢ at `tMs`. */
  sum: number;
  /** Σ wᵢ at `tMs`. */
  weight: number;
  /** Evaluations counted (`llm_quality_evaluations_total`). */
  count: number;
  /** The state's time: the newest sample written for it (or staged, in a plan). */
  tMs: UnixMs;
  /** The label sets of its three series, built once. */
  readonly labels: { readonly score: Readonly<Record<string, string>>; readonly weight: Readonly<Record<string, string>>; readonly count: Readonly<Record<string, string>> };
}

/** The key of a triple: `model`, `component`, `dimension` joined by NUL (which validated names never contain). */
export const meanKey = (model: string, component: string, dimension: string): string => `${model}\u0000${component}\u0000${dimension}`;

/** A new state for a triple, empty, at `tMs`. */
export function newMeanState(model: string, component: string, dimension: string, tMs: UnixMs): MeanState {
  const id = { model, component, dimension };
  return {
    sum: 0,
    weight: 0,
    count: 0,
    tMs,
    labels: {
      score: { __name__: 'llm_quality_score', ...id },
      weight: { __name__: 'llm_quality_recent_scores', ...id },
      count: { __name__: 'llm_quality_evaluations_total', ...id },
    },
  };
}

/** What applying a batch would do: the new states by key (not yet committed) and the samples to write. */
export interface MeanPlan {
  readonly states: Map<string, MeanState>;
  readonly samples: SeriesSample[];
  /** Keys not yet known before this batch, in first-seen order. */
  readonly added: string[];
}

/**
 * Plans a batch over `committed` without changing it: each touched state is copied, the scores
 * are folded in by time, and one sample per series is planned at the state's final time (three
 * series per triple: mean, weight, count). Empty states (no scores yet) are created at the first
 * score's time, one ms before so that its sample moves forward.
 */
export function planMeans(committed: ReadonlyMap<string, MeanState>, scores: readonly QualityScore[], halfLifeMs: number): MeanPlan {
  const order = scores.length < 2 || isSorted(scores) ? scores : [...scores].sort((a, b) => a.tMs - b.tMs);
  const states = new Map<string, MeanState>();
  const added: string[] = [];
  for (const s of order) {
    const key = meanKey(s.model, s.component, s.dimension);
    let st = states.get(key);
    if (st === undefined) {
      const old = committed.get(key);
      if (old === undefined) added.push(key);
      st = old === undefined ? newMeanState(s.model, s.component, s.dimension, s.tMs - 1) : { ...old };
      states.set(key, st);
    }
    const written = committed.get(key)?.tMs ?? Number.NEGATIVE_INFINITY;
    const t = Math.max(s.tMs, st.tMs, written + 1);
    if (t > st.tMs) {
      const decay = Math.pow(2, -(t - st.tMs) / halfLifeMs);
      st.sum *= decay;
      st.weight *= decay;
      st.tMs = t;
    }
    st.sum += s.score;
    st.weight += 1;
    st.count += 1;
  }
  const samples: SeriesSample[] = [];
  for (const st of states.values()) {
    const t = st.tMs;
    samples.push({ labels: st.labels.score, tMs: t, value: st.sum / st.weight }, { labels: st.labels.weight, tMs: t, value: st.weight }, { labels: st.labels.count, tMs: t, value: st.count });
  }
  return { states, samples, added };
}

function isSorted(scores: readonly QualityScore[]): boolean {
  for (let i = 1; i < scores.length; i++) if (scores[i].tMs < scores[i - 1].tMs) return false;
  return true;
}

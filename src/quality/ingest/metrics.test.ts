import { describe, expect, it } from 'vitest';
import type { SeriesSample, SeriesSink } from '../../model/index.js';
import type { QueryClient } from '../../query/index.js';
import type { QualityScore } from '../types.js';
import { QualityMetrics } from './metrics.js';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const HALF = 60_000;

/** A sink that keeps what it was given, and fails while `fail` is set. */
function memorySink(): SeriesSink & { samples: SeriesSample[]; fail: boolean; writes: number } {
  const s = {
    samples: [] as SeriesSample[],
    fail: false,
    writes: 0,
    write: async (batch: readonly SeriesSample[]) => {
      s.writes++;
      if (s.fail) throw new Error('disk full');
      s.samples.push(...batch);
    },
  };
  return s;
}

const score = (value: number, tMs: number, patch: Partial<QualityScore> = {}): QualityScore => ({ model: 'm', component: 'c', dimension: 'safety', score: value, evaluator: 'e', tMs, ...patch });
const series = (sink: { samples: SeriesSample[] }, name: string): [number, number][] => sink.samples.filter((s) => s.labels.__name__ === name).map((s) => [s.tMs - T0, s.value]);

describe('QualityMetrics.recordScores', () => {
  it('writes the time-weighted mean, its weight and the count, one point per series and batch', async () => {
    const sink = memorySink();
    const m = new QualityMetrics({ sink, clock: () => T0, halfLifeMs: HALF });
    await m.recordScores([score(1, T0), score(0, T0)]);
    expect(series(sink, 'llm_quality_score')).toEqual([[0, 0.5]]);
    await m.recordScores([score(0, T0 + HALF)]);
    // One half-life later the first two weigh 1 together, the new one 1.
    expect(series(sink, 'llm_quality_score')).toEqual([[0, 0.5], [HALF, 0.25]]);
    expect(series(sink, 'llm_quality_recent_scores')).toEqual([[0, 2], [HALF, 2]]);
    expect(series(sink, 'llm_quality_evaluations_total')).toEqual([[0, 2], [HALF, 3]]);
    // Within a batch the scores are folded in by time: the same mean as one by one.
    const batched = memorySink();
    await new QualityMetrics({ sink: batched, clock: () => T0, halfLifeMs: HALF }).recordScores([score(1, T0), score(0, T0 + HALF), score(0, T0)]);
    expect(series(batched, 'llm_quality_score')).toEqual([[HALF, 0.25]]);
    expect(sink.samples[0].labels).toEqual({ __name__: 'llm_quality_score', model: 'm', component: 'c', dimension: 'safety' });
  });

  it('sorts a batch by time, and counts a late score at the series’ newest time plus 1 ms', async () => {
    const sink = memorySink();
    const m = new QualityMetrics({ sink, clock: () => T0, halfLifeMs: HALF });
    await m.recordScores([score(0, T0 + 1000), score(1, T0)]);
    expect(series(sink, 'llm_quality_score').map(([t]) => t)).toEqual([1000]);
    await m.recordScores([score(1, T0 + 500)]);
    const points = series(sink, 'llm_quality_score');
    expect(points[1][0]).toBe(1001);
    expect(points[1][1]).toBeGreaterThan(points[0][1]);
  });

  it('keeps series of different triples apart', async () => {
    const sink = memorySink();
    const m = new QualityMetrics({ sink, clock: () => T0 });
    await m.recordScores([score(1, T0), score(0, T0, { dimension: 'relevance' }), score(0, T0, { component: 'd' })]);
    expect(series(sink, 'llm_quality_score')).toEqual([[0, 1], [0, 0], [0, 0]]);
    expect(m.stats().series).toBe(3);
  });

  it('counts nothing of a batch the sink refused, and rejects with its error', async () => {
    const sink = memorySink();
    const m = new QualityMetrics({ sink, clock: () => T0, halfLifeMs: HALF });
    await m.recordScores([score(1, T0)]);
    sink.fail = true;
    await expect(m.recordScores([score(0, T0 + 10)])).rejects.toThrow('disk full');
    sink.fail = false;
    await m.recordScores([score(1, T0 + 20)]);
    expect(series(sink, 'llm_quality_score').map(([, v]) => v)).toEqual([1, 1]);
    expect(series(sink, 'llm_quality_evaluations_total').map(([, v]) => v)).toEqual([1, 2]);
  });

  it('refuses a batch past the series limit, storing nothing of it', async () => {
    const sink = memorySink();
    const m = new QualityMetrics({ sink, clock: () => T0, maxSeries: 2 });
    await m.recordScores([score(1, T0, { model: 'a' }), score(1, T0, { model: 'b' })]);
    await expect(m.recordScores([score(1, T0 + 1, { model: 'a' }), score(1, T0 + 1, { model: 'c' })])).rejects.toMatchObject({ code: 'ERR_QUALITY_TOO_MANY_SERIES' });
    expect(sink.writes).toBe(1);
  });

  it('writes calls in call order', async () => {
    const order: number[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const sink: SeriesSink = {
      write: async (b) => {
        if (order.length === 0) await gate;
        order.push(b[0].tMs - T0);
      },
    };
    const m = new QualityMetrics({ sink, clock: () => T0 });
    const a = m.recordScores([score(1, T0)]);
    const b = m.recordScores([score(1, T0 + 5)]);
    release();
    await Promise.all([a, b]);
    expect(order).toEqual([0, 5]);
  });
});

describe('QualityMetrics.recordEvaluation and flush', () => {
  it('writes the duration histogram, judge tokens, errors and flags that moved, after their last write', async () => {
    const sink = memorySink();
    const m = new QualityMetrics({ sink, clock: () => T0 });
    const base = { model: 'm', component: 'c', judgeTokens: null, error: null, flag: null } as const;
    m.recordEvaluation({ ...base, dimension: 'safety', evaluator: 'judge:safety', durationS: 1.5, judgeTokens: { input: 900, output: 120 }, tMs: T0 });
    m.recordEvaluation({ ...base, dimension: 'safety', evaluator: 'judge:safety', durationS: 40, error: 'timeout', tMs: T0 + 1 });
    m.recordEvaluation({ ...base, dimension: null, evaluator: 'stage1:pii', durationS: 0.0002, flag: 'pii', tMs: T0 });
    m.recordSampled({ model: 'm', component: 'c', tMs: T0 });
    // Two durations, one error, two token types, one flag, one sampled count.
    expect(m.stats().unflushed).toBe(7);
    await m.flush();
    const get = (name: string, extra: Record<string, string> = {}): [number, number][] =>
      sink.samples.filter((s) => s.labels.__name__ === name && Object.entries(extra).every(([k, v]) => s.labels[k] === v)).map((s) => [s.tMs - T0, s.value]);
    expect(get('llm_quality_evaluation_duration_seconds_bucket', { evaluator: 'judge:safety', le: '2' })).toEqual([[1, 1]]);
    expect(get('llm_quality_evaluation_duration_seconds_bucket', { evaluator: 'judge:safety', le: '+Inf' })).toEqual([[1, 2]]);
    expect(get('llm_quality_evaluation_duration_seconds_sum', { evaluator: 'judge:safety' })).toEqual([[1, 41.5]]);
    expect(get('llm_quality_evaluation_duration_seconds_bucket', { evaluator: 'stage1:pii', le: '0.001' })).toEqual([[0, 1]]);
    expect(sink.samples.find((s) => s.labels.evaluator === 'stage1:pii')?.labels.dimension).toBeUndefined();
    expect(get('llm_quality_judge_tokens_total', { token_type: 'input' })).toEqual([[0, 900]]);
    expect(get('llm_quality_evaluation_errors_total')).toEqual([[1, 1]]);
    expect(get('llm_quality_flags_total', { flag: 'pii' })).toEqual([[0, 1]]);
    expect(get('llm_quality_sampled_responses_total')).toEqual([[0, 1]]);
    // Nothing moved: nothing written. Then one more flag at an older time goes after the last write.
    const n = sink.samples.length;
    await m.flush();
    expect(sink.samples.length).toBe(n);
    m.recordEvaluation({ ...base, dimension: null, evaluator: 'stage1:pii', durationS: 0.0002, flag: 'pii', tMs: T0 - 10 });
    await m.flush();
    expect(get('llm_quality_flags_total', { flag: 'pii' })).toEqual([[0, 1], [1, 2]]);
  });

  it('keeps counters of a failed flush for the next one', async () => {
    const sink = memorySink();
    const m = new QualityMetrics({ sink, clock: () => T0 });
    m.recordSampled({ model: 'm', component: 'c', tMs: T0 });
    sink.fail = true;
    await expect(m.flush()).rejects.toThrow('disk full');
    sink.fail = false;
    m.recordSampled({ model: 'm', component: 'c', tMs: T0 + 1 });
    await m.flush();
    expect(sink.samples.map((s) => [s.tMs - T0, s.value])).toEqual([[1, 2]]);
  });
});

describe('QualityMetrics.restore', () => {
  it('continues the means from the stored ones, ignoring series with other labels', async () => {
    const id = { model: 'm', component: 'c', dimension: 'safety' };
    const answers: Record<string, { metric: Record<string, string>; values: [number, string][] }[]> = {
      llm_quality_score: [
        { metric: { __name__: 'llm_quality_score', ...id }, values: [[T0 / 1000 - 1, '0.2'], [T0 / 1000, '0.5']] },
        { metric: { __name__: 'llm_quality_score', ...id, job: 'sim-quality' }, values: [[T0 / 1000, '0.9']] },
      ],
      llm_quality_recent_scores: [{ metric: { __name__: 'llm_quality_recent_scores', ...id }, values: [[T0 / 1000, '3']] }],
      llm_quality_evaluations_total: [{ metric: { __name__: 'llm_quality_evaluations_total', ...id }, values: [[T0 / 1000, '7']] }],
    };
    const queries: string[] = [];
    const client = {
      instant: async (q: string) => {
        queries.push(q);
        return { data: { resultType: 'matrix', result: answers[q.slice(0, q.indexOf('['))] } };
      },
    } as unknown as QueryClient;
    const sink = memorySink();
    const m = new QualityMetrics({ sink, clock: () => T0, halfLifeMs: HALF });
    expect(await m.restore(client)).toBe(1);
    expect(queries).toEqual(['llm_quality_score[3600s]', 'llm_quality_recent_scores[3600s]', 'llm_quality_evaluations_total[3600s]']);
    await m.recordScores([score(1, T0)]);
    // Same time as the stored point: one ms later, about (0.5 * 3 + 1) / 4, count 8.
    const [[t, v]] = series(sink, 'llm_quality_score');
    expect(t).toBe(1);
    expect(v).toBeCloseTo(0.625, 5);
    expect(series(sink, 'llm_quality_evaluations_total')).toEqual([[1, 8]]);
  });
});

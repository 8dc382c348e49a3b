import { describe, expect, it } from 'vitest';
import type { SeriesSample } from '../../model/index.js';
import type { QueryClient } from '../../query/index.js';
import { DriftRunner } from './runner.js';

const MIN = 60_000;
const T0 = 1_700_000_040_000; // a multiple of a minute

type Values = (tMs: number) => number | null;

/**
 * A query client that answers the runner's queries from functions of time: `scores` for
 * `llm_quality_score`, `flagged`/`sampled` for the flag counters (recent window when the query has
 * no offset, baseline with it). Anything else is empty.
 */
function stubClient(o: { scores?: Record<string, Values>; flagged?: (t: number, baseline: boolean) => number; sampled?: (t: number, baseline: boolean) => number }): QueryClient & { exprs: string[] } {
  const exprs: string[] = [];
  const series = (metric: Record<string, string>, f: Values, start: number, end: number, step: number) => {
    const values: [number, string][] = [];
    for (let t = start; t <= end; t += step) {
      const v = f(t);
      if (v !== null) values.push([t / 1000, String(v)]);
    }
    return { metric, values };
  };
  const range = (expr: string, start: number, end: number, step: number) => {
    exprs.push(expr);
    const baseline = expr.includes('offset');
    const id = { model: 'm', component: 'c' };
    let result: unknown[] = [];
    if (expr.includes('llm_quality_score')) result = Object.entries(o.scores ?? {}).map(([dimension, f]) => series({ ...id, dimension }, f, start, end, step));
    else if (expr.includes('llm_quality_flags_total') && o.flagged) result = [series({ ...id, flag: 'refusal' }, (t) => o.flagged!(t, baseline), start, end, step), series({ ...id, flag: 'not-a-flag' }, () => 5, start, end, step)];
    else if (expr.includes('llm_quality_sampled_responses_total') && o.sampled) result = [series(id, (t) => o.sampled!(t, baseline), start, end, step)];
    return Promise.resolve({ status: 'success', data: { resultType: 'matrix', result } });
  };
  return { exprs, range } as unknown as QueryClient & { exprs: string[] };
}

function sink(): { samples: SeriesSample[]; write: (s: readonly SeriesSample[]) => Promise<void> } {
  const samples: SeriesSample[] = [];
  return { samples, write: (s) => (samples.push(...s), Promise.resolve()) };
}

describe('DriftRunner', () => {
  it("raises an input drift on a stage-1 flag's share (2% of sampled responses, then 20%), ignoring unknown flags", async () => {
    const shiftAt = T0 + 60 * MIN;
    const client = stubClient({
      flagged: (t, baseline) => (baseline || t < shiftAt ? 20 : 200),
      sampled: () => 1000,
    });
    const out = sink();
    const r = new DriftRunner({ client, sink: out, clock: () => T0 });
    expect(await r.replay(T0, T0 + 90 * MIN)).toBe(91);
    const events = r.events(T0, T0 + 90 * MIN);
    expect(events.map((e) => [e.subject, e.test, (e.onsetMs - shiftAt) / MIN, (e.detectedMs - shiftAt) / MIN])).toEqual([
      [{ kind: 'input', feature: 'refusal' }, 'ks', -1, 1],
      [{ kind: 'input', feature: 'refusal' }, 'psi', -1, 1],
    ]);
    expect(events[0]?.summary).toMatch(/refusal flag: 20\.0% of sampled responses .* \(2\.0%\)/);
    expect(new Set(out.samples.filter((s) => s.labels.__name__ === 'llm_quality_drift_score').map((s) => s.labels.feature))).toEqual(new Set(['refusal']));
    expect(out.samples.filter((s) => s.labels.__name__ === 'llm_quality_drift_event' && s.value === 1)).toHaveLength(2 * 30);
  });

  it('steps scores per dimension, skipping NaN and gaps, ignoring unknown dimensions, and reads in hourly chunks', async () => {
    const client = stubClient({
      scores: {
        relevance: (t) => (t >= T0 + 20 * MIN && t < T0 + 25 * MIN ? null : t === T0 + 30 * MIN ? Number.NaN : 0.9),
        bogus: () => 0.1,
      },
    });
    const out = sink();
    const r = new DriftRunner({ client, sink: out, clock: () => T0 });
    await r.replay(T0, T0 + 3 * 60 * MIN - 1);
    expect(r.events(T0, T0 + 3 * 60 * MIN)).toEqual([]);
    const scores = out.samples.filter((s) => s.labels.__name__ === 'llm_quality_drift_score');
    expect(new Set(scores.map((s) => s.labels.dimension))).toEqual(new Set(['relevance']));
    // 180 ticks less the 5-minute gap and the NaN; all of them 0.
    expect(scores).toHaveLength(180 - 5 - 1);
    expect(scores.every((s) => s.value === 0)).toBe(true);
    // Three chunks of an hour, nine queries each.
    expect(client.exprs).toHaveLength(3 * 9);
  });

  it('keeps at most maxEvents, dropping resolved ones first', async () => {
    // A score that falls by 0.2 for 10 minutes in every hour: one drift an hour, each resolved.
    const client = stubClient({ scores: { safety: (t) => (((t - T0) / MIN) % 60 >= 30 && ((t - T0) / MIN) % 60 < 40 ? 0.7 : 0.9) } });
    const r = new DriftRunner({ client, sink: sink(), clock: () => T0, maxEvents: 2 });
    await r.replay(T0, T0 + 5 * 60 * MIN);
    const events = r.events(T0, T0 + 5 * 60 * MIN);
    expect(events).toHaveLength(2);
    // Found on the first low sample (0.175 score-minutes over delta at once): the last two hours' drifts.
    expect(events.map((e) => (e.detectedMs - T0) / MIN)).toEqual([3 * 60 + 30, 4 * 60 + 30]);
  });
});

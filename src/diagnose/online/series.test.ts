import { describe, expect, it } from 'vitest';
import { isStaleNaN } from '../../model/index.js';
import type { Cause, CauseId } from '../types.js';
import { CAUSE_CONFIDENCE_METRIC, INSIGHT_OPEN_METRIC, InsightSeries, type InsightSample } from './series.js';
import type { TrackedInsight } from './tracker.js';

const cause = (id: CauseId, confidence: number): Cause => ({ cause: id, confidence, scope: {}, onsetMs: null, summary: '', evidence: [] });
const insight = (causes: Cause[], resolvedMs: number | null = null): TrackedInsight => ({
  id: 'ttft-00000001-60',
  symptom: 'ttft',
  scope: { endpoint: 'chat', component: 'a' },
  onsetMs: 60_000,
  detectedMs: 75_000,
  resolvedMs,
  causes,
  diagnosedMs: null,
  diagnoses: 0,
});

/** A tick's samples as `name cause=value` lines (`stale` for a stale marker), in order. */
const text = (samples: readonly InsightSample[]): string[] =>
  samples.map((s) => `${s.labels.__name__}${s.labels.cause === undefined ? '' : ` ${s.labels.cause}`}=${isStaleNaN(s.value) ? 'stale' : s.value}`);

describe('InsightSeries', () => {
  it.each([
    [
      'an open insight: open 1 and its three best causes',
      [[insight([cause('kv-cache-pressure', 0.9), cause('load', 0.3), cause('az-traffic-skew', 0.2), cause('none', 0.1)])]],
      [[`${INSIGHT_OPEN_METRIC}=1`, `${CAUSE_CONFIDENCE_METRIC} kv-cache-pressure=0.9`, `${CAUSE_CONFIDENCE_METRIC} load=0.3`, `${CAUSE_CONFIDENCE_METRIC} az-traffic-skew=0.2`]],
    ],
    [
      'a cause that leaves the three gets its stale marker',
      [[insight([cause('load', 0.5)])], [insight([cause('kv-cache-pressure', 0.9)])]],
      [
        [`${INSIGHT_OPEN_METRIC}=1`, `${CAUSE_CONFIDENCE_METRIC} load=0.5`],
        [`${INSIGHT_OPEN_METRIC}=1`, `${CAUSE_CONFIDENCE_METRIC} kv-cache-pressure=0.9`, `${CAUSE_CONFIDENCE_METRIC} load=stale`],
      ],
    ],
  ])('%s', (_name, ticks, want) => {
    const s = new InsightSeries();
    expect(ticks.map((open, n) => text(s.samples(n * 15_000, open, [])))).toEqual(want);
  });

  it('ends every series of a resolved insight with a stale marker, labelled as while it was open', () => {
    const s = new InsightSeries();
    s.samples(0, [insight([cause('load', 0.5)])], []);
    const end = s.samples(15_000, [], [insight([cause('load', 0.5)], 15_000)]);
    expect(text(end)).toEqual([`${INSIGHT_OPEN_METRIC}=stale`, `${CAUSE_CONFIDENCE_METRIC} load=stale`]);
    expect(end[0].labels).toEqual({ __name__: INSIGHT_OPEN_METRIC, endpoint: 'chat', component: 'a', insight: 'ttft-00000001-60', symptom: 'ttft' });
    expect(s.samples(30_000, [], [])).toEqual([]);
  });
});

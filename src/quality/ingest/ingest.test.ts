import { describe, expect, it } from 'vitest';
import type { SeriesSample } from '../../model/index.js';
import { createScoreIngest } from './ingest.js';
import { QualityMetrics } from './metrics.js';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const good = { model: 'm', component: 'c', dimension: 'safety', score: 0.5, evaluator: 'stage2', tMs: T0 } as const;

describe('createScoreIngest', () => {
  it.each([
    ['a score out of range', { score: 1.5 }, /score: 1.5 is not in/],
    ['a future time', { tMs: T0 + 3_600_000 }, /time: is 3600.000 s in the future/],
    ['an unknown dimension', { dimension: 'tone' }, /dimension: must be one of/],
  ])('refuses %s, writing nothing of the batch', async (_name, patch, want) => {
    const written: SeriesSample[] = [];
    const ingest = createScoreIngest(new QualityMetrics({ sink: { write: async (s) => void written.push(...s) }, clock: () => T0 }), () => T0);
    await expect(ingest.ingest([good, { ...good, ...patch } as never])).rejects.toThrow(want);
    expect(written).toEqual([]);
  });

  it('records a good batch and says how many it took', async () => {
    const written: SeriesSample[] = [];
    const ingest = createScoreIngest(new QualityMetrics({ sink: { write: async (s) => void written.push(...s) }, clock: () => T0 }), () => T0);
    expect(await ingest.ingest([good, { ...good, score: 1 }])).toEqual({ accepted: 2 });
    expect(written.find((s) => s.labels.__name__ === 'llm_quality_score')?.value).toBe(0.75);
  });
});

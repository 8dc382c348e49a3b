import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isStaleNaN, noopLogger } from '../../model/index.js';
import { collectSeries } from '../../storage/index.js';
import { openBlock, writeBlock } from './index.js';
import { seriesInput, tempDir } from './testing/helpers.js';
import {
  FIXTURE_CLOCK_MS,
  FIXTURE_MAX_TIME_MS,
  FIXTURE_MIN_TIME_MS,
  FIXTURE_SAMPLES_PER_CHUNK,
  FIXTURE_SERIES,
  fixtureRandom,
} from './testdata/fixture-data.js';

const V1_ID = '01HF859JX0KEVN5G8KVF7WQ96G';
const V1_DIR = fileURLToPath(new URL(`./testdata/v1/${V1_ID}`, import.meta.url));

describe('block format v1 fixture', () => {
  it('opens with the exact meta, labels and samples it was written with', () => {
    const block = openBlock(V1_DIR, noopLogger);
    try {
      expect(block.meta).toEqual({
        version: 1,
        ulid: V1_ID,
        minTimeMs: 1_699_999_200_000,
        maxTimeMs: 1_700_006_400_000,
        stats: { numSeries: 3, numChunks: 6, numSamples: 24 },
        compaction: { level: 1, sources: [V1_ID] },
      });
      const got = collectSeries(block.querier(FIXTURE_MIN_TIME_MS, FIXTURE_MAX_TIME_MS).select([]));
      expect(got.map((s) => s.labels.toString())).toEqual([
        'gpu_memory_used_bytes{gpu="0", instance="node-a:9400"}',
        'llm_requests_total{instance="node-a:8000", model="llama-3-8b"}',
        'up{instance="node-a:8000", job="vllm"}',
      ]);
      got.forEach((s, i) => expect(s.samples).toEqual(FIXTURE_SERIES[i].samples));
      expect(got[1].samples.map((s) => s.tMs - FIXTURE_MIN_TIME_MS)).toEqual([0, 15, 30, 45, 60, 75, 90, 120].map((x) => x * 1000));
      const last = got[2].samples.at(-1)!;
      expect(isStaleNaN(last.value)).toBe(true);
      expect(block.sizeBytes()).toBe(206 + 314 + 295);
    } finally {
      block.close();
    }
  });

  it('is what the current writer still produces, byte for byte', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const meta = await writeBlock(dir, {
        minTimeMs: FIXTURE_MIN_TIME_MS,
        maxTimeMs: FIXTURE_MAX_TIME_MS,
        series: FIXTURE_SERIES.map((s) => seriesInput(s.labels, s.samples, FIXTURE_SAMPLES_PER_CHUNK)),
        clock: () => FIXTURE_CLOCK_MS,
        random: fixtureRandom(),
        logger: noopLogger,
      });
      expect(meta.ulid).toBe(V1_ID);
      for (const file of ['meta.json', 'index', 'chunks/000001']) {
        expect(readFileSync(join(dir, V1_ID, file)), file).toEqual(readFileSync(join(V1_DIR, file)));
      }
      expect(readdirSync(join(dir, V1_ID, 'chunks'))).toEqual(['000001']);
    } finally {
      cleanup();
    }
  });
});

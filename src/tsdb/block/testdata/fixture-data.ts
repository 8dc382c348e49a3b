/**
 * The content of the committed v1 block fixture (`testdata/v1/<ulid>/`), shared by the script that
 * generates it and the test that reads it back. Changing anything here requires regenerating
 * the fixture, which a reviewer sees as a diff of binary files.
 */
import { Labels, STALE_NAN, type Sample } from '../../../model/index.js';
import { seededRandom } from '../testing/helpers.js';

/** The block's range: two hours starting at 2023-11-14T22:00:00Z. */
export const FIXTURE_MIN_TIME_MS = 1_700_000_000_000 - (1_700_000_000_000 % 7_200_000);
/** Exclusive end of the block's range. */
export const FIXTURE_MAX_TIME_MS = FIXTURE_MIN_TIME_MS + 7_200_000;

/** The fixed clock reading used for the block id. */
export const FIXTURE_CLOCK_MS = 1_700_007_300_000;
/** The seed of the random source used for the block id. */
export const FIXTURE_SEED = 42;
/** A fresh copy of the fixture's random source. */
export const fixtureRandom = (): (() => number) => seededRandom(FIXTURE_SEED);

/** Samples per chunk: each series has exactly two chunks. */
export const FIXTURE_SAMPLES_PER_CHUNK = 4;

const t = (i: number): number => FIXTURE_MIN_TIME_MS + i * 15_000;

/** The three series, sorted by labels, with their samples. */
export const FIXTURE_SERIES: readonly { labels: Labels; samples: readonly Sample[] }[] = [
  {
    labels: Labels.from({ __name__: 'gpu_memory_used_bytes', gpu: '0', instance: 'node-a:9400' }),
    samples: [0, 1, 2, 3, 4, 5, 6, 7].map((i) => ({ tMs: t(i), value: 71_500_000_000 + i * 1_048_576.5 })),
  },
  {
    labels: Labels.from({ __name__: 'llm_requests_total', instance: 'node-a:8000', model: 'llama-3-8b' }),
    samples: [0, 1, 2, 3, 4, 5, 6, 8].map((i) => ({ tMs: t(i), value: 1000 + i * i * 3 })),
  },
  {
    labels: Labels.from({ __name__: 'up', instance: 'node-a:8000', job: 'vllm' }),
    samples: [0, 1, 2, 3, 4, 5, 6, 7].map((i) => ({ tMs: t(i) + 7, value: i === 7 ? STALE_NAN : 1 })),
  },
];

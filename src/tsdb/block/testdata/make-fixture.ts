/**
 * Regenerates the committed v1 block fixture under `testdata/v1/`:
 *
 *   node --import tsx src/tsdb/block/testdata/make-fixture.ts
 *
 * Run it only when the block format version changes (then keep the old fixture in its own
 * directory and add the new one beside it); the test in `fixture.test.ts` reads what it writes.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { noopLogger } from '../../../model/index.js';
import { writeBlock } from '../block-writer.js';
import { seriesInput } from '../testing/helpers.js';
import {
  FIXTURE_CLOCK_MS,
  FIXTURE_MAX_TIME_MS,
  FIXTURE_MIN_TIME_MS,
  FIXTURE_SAMPLES_PER_CHUNK,
  FIXTURE_SERIES,
  fixtureRandom,
} from './fixture-data.js';

const outDir = fileURLToPath(new URL('./v1/', import.meta.url));
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const meta = await writeBlock(outDir, {
  minTimeMs: FIXTURE_MIN_TIME_MS,
  maxTimeMs: FIXTURE_MAX_TIME_MS,
  series: FIXTURE_SERIES.map((s) => seriesInput(s.labels, s.samples, FIXTURE_SAMPLES_PER_CHUNK)),
  clock: () => FIXTURE_CLOCK_MS,
  random: fixtureRandom(),
  logger: noopLogger,
});
process.stdout.write(`wrote ${outDir}${meta.ulid}\n`);

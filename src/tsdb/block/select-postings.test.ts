import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Labels, matcher, mulberry32, noopLogger, type Matcher } from '../../model/index.js';
import { openBlock, writeBlock, type Block } from './index.js';
import { regularSamples, seededRandom, seriesInput, tempDir } from './testing/helpers.js';

// 200 series, each optional label present with probability 1/2, samples over [0, 10_000).
const random = mulberry32(11);
const LABELS = Array.from({ length: 200 }, (_, i) => {
  const rec: Record<string, string> = { __name__: i % 3 === 0 ? 'up' : 'm', id: String(i) };
  for (const n of ['job', 'replica', 'az']) if (random() < 0.5) rec[n] = String.fromCharCode(97 + Math.floor(random() * 4));
  return Labels.from(rec);
}).sort((a, b) => a.compare(b));

let block: Block;
let cleanup: () => void = () => undefined;

beforeAll(async () => {
  const tmp = tempDir();
  cleanup = tmp.cleanup;
  const series = LABELS.map((l, i) => seriesInput(l, regularSamples(i * 5, 900, 10, (k) => k), 5));
  const meta = await writeBlock(tmp.dir, { minTimeMs: 0, maxTimeMs: 10_000, series, clock: () => 1_700_000_000_000, random: seededRandom(3), logger: noopLogger });
  block = openBlock(join(tmp.dir, meta.ulid), noopLogger);
});

afterAll(() => {
  (block as Block | undefined)?.close();
  cleanup();
});

describe('block select: cached label!="" answers', () => {
  it.each([
    [[matcher('!=', 'replica', '')]],
    [[matcher('=~', 'replica', '.+')]],
    [[matcher('=', '__name__', 'up'), matcher('!=', 'job', '')]],
    [[matcher('=~', 'az', '.+'), matcher('!=', 'job', ''), matcher('!=', 'replica', 'a')]],
    [[matcher('!=', 'absent', '')]],
  ] as Matcher[][][])('%s: the same series as a label check, on the first and on later selects', (ms) => {
    const want = LABELS.filter((l) => ms.every((m) => m.matches(l.get(m.name)))).map((l) => l.toString());
    for (let round = 0; round < 3; round++) {
      const q = block.querier(0, 10_000);
      const got: string[] = [];
      const set = q.select(ms);
      while (set.next()) got.push(set.at().labels.toString());
      q.close();
      expect(got, `round ${round}`).toEqual(want);
    }
  });
});

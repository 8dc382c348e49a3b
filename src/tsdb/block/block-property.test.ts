import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Labels, matcher, noopLogger, type Matcher, type MatchType, type Sample } from '../../model/index.js';
import { openBlock, writeBlock } from './index.js';
import { seededRandom, selectAll, seriesInput, tempDir } from './testing/helpers.js';

const NAMES = ['__name__', 'a', 'b', 'c'];
const VALUES = ['', 'x', 'y', 'xy', 'z'];
const BLOCK_MAX_MS = 10_000;

const labelsArb = fc
  .record({
    __name__: fc.constantFrom('m1', 'm2', 'm3'),
    a: fc.constantFrom(...VALUES),
    b: fc.constantFrom(...VALUES),
    c: fc.constantFrom(...VALUES),
  })
  .map((r) => Labels.from(r));

const samplesArb = fc
  .uniqueArray(fc.integer({ min: 0, max: BLOCK_MAX_MS - 1 }), { minLength: 0, maxLength: 40 })
  .chain((ts) => fc.array(fc.double(), { minLength: ts.length, maxLength: ts.length }).map((vs) => ts.sort((x, y) => x - y).map((tMs, i): Sample => ({ tMs, value: vs[i] }))));

const seriesSetArb = fc
  .array(fc.tuple(labelsArb, samplesArb, fc.integer({ min: 1, max: 12 })), { maxLength: 25 })
  .map((list) => {
    const byKey = new Map<string, (typeof list)[number]>();
    for (const s of list) byKey.set(s[0].key(), s);
    return [...byKey.values()].sort((x, y) => x[0].compare(y[0]));
  });

const matcherArb = fc
  .tuple(
    fc.constantFrom<MatchType>('=', '!=', '=~', '!~'),
    fc.constantFrom(...NAMES, 'absent'),
    fc.constantFrom('', 'x', 'y', 'm1', 'x|y', 'x.*', '.*', '.+', 'x?y?', 'm[12]', '|z'),
  )
  .map(([type, name, value]) => matcher(type, name, value));

const rangeArb = fc.tuple(fc.integer({ min: -100, max: BLOCK_MAX_MS + 100 }), fc.integer({ min: 0, max: BLOCK_MAX_MS })).map(([a, len]) => [a, a + len] as const);

function matchesAll(labels: Labels, matchers: readonly Matcher[]): boolean {
  return matchers.every((m) => m.matches(labels.get(m.name)));
}

describe('write → open → select', () => {
  it('returns exactly what a reference filter over the input returns', async () => {
    await fc.assert(
      fc.asyncProperty(seriesSetArb, fc.array(fc.tuple(fc.array(matcherArb, { maxLength: 3 }), rangeArb), { minLength: 1, maxLength: 6 }), async (input, queries) => {
        const { dir, cleanup } = tempDir();
        try {
          const series = input.map(([labels, samples, perChunk]) => seriesInput(labels, samples, perChunk));
          const meta = await writeBlock(dir, { minTimeMs: 0, maxTimeMs: BLOCK_MAX_MS, series, clock: () => 1, random: seededRandom(1), logger: noopLogger });
          const block = openBlock(join(dir, meta.ulid), noopLogger);
          try {
            for (const [matchers, [minT, maxT]] of queries) {
              const want = input
                .filter(([labels]) => matchesAll(labels, matchers))
                .map(([labels, samples]) => ({ labels: labels.toString(), samples: samples.filter((s) => s.tMs >= minT && s.tMs <= maxT) }))
                .filter((s) => s.samples.length > 0);
              const q = block.querier(minT, maxT);
              expect(selectAll(q, matchers)).toEqual(want);
              const withData = input.filter(([labels, samples]) => samples.some((s) => s.tMs >= minT && s.tMs <= maxT) && matchesAll(labels, matchers));
              const names = new Set<string>();
              withData.forEach(([labels]) => labels.forEach((n) => names.add(n)));
              expect(q.labelNames(matchers)).toEqual([...names].sort());
              for (const name of NAMES) {
                const values = new Set(withData.map(([labels]) => labels.get(name)).filter((v) => v !== ''));
                expect(q.labelValues(name, matchers)).toEqual([...values].sort());
              }
              q.close();
            }
          } finally {
            block.close();
          }
        } finally {
          cleanup();
        }
      }),
      { numRuns: 60 },
    );
  });
});

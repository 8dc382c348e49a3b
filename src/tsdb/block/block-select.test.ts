import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Labels, collectSamples, matcher, noopLogger, type Matcher, type MatchType } from '../../model/index.js';
import type { Querier } from '../../storage/index.js';
import { openBlock, writeBlock, type Block } from './index.js';
import { regularSamples, seededRandom, selectAll, seriesInput, tempDir } from './testing/helpers.js';

// Six series over [0, 10_000): samples every 100 ms from 1_000 to 8_900, 10 per chunk, except
// `db_up` (one sample at 5_000) and `req{code="500"}` (samples only from 6_000 on).
const T0 = 1_000;
const LABELS = (
  [
    { __name__: 'db_up', job: 'db', instance: 'c', zone: 'z2' },
    { __name__: 'req', job: 'api', code: '200' },
    { __name__: 'req', job: 'api', code: '500' },
    { __name__: 'req', job: 'db', code: '200', foo: 'bar' },
    { __name__: 'up', job: 'api', instance: 'a', zone: 'z1' },
    { __name__: 'up', job: 'api', instance: 'b' },
  ] as Record<string, string>[]
).map((r) => Labels.from(r));

function samplesOf(i: number): { tMs: number; value: number }[] {
  if (i === 0) return [{ tMs: 5_000, value: 1 }];
  if (i === 2) return regularSamples(6_000, 100, 20, (k) => 500 + k);
  return regularSamples(T0, 100, 80, (k) => i * 1000 + k);
}

const NAMES = LABELS.map((l) => l.toString());

/** The label strings of the series with these indexes, in label order (as select returns them). */
function names(indexes: number[]): string[] {
  return indexes
    .map((i) => LABELS[i])
    .sort((a, b) => a.compare(b))
    .map((l) => l.toString());
}

let block: Block;
let cleanup: () => void = () => undefined;

beforeAll(async () => {
  const tmp = tempDir();
  cleanup = tmp.cleanup;
  const series = LABELS.map((l, i) => seriesInput(l, samplesOf(i), 10)).sort((a, b) => a.labels.compare(b.labels));
  const meta = await writeBlock(tmp.dir, { minTimeMs: 0, maxTimeMs: 10_000, series, clock: () => 1_700_000_000_000, random: seededRandom(7), logger: noopLogger });
  block = openBlock(join(tmp.dir, meta.ulid), noopLogger);
});

afterAll(() => {
  // beforeAll may have failed before opening the block; still remove the directory.
  (block as Block | undefined)?.close();
  cleanup();
});

function m(spec: string): Matcher {
  const parsed = /^(\w+)(=~|!~|!=|=)"(.*)"$/.exec(spec);
  if (parsed === null) throw new Error(`bad matcher ${spec}`);
  return matcher(parsed[2] as MatchType, parsed[1], parsed[3]);
}

function selected(q: Querier, specs: string[]): string[] {
  return selectAll(q, specs.map(m)).map((s) => s.labels);
}

const ALL = [0, 1, 2, 3, 4, 5];

describe('select over the whole block', () => {
  it.each<[string[], number[]]>([
    [[], ALL],
    [['__name__="up"'], [4, 5]],
    [['job="api"'], [1, 2, 4, 5]],
    [['job="api"', '__name__="req"'], [1, 2]],
    [['job!="api"'], [0, 3]],
    [['job="nope"'], []],
    [['job=~"api|db"'], ALL],
    [['job=~"a.*"'], [1, 2, 4, 5]],
    [['job=~"[ad].."'], [1, 2, 4, 5]],
    [['job=~"[ad].*"'], ALL],
    [['job!~"a.*"'], [0, 3]],
    [['code=~"2.."'], [1, 3]],
    [['code=~"200|500"', 'job="api"'], [1, 2]],
    [['code!~"200|500"'], [0, 4, 5]],
    [['instance=~".*"'], ALL],
    [['instance=~".+"'], [0, 4, 5]],
    [['instance!~".+"'], [1, 2, 3]],
    [['instance!=""'], [0, 4, 5]],
    [['instance=""'], [1, 2, 3]],
    [['zone=""', '__name__="up"'], [5]],
    [['foo=""'], [0, 1, 2, 4, 5]],
    [['foo="bar"'], [3]],
    [['absent=""'], ALL],
    [['absent!=""'], []],
    [['absent="x"'], []],
    [['absent!="x"'], ALL],
    [['absent=~".*"'], ALL],
    [['absent=~".+"'], []],
    [['absent=~"x|"'], ALL],
    [['zone=~"z1|"'], [1, 2, 3, 4, 5]],
    [['__name__=~"re.*"', 'code!="200"'], [2]],
    [['__name__!~"up|req"', 'job=~".*"'], [0]],
  ])('%j', (specs, want) => {
    const q = block.querier(0, 9_999);
    expect(selected(q, specs)).toEqual(names(want));
    q.close();
  });

  it('returns every sample of a series in order', () => {
    const q = block.querier(-1_000_000, 1_000_000);
    const got = selectAll(q, [m('__name__="up"'), m('instance="a"')]);
    expect(got).toEqual([{ labels: NAMES[4], samples: samplesOf(4) }]);
  });
});

describe('time ranges', () => {
  it.each<[number, number, number[]]>([
    [0, 999, []],
    [5_000, 5_000, [0, 1, 3, 4, 5]],
    [1_000, 5_999, [0, 1, 3, 4, 5]],
    [6_000, 9_999, [1, 2, 3, 4, 5]],
    [8_950, 8_990, []],
    [10_000, 20_000, []],
    [5, 1, []],
  ])('[%d, %d] selects series with a sample in range', (minT, maxT, want) => {
    const q = block.querier(minT, maxT);
    expect(selected(q, [])).toEqual(names(want));
  });

  it('clips samples to the inclusive range, across chunk boundaries', () => {
    const q = block.querier(1_950, 3_050);
    const [s] = selectAll(q, [m('instance="a"')]);
    expect(s.samples).toEqual(samplesOf(4).filter((x) => x.tMs >= 1_950 && x.tMs <= 3_050));
    expect(s.samples[0].tMs).toBe(2_000);
    expect(s.samples.at(-1)?.tMs).toBe(3_000);
  });

  it('decodes a chunk that straddles a narrow range to decide whether a series has data in it', () => {
    // Chunk 3 of each regular series covers [4_000, 4_900]; [4_010, 4_090] holds no sample.
    expect(selected(block.querier(4_010, 4_090), [])).toEqual([]);
    expect(selected(block.querier(4_010, 4_100), [])).toEqual(names([1, 3, 4, 5]));
  });
});

describe('iterators', () => {
  function iter(minT: number, maxT: number) {
    const set = block.querier(minT, maxT).select([m('instance="b"')]);
    expect(set.next()).toBe(true);
    return set.at().iterator();
  }

  it.each<[string, number[], (number | null)[]]>([
    ['seek before the range lands on the first sample in range', [0], [2_000]],
    ['seek into a later chunk skips the chunks before it', [5_450], [5_500]],
    ['seek to an exact timestamp stays on it', [3_300, 3_300, 3_000], [3_300, 3_300, 3_300]],
    ['seek past the range ends iteration', [7_001], [null]],
    ['seek to the last sample in range', [7_000], [7_000]],
  ])('%s', (_name, targets, want) => {
    const it = iter(2_000, 7_000);
    const got = targets.map((t) => (it.seek(t) ? it.at().tMs : null));
    expect(got).toEqual(want);
  });

  it('mixes next and seek, never moving backwards, and stays exhausted', () => {
    const it = iter(2_000, 7_000);
    expect(it.next()).toBe(true);
    expect(it.at().tMs).toBe(2_000);
    expect(it.seek(2_950)).toBe(true);
    expect(it.at().tMs).toBe(3_000);
    expect(it.next()).toBe(true);
    expect(it.at().tMs).toBe(3_100);
    expect(it.seek(1_000)).toBe(true);
    expect(it.at().tMs).toBe(3_100);
    expect(it.seek(6_990)).toBe(true);
    expect(it.next()).toBe(false);
    expect(it.next()).toBe(false);
    expect(it.seek(0)).toBe(false);
    expect(it.err()).toBeNull();
  });

  it('reuses a previous iterator for another series', () => {
    const set = block.querier(0, 9_999).select([m('__name__="up"')]);
    expect(set.next()).toBe(true);
    const first = set.at().iterator();
    expect(collectSamples(first)).toEqual(samplesOf(4));
    expect(set.next()).toBe(true);
    const second = set.at().iterator(first);
    expect(second).toBe(first);
    expect(collectSamples(second)).toEqual(samplesOf(5));
  });
});

describe('label names and values', () => {
  const q = () => block.querier(0, 9_999);

  it('lists every name and value without matchers', () => {
    expect(q().labelNames()).toEqual(['__name__', 'code', 'foo', 'instance', 'job', 'zone']);
    expect(q().labelValues('job')).toEqual(['api', 'db']);
    expect(q().labelValues('__name__')).toEqual(['db_up', 'req', 'up']);
    expect(q().labelValues('absent')).toEqual([]);
  });

  it.each<[string[], string[]]>([
    [['job="db"'], ['__name__', 'code', 'foo', 'instance', 'job', 'zone']],
    [['__name__="up"'], ['__name__', 'instance', 'job', 'zone']],
    [['__name__="up"', 'zone=""'], ['__name__', 'instance', 'job']],
    [['job="none"'], []],
  ])('label names for %j', (specs, want) => {
    expect(q().labelNames(specs.map(m))).toEqual(want);
  });

  it.each<[string, string[], string[]]>([
    ['instance', ['job="api"'], ['a', 'b']],
    ['code', ['job=~".+"'], ['200', '500']],
    ['code', ['job="db"'], ['200']],
    ['zone', ['job!="db"'], ['z1']],
    ['job', ['code=""'], ['api', 'db']],
    ['job', ['absent="x"'], []],
  ])('values of %s for %j', (name, specs, want) => {
    expect(q().labelValues(name, specs.map(m))).toEqual(want);
  });

  it('honours the time range when the querier covers part of the block', () => {
    const late = block.querier(9_000, 9_999);
    expect(late.labelNames()).toEqual([]);
    expect(late.labelValues('job')).toEqual([]);
    const mid = block.querier(8_950, 9_999);
    expect(mid.labelNames()).toEqual([]);
    expect(block.querier(7_950, 8_850).labelValues('code')).toEqual(['200']);
    expect(block.querier(7_850, 8_850).labelValues('code')).toEqual(['200', '500']);
    const narrow = block.querier(8_000, 8_000);
    expect(narrow.labelValues('zone')).toEqual(['z1']);
    expect(narrow.labelValues('code', [m('job="api"')])).toEqual(['200']);
    expect(block.querier(7_900, 7_900).labelValues('code', [m('job="api"')])).toEqual(['200', '500']);
    expect(narrow.labelNames([m('zone=""')])).toEqual(['__name__', 'code', 'foo', 'instance', 'job']);
    expect(block.querier(5_000, 5_000).labelValues('zone')).toEqual(['z1', 'z2']);
    expect(block.querier(5_001, 5_050).labelNames()).toEqual([]);
  });

  it('refuses use after close', () => {
    const closed = q();
    closed.close();
    closed.close();
    expect(() => closed.select([])).toThrow(/after close/);
  });
});

describe('block', () => {
  it('reports its meta and size', () => {
    expect(block.meta).toMatchObject({ version: 1, minTimeMs: 0, maxTimeMs: 10_000, stats: { numSeries: 6, numChunks: 35, numSamples: 341 } });
    expect(block.meta.compaction).toEqual({ level: 1, sources: [block.meta.ulid] });
    expect(block.sizeBytes()).toBeGreaterThan(0);
  });
});

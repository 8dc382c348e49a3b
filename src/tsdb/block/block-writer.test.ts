import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Labels, MemoryLogger, matcher, noopLogger } from '../../model/index.js';
import { collectSeries } from '../../storage/index.js';
import { openBlock, writeBlock, type BlockChunk, type BlockSeriesInput, type WriteBlockOptions } from './index.js';
import { chunkSamples, regularSamples, seededRandom, seriesInput, tempDir } from './testing/helpers.js';

let dir: string;
let cleanup: () => void;

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});

afterEach(() => cleanup());

function options(series: BlockSeriesInput[], extra: Partial<WriteBlockOptions> = {}): WriteBlockOptions {
  return { minTimeMs: 0, maxTimeMs: 100_000, series, clock: () => 1_700_000_000_000, random: seededRandom(9), logger: noopLogger, ...extra };
}

const l = (name: string, extra: Record<string, string> = {}) => Labels.from({ __name__: name, ...extra });
const chunks = (startMs: number, count: number): BlockChunk[] => chunkSamples(regularSamples(startMs, 10, count, (i) => i), 5);

describe('writeBlock', () => {
  it('skips series without chunks and counts what it wrote', async () => {
    const logger = new MemoryLogger();
    const meta = await writeBlock(dir, options([{ labels: l('a'), chunks: [] }, seriesInput(l('b'), regularSamples(0, 10, 12, (i) => i), 5), { labels: l('c'), chunks: [] }], { logger }));
    expect(meta.stats).toEqual({ numSeries: 1, numChunks: 3, numSamples: 12 });
    expect(logger.lines).toEqual([expect.objectContaining({ level: 'info', msg: 'block written', fields: expect.objectContaining({ ulid: meta.ulid, series: 1 }) })]);
    const block = openBlock(join(dir, meta.ulid), noopLogger);
    expect(collectSeries(block.querier(0, 99_999).select([])).map((s) => s.labels.toString())).toEqual(['b']);
    block.close();
  });

  it('writes an empty block that opens and selects nothing', async () => {
    const meta = await writeBlock(dir, options([]));
    const block = openBlock(join(dir, meta.ulid), noopLogger);
    const q = block.querier(0, 99_999);
    expect(collectSeries(q.select([]))).toEqual([]);
    expect(q.labelNames()).toEqual([]);
    expect(q.labelValues('x')).toEqual([]);
    block.close();
  });

  it('splits chunk segment files at the size limit and reads across them', async () => {
    const series = Array.from({ length: 30 }, (_, i) => ({ labels: l('m', { i: String(i).padStart(2, '0') }), chunks: chunks(i, 40) }));
    const meta = await writeBlock(dir, options(series, { chunkFileMaxBytes: 300 }));
    const files = readdirSync(join(dir, meta.ulid, 'chunks'));
    expect(files.length).toBeGreaterThan(10);
    expect(files[0]).toBe('000001');
    const block = openBlock(join(dir, meta.ulid), noopLogger);
    const got = collectSeries(block.querier(0, 99_999).select([]));
    expect(got.map((s) => s.samples)).toEqual(series.map((s) => regularSamples(Number(s.labels.get('i')), 10, 40, (i) => i)));
    block.close();
  });

  it('puts a chunk larger than the limit in a file of its own', async () => {
    const meta = await writeBlock(dir, options([{ labels: l('a'), chunks: chunkSamples(regularSamples(0, 10, 100, Math.sqrt), 100) }], { chunkFileMaxBytes: 16 }));
    expect(readdirSync(join(dir, meta.ulid, 'chunks'))).toEqual(['000001']);
  });

  it.each<[string, BlockSeriesInput[], RegExp]>([
    ['series out of order', [{ labels: l('b'), chunks: chunks(0, 5) }, { labels: l('a'), chunks: chunks(0, 5) }], /series out of order/],
    ['duplicate series', [{ labels: l('a'), chunks: chunks(0, 5) }, { labels: l('a'), chunks: chunks(100, 5) }], /series out of order/],
    ['overlapping chunks', [{ labels: l('a'), chunks: [...chunks(0, 5), ...chunks(40, 5)] }], /overlap/],
    ['chunks out of order', [{ labels: l('a'), chunks: [...chunks(100, 5), ...chunks(0, 5)] }], /overlap or are out of order/],
    ['chunk before the block', [{ labels: l('a'), chunks: chunks(-10, 5) }], /outside the block/],
    ['chunk ending at the exclusive end', [{ labels: l('a'), chunks: chunks(99_960, 5) }], /outside the block/],
    ['unknown encoding', [{ labels: l('a'), chunks: [{ ...chunks(0, 5)[0], encoding: 2 }] }], /unknown chunk encoding 2/],
    ['inverted chunk range', [{ labels: l('a'), chunks: [{ ...chunks(0, 5)[0], minTimeMs: 50, maxTimeMs: 40 }] }], /invalid chunk range/],
  ])('rejects %s and leaves nothing behind', async (_name, series, error) => {
    await expect(writeBlock(dir, options(series))).rejects.toThrow(error);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each<[number, number]>([
    [10, 10],
    [10, 5],
    [1.5, 10],
  ])('rejects the block range [%d, %d)', async (minTimeMs, maxTimeMs) => {
    await expect(writeBlock(dir, options([], { minTimeMs, maxTimeMs }))).rejects.toThrow(/invalid range/);
  });

  it('stores labels with unicode, long values and many labels', async () => {
    const big: Record<string, string> = { __name__: 'wide', emoji: '🚀 ünïcødé', long: 'x'.repeat(5000) };
    for (let i = 0; i < 60; i++) big[`l${String(i).padStart(2, '0')}`] = `v${i}`;
    const meta = await writeBlock(dir, options([{ labels: Labels.from(big), chunks: chunks(0, 3) }]));
    const block = openBlock(join(dir, meta.ulid), noopLogger);
    const [s] = collectSeries(block.querier(0, 99_999).select([]));
    expect(s.labels.toRecord()).toEqual(big);
    expect(block.querier(0, 99_999).labelValues('emoji')).toEqual(['🚀 ünïcødé']);
    block.close();
  });
});

describe('blocks larger than the read windows', () => {
  it('selects correctly when series, postings and chunks span many 64 KiB windows', async () => {
    const n = 4000;
    const name = (i: number) => `host-${String(i).padStart(5, '0')}.${'long-domain-name.'.repeat(3)}example`;
    const series = Array.from({ length: n }, (_, i) => ({
      labels: Labels.from({ __name__: 'm', instance: name(i), shard: String(i % 7) }),
      chunks: chunkSamples(regularSamples(i, 1000, 30, (k) => i + k / 8), 10),
    }));
    const meta = await writeBlock(dir, options(series));
    const block = openBlock(join(dir, meta.ulid), noopLogger);
    try {
      const q = block.querier(0, 99_999);
      const all = collectSeries(q.select([]));
      expect(all.length).toBe(n);
      expect(all[n - 1].samples).toEqual(regularSamples(n - 1, 1000, 30, (k) => n - 1 + k / 8));
      const some = collectSeries(q.select([matcher('=~', 'instance', `host-0(01|17|39)..\\..*`), matcher('!=', 'shard', '3')]));
      const want = series.filter((s) => /^host-0(01|17|39)/.test(s.labels.get('instance')) && s.labels.get('shard') !== '3');
      expect(some.map((s) => s.labels.get('instance'))).toEqual(want.map((s) => s.labels.get('instance')));
      expect(some.length).toBeGreaterThan(200);
      expect(q.labelValues('instance').length).toBe(n);
      expect(q.labelValues('shard', [matcher('=', 'instance', name(3999))])).toEqual(['2']);
    } finally {
      block.close();
    }
  });
});

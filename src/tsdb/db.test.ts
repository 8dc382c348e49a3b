import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../model/testing/cleanups.js';
import { Labels, MemoryLogger, STALE_NAN, isStaleNaN, matcher, mulberry32 } from '../model/index.js';
import { collectSeries } from '../storage/index.js';
import { runAppenderSuite, runQuerierSuite, type AppenderUnderTest } from '../storage/testing/index.js';
import { Db } from './db.js';
import type { DbOptions } from './db-options.js';
import { tempDir } from './testing/temp-dir.js';

const HOUR = 3_600_000;
const cleanups = useCleanups();

function openDb(dir: string, extra: Partial<DbOptions> = {}): Promise<Db> {
  return Db.open({ dir, fsync: { mode: 'never' }, clock: () => 1_700_000_000_000, random: mulberry32(42), ...extra });
}

async function underTest(dir: string): Promise<AppenderUnderTest> {
  const db = await openDb(dir);
  return {
    appendable: db,
    read: (ms, minT, maxT) => {
      const q = db.querier(minT, maxT);
      try {
        return Promise.resolve(collectSeries(q.select(ms)));
      } finally {
        q.close();
      }
    },
    reopen: async () => {
      await db.close();
      return underTest(dir);
    },
    close: () => db.close(),
  };
}

runAppenderSuite(
  'tsdb (WAL + head + blocks)',
  () => {
    const t = tempDir('db-suite');
    cleanups.push(t.remove);
    return underTest(t.dir);
  },
  { validatesOrder: true, persistent: true },
);

runQuerierSuite('tsdb after restart (WAL replay)', async (data) => {
  const t = tempDir('db-q');
  let db = await openDb(t.dir);
  const app = db.appender();
  for (const s of data) for (const x of s.samples) app.append(0, s.labels, x.tMs, x.value);
  await app.commit();
  await db.close();
  db = await openDb(t.dir);
  return {
    queryable: db,
    close: async () => {
      await db.close();
      t.remove();
    },
  };
});

runQuerierSuite('tsdb with blocks and head', async (data) => {
  const t = tempDir('db-qb');
  // Tiny blocks so that the data set (50 min) spans several blocks plus the head.
  const db = await openDb(t.dir, { blockRangeMs: 10 * 60_000, retentionMs: 0 });
  const app = db.appender();
  for (const s of data) for (const x of s.samples) app.append(0, s.labels, x.tMs, x.value);
  await app.commit();
  await db.compact();
  expect(db.stats().blocks.count).toBeGreaterThan(1);
  return {
    queryable: db,
    close: async () => {
      await db.close();
      t.remove();
    },
  };
});

/** Appends `n` scrapes of `series` series at `stepMs`, starting at `startMs`. */
async function fill(db: Db, series: number, startMs: number, n: number, stepMs = 15_000): Promise<void> {
  const labels = Array.from({ length: series }, (_, i) => Labels.from({ __name__: 'fill_metric', series: String(i) }));
  for (let k = 0; k < n; k++) {
    const app = db.appender();
    for (let i = 0; i < series; i++) app.append(0, labels[i], startMs + k * stepMs, k * 10 + i);
    await app.commit();
  }
}

function countSamples(db: Db, minT = -Infinity, maxT = Infinity): number {
  const q = db.querier(minT, maxT);
  try {
    return collectSeries(q.select([matcher('=', '__name__', 'fill_metric')])).reduce((n, s) => n + s.samples.length, 0);
  } finally {
    q.close();
  }
}

describe('tsdb persistence', () => {
  it('cuts blocks from the head, checkpoints the WAL and restarts from blocks + head', async () => {
    const t = tempDir('db-cut');
    cleanups.push(t.remove);
    const logger = new MemoryLogger();
    let db = await openDb(t.dir, { logger, retentionMs: 0 });
    await fill(db, 20, 0, 8 * 240); // 8 h at 15 s
    await db.compact();
    const stats = db.stats();
    // [0,2h), [2h,4h), [4h,6h): the head keeps what is within 1.5 ranges of its newest sample.
    expect(stats.blocks.count).toBe(3);
    expect(stats.head.minTimeMs).toBeGreaterThanOrEqual(6 * HOUR);
    expect(countSamples(db)).toBe(20 * 8 * 240);
    const walFiles = fs.readdirSync(path.join(t.dir, 'wal'));
    expect(walFiles.some((f) => f.startsWith('checkpoint.'))).toBe(true);
    await db.close();

    db = await openDb(t.dir, { logger, retentionMs: 0 });
    cleanups.push(() => db.close());
    expect(db.stats().blocks.count).toBe(3);
    expect(countSamples(db)).toBe(20 * 8 * 240);
    // Samples already persisted in blocks were not replayed into the head again.
    expect(db.replay.samples).toBeLessThanOrEqual(20 * 2 * 240);
    // Appends older than the head's range are out of bounds; newer ones work.
    const app = db.appender();
    expect(() => app.append(0, Labels.from({ __name__: 'fill_metric', series: '0' }), HOUR, 1)).toThrow(/out of bounds/);
    app.append(0, Labels.from({ __name__: 'fill_metric', series: '0' }), 8 * HOUR + 1000, 1);
    await app.commit();
    expect(countSamples(db)).toBe(20 * 8 * 240 + 1);
  });

  it('restarts from the head-chunks log and a checkpoint without re-encoding what they hold', async () => {
    const t = tempDir('db-ckpt');
    cleanups.push(t.remove);
    let db = await openDb(t.dir, { walCheckpointBytes: 64 * 1024, walSegmentBytes: 32 * 1024 });
    await fill(db, 30, 0, 400); // 100 min at 15 s: three sealed chunks per series and an open one
    expect(db.stats().checkpoints.count).toBeGreaterThan(0);
    expect(db.stats().blocks.count).toBe(0);
    await db.close();
    db = await openDb(t.dir);
    cleanups.push(() => db.close());
    expect(countSamples(db)).toBe(30 * 400);
    // Sealed chunks come from chunks_head, open ones from the checkpoint: only the WAL written
    // after the last checkpoint is replayed sample by sample.
    expect(db.replay.chunksLoaded).toBeGreaterThanOrEqual(30 * 3);
    expect(db.replay.samples).toBeLessThan(30 * 400 / 4);
    // The newest sample's value is known again (decoded lazily from a loaded chunk): an exact
    // repeat is ignored, a different value at the same time is a duplicate.
    const lastT = 399 * 15_000;
    const l0 = Labels.from({ __name__: 'fill_metric', series: '0' });
    const dup = db.appender();
    expect(dup.append(0, l0, lastT, 3990)).toBeGreaterThan(0);
    expect(() => dup.append(0, l0, lastT, 1)).toThrow(/duplicate sample/);
    dup.rollback();
    // Appends continue the resumed open chunks.
    await fill(db, 30, 400 * 15_000, 10);
    expect(countSamples(db)).toBe(30 * 410);
  });

  it('applies time retention by whole blocks', async () => {
    const t = tempDir('db-ret');
    cleanups.push(t.remove);
    const db = await openDb(t.dir, { retentionMs: 4 * HOUR });
    cleanups.push(() => db.close());
    await fill(db, 5, 0, 12 * 240);
    await db.compact();
    const blocks = db.blocks.map((p) => [p.block.meta.minTimeMs / HOUR, p.block.meta.maxTimeMs / HOUR]);
    // The newest block ends at 10 h (the head keeps more than 1.5 ranges); blocks ending 4 h or more before are gone.
    expect(blocks).toEqual([[6, 8], [8, 10]]);
    expect(fs.readdirSync(t.dir).filter((f) => !['wal', 'chunks_head', 'lock'].includes(f))).toHaveLength(2);
    expect(countSamples(db, 0, 6 * HOUR - 1)).toBe(0);
  });

  it('applies size retention', async () => {
    const t = tempDir('db-size');
    cleanups.push(t.remove);
    const db = await openDb(t.dir, { retentionMs: 0, retentionBytes: 1 });
    cleanups.push(() => db.close());
    await fill(db, 5, 0, 8 * 240);
    await db.compact();
    expect(db.stats().blocks.count).toBe(0);
    expect(db.stats().compaction.blocksDeleted).toBeGreaterThan(0);
  });

  it('keeps a block readable by an open querier while retention deletes it', async () => {
    const t = tempDir('db-pin');
    cleanups.push(t.remove);
    const db = await openDb(t.dir, { retentionMs: 0 });
    cleanups.push(() => db.close());
    await fill(db, 3, 0, 8 * 240);
    await db.compact();
    const q = db.querier(0, HOUR);
    const set = q.select([matcher('=', 'series', '1')]);
    (db.options as { retentionBytes: number }).retentionBytes = 1;
    await db.compact();
    expect(db.stats().blocks.count).toBe(0);
    const got = collectSeries(set);
    expect(got[0].samples.length).toBe(241); // [0, 1 h] at 15 s, both ends inclusive
    q.close();
  });

  it('keeps the stale marker bit-exact through WAL, block and restart', async () => {
    const t = tempDir('db-stale');
    cleanups.push(t.remove);
    let db = await openDb(t.dir, { retentionMs: 0 });
    const l = Labels.from({ __name__: 'stale_me' });
    const app = db.appender();
    app.append(0, l, 1000, 1);
    app.append(0, l, 2000, STALE_NAN);
    await app.commit();
    await fill(db, 1, 0, 4 * 240);
    await db.compact();
    expect(db.stats().blocks.count).toBe(1);
    await db.close();
    db = await openDb(t.dir);
    cleanups.push(() => db.close());
    const q = db.querier(0, 10_000);
    const [s] = collectSeries(q.select([matcher('=', '__name__', 'stale_me')]));
    q.close();
    expect(s.samples.map((x) => x.tMs)).toEqual([1000, 2000]);
    expect(isStaleNaN(s.samples[1].value)).toBe(true);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../model/testing/cleanups.js';
import { Labels, MemoryLogger, matcher } from '../model/index.js';
import { StorageError, StorageErrorCode, collectSeries } from '../storage/index.js';
import { Db } from './db.js';
import type { DbOptions } from './db-options.js';
import { tempDir } from './testing/temp-dir.js';
import { FaultyFs } from './wal/testing/faulty-fs.js';
import type { FsyncPolicy, IntervalScheduler } from './wal/index.js';

const cleanups = useCleanups();

const SERIES = 3;
const LABELS = Array.from({ length: SERIES }, (_, i) => Labels.from({ __name__: 'fault_metric', series: String(i) }));

/** A Db over a fault-injecting port, with a hand-driven clock and fsync timer. */
async function openFaulty(policy: FsyncPolicy, extra: Partial<DbOptions> = {}) {
  const t = tempDir('db-faults');
  cleanups.push(t.remove);
  const faults = new FaultyFs();
  const logger = new MemoryLogger();
  let nowMs = 1_700_000_000_000;
  const timers: (() => void)[] = [];
  const fsyncScheduler: IntervalScheduler = {
    every(_ms, fn) {
      timers.push(fn);
      return { cancel: () => timers.splice(timers.indexOf(fn), 1) };
    },
  };
  const db = await Db.open({ dir: t.dir, fsync: policy, retentionMs: 0, logger, fs: faults, fsyncScheduler, clock: () => nowMs, ...extra });
  cleanups.push(() => db.close());
  return {
    dir: t.dir,
    db,
    faults,
    logger,
    tick: () => timers.forEach((fn) => fn()),
    advance: (ms: number) => (nowMs += ms),
  };
}

/** Commits scrape `k`: one sample per series at `k` s with value `k`. */
async function commit(db: Db, k: number): Promise<void> {
  const app = db.appender();
  for (const l of LABELS) app.append(0, l, k * 1000, k);
  await app.commit();
}

/** Commits scrape `k` and returns the error code it was refused with, or 'ok'. */
async function tryCommit(db: Db, k: number): Promise<string> {
  try {
    await commit(db, k);
    return 'ok';
  } catch (e) {
    expect(e).toBeInstanceOf(StorageError);
    return (e as StorageError).code;
  }
}

/** The scrapes every series holds, checking that the series agree and hold no repeats. */
function scrapes(db: Db): number[] {
  const q = db.querier(-Infinity, Infinity);
  try {
    const got = collectSeries(q.select([matcher('=', '__name__', 'fault_metric')]));
    const lists = got.map((s) => s.samples.map((x) => x.tMs / 1000));
    for (const l of lists) expect(l).toEqual(lists[0]);
    return lists[0] ?? [];
  } finally {
    q.close();
  }
}

/** What a restart would find if the process died now: a copy of the directory, opened. */
async function scrapesAfterCrash(dir: string, patch?: (copy: string) => void): Promise<number[]> {
  const copy = tempDir('db-faults-crash');
  cleanups.push(copy.remove);
  fs.cpSync(dir, copy.dir, { recursive: true });
  fs.rmSync(path.join(copy.dir, 'lock'), { force: true }); // the live process holds the original
  patch?.(copy.dir);
  const db = await Db.open({ dir: copy.dir, fsync: { mode: 'never' }, retentionMs: 0 });
  try {
    return scrapes(db);
  } finally {
    await db.close();
  }
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const UNAVAILABLE = StorageErrorCode.UNAVAILABLE;

describe('Db under a failing file system', () => {
  it.each<[string, FsyncPolicy, (f: FaultyFs) => void]>([
    ['a full disk (always)', { mode: 'always' }, (f) => f.diskFull()],
    ['a full disk (interval)', { mode: 'interval', intervalMs: 1000 }, (f) => f.diskFull()],
    ['a full disk after a few bytes (never)', { mode: 'never' }, (f) => f.diskFull(20)],
    ['EIO on every WAL write', { mode: 'always' }, (f) => f.inject({ op: 'write', path: '/wal/', code: 'EIO' })],
    ['EIO on every WAL fsync', { mode: 'always' }, (f) => f.inject({ op: 'fsync', path: '/wal/', code: 'EIO' })],
    ['ENOSPC from fsync (thin provisioning, NFS)', { mode: 'always' }, (f) => f.inject({ op: 'fsync', code: 'ENOSPC' })],
  ])('%s: commits fail with ERR_STORAGE_UNAVAILABLE, queries keep serving, and writes resume without a restart', async (_name, policy, arm) => {
    const { dir, db, faults, advance } = await openFaulty(policy);
    for (const k of range(0, 4)) await commit(db, k);
    arm(faults);
    expect(await tryCommit(db, 5)).toBe(UNAVAILABLE);
    advance(5000);
    expect(await tryCommit(db, 6)).toBe(UNAVAILABLE); // the recovery attempt fails too while the fault lasts
    expect(scrapes(db)).toEqual(range(0, 4)); // nothing refused is visible
    expect(await scrapesAfterCrash(dir)).toEqual(range(0, 4));
    faults.clear(); // space returns
    advance(5000);
    expect(await tryCommit(db, 7)).toBe('ok');
    expect(await tryCommit(db, 8)).toBe('ok');
    expect(scrapes(db)).toEqual([...range(0, 4), 7, 8]);
    expect(await scrapesAfterCrash(dir)).toEqual([...range(0, 4), 7, 8]);
  });

  it('after a failed fsync, the fsync is never retried: the recovery rewrites the head from memory, at most once a second', async () => {
    const { dir, db, faults, advance } = await openFaulty({ mode: 'always' });
    await commit(db, 0);
    faults.inject({ op: 'fsync', path: '/wal/', code: 'EIO', times: 1, loseUnsynced: true });
    expect(await tryCommit(db, 1)).toBe(UNAVAILABLE);
    // The fault is gone. The next commit first recovers (a checkpoint written from memory and
    // synced, replacing the failed segment), then goes through.
    expect(await tryCommit(db, 2)).toBe('ok');
    expect(fs.readdirSync(path.join(dir, 'wal')).filter((n) => n.startsWith('checkpoint.'))).toHaveLength(1);
    faults.inject({ op: 'fsync', path: '/wal/', code: 'EIO', times: 1 });
    expect(await tryCommit(db, 3)).toBe(UNAVAILABLE);
    advance(500);
    expect(await tryCommit(db, 4)).toBe(UNAVAILABLE); // within a second of the last attempt: no new one
    advance(600);
    expect(await tryCommit(db, 5)).toBe('ok');
    expect(await scrapesAfterCrash(dir)).toEqual([0, 2, 5]);
  });

  it('interval: a failed background fsync refuses the next commits until a checkpoint from memory made them durable again', async () => {
    const { dir, db, faults, tick, advance, logger } = await openFaulty({ mode: 'interval', intervalMs: 1000 });
    for (const k of range(0, 2)) await commit(db, k);
    tick();
    for (const k of range(3, 4)) await commit(db, k); // acknowledged, not yet synced
    faults.inject({ op: 'fsync', path: '/wal/', code: 'EIO', loseUnsynced: true });
    tick(); // fails in the background; the kernel dropped the pages of scrapes 3 and 4
    // Retrying that fsync would "succeed" and lose 3 and 4 for good; a restart now shows the loss.
    expect(await scrapesAfterCrash(dir)).toEqual(range(0, 2));
    expect(await tryCommit(db, 5)).toBe(UNAVAILABLE); // the recovery's own fsync fails too
    advance(2000);
    expect(await tryCommit(db, 6)).toBe(UNAVAILABLE);
    faults.clear();
    advance(2000);
    expect(await tryCommit(db, 7)).toBe('ok'); // recovered first: the checkpoint holds 0..4 from memory
    expect(await scrapesAfterCrash(dir)).toEqual([...range(0, 4), 7]);
    expect(logger.lines.some((l) => l.msg.startsWith('wal: recovered from an I/O error'))).toBe(true);
  });

  it('the background maintenance recovers the WAL without a commit', async () => {
    const { dir, db, faults, tick } = await openFaulty({ mode: 'interval', intervalMs: 1000 });
    await commit(db, 0);
    faults.inject({ op: 'fsync', path: '/wal/', code: 'EIO', times: 1, loseUnsynced: true });
    tick();
    expect(db.wal.needsRecovery).toBe(true);
    await db.compact(); // what the 60 s timer runs
    expect(db.wal.needsRecovery).toBe(false);
    expect(await scrapesAfterCrash(dir)).toEqual([0]);
  });

  it('a failed fsync of the head-chunks log never fails a commit; its chunks are rewritten, and no chunk is lost or doubled', async () => {
    const { dir, db, faults } = await openFaulty({ mode: 'interval', intervalMs: 1000 });
    for (const k of range(0, 299)) await commit(db, k); // two sealed chunks per series
    faults.inject({ op: 'fsync', path: '/chunks_head/', code: 'EIO', times: 1 });
    expect(() => db.checkpoint()).toThrow(/EIO/); // syncs the head-chunks log first: fails
    const chunksDir = path.join(dir, 'chunks_head');
    const failedSegment = fs.readdirSync(chunksDir).sort().at(-1) ?? '';
    const failedBytes = fs.readFileSync(path.join(chunksDir, failedSegment));
    expect(failedBytes.length).toBeGreaterThan(1000); // it holds the chunks
    for (const k of range(300, 309)) await commit(db, k);
    expect(await scrapesAfterCrash(dir)).toEqual(range(0, 309)); // the WAL still holds everything
    db.checkpoint(); // rewrites the failed segment's chunks, syncs them, deletes the segment
    expect(fs.existsSync(path.join(chunksDir, failedSegment))).toBe(false);
    for (const k of range(310, 319)) await commit(db, k);
    expect(await scrapesAfterCrash(dir)).toEqual(range(0, 319));
    // A crash between the rewrite's sync and the deletion: both copies of each chunk are there.
    expect(await scrapesAfterCrash(dir, (copy) => fs.writeFileSync(path.join(copy, 'chunks_head', failedSegment), failedBytes))).toEqual(range(0, 319));
  });

  it('a head-chunks log recovering after a block cut rewrites only the chunks still in the head', async () => {
    const { dir, db, faults, logger } = await openFaulty({ mode: 'interval', intervalMs: 1000 }, { blockRangeMs: 60_000 });
    for (const k of range(0, 99)) await commit(db, k);
    faults.inject({ op: 'fsync', path: '/chunks_head/', code: 'EIO', times: 1 });
    expect(() => db.checkpoint()).toThrow(/EIO/);
    for (const k of range(100, 199)) await commit(db, k);
    // The cut frees the chunks of its range from the head, then the log's flush recovers: the
    // freed chunks are in the block, so the rewrite skips them.
    await db.compact();
    expect(db.blocks.length).toBeGreaterThan(0);
    // The failed segment held the first range's chunks only (sealed at 60 s): none is rewritten.
    expect(logger.lines.filter((l) => l.msg.startsWith('head chunks log: rewriting')).map((l) => l.fields.chunks)).toEqual([0]);
    for (const k of range(200, 209)) await commit(db, k);
    db.checkpoint();
    expect(scrapes(db)).toEqual(range(0, 209));
    expect(await scrapesAfterCrash(dir)).toEqual(range(0, 209));
  });

  it('close on a full disk still closes every file and releases the lock; a reopen finds everything acknowledged', async () => {
    const { dir, db, faults, logger } = await openFaulty({ mode: 'interval', intervalMs: 1000 });
    for (const k of range(0, 249)) await commit(db, k); // sealed chunks wait in the head-chunks log's buffer
    faults.diskFull();
    await db.close();
    expect(logger.lines.some((l) => l.msg === 'tsdb: closing a log failed')).toBe(true);
    const again = await Db.open({ dir, fsync: { mode: 'never' }, retentionMs: 0 });
    cleanups.push(() => again.close());
    expect(scrapes(again)).toEqual(range(0, 249));
  });
});

import { describe, expect, it } from 'vitest';
import { useCleanups } from '../model/testing/cleanups.js';
import { Labels, MemoryLogger, mulberry32 } from '../model/index.js';
import { ChangeLog } from './db-changes.js';
import { Db } from './db.js';
import type { DbOptions } from './db-options.js';
import { tempDir } from './testing/temp-dir.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const cleanups = useCleanups();

/** A change log on a clock that the test moves. */
function log(slots = 8, coalesceMs = 100): { log: ChangeLog; tick: (ms: number) => void } {
  let now = 0;
  return { log: new ChangeLog({ slots, coalesceMs, clock: () => now }), tick: (ms) => (now += ms) };
}

describe('ChangeLog', () => {
  it('answers the least commit time after a mark, and nothing at the newest mark', () => {
    const { log: c, tick } = log();
    expect(c.since(0)).toEqual({ minTMs: Infinity, deletedBeforeMs: -Infinity, headCut: false });
    c.noteCommit(500);
    tick(1000);
    const mark = c.seq();
    c.noteCommit(900);
    tick(1000);
    c.noteCommit(700);
    expect(c.since(mark)).toEqual({ minTMs: 700, deletedBeforeMs: -Infinity, headCut: false });
    expect(c.since(0).minTMs).toBe(500);
    expect(c.since(c.seq()).minTMs).toBe(Infinity);
  });

  it('reports deletions and head cuts after the mark', () => {
    const { log: c, tick } = log();
    c.noteHeadCut();
    tick(1000);
    const mark = c.seq();
    c.noteDeletion(2 * HOUR);
    tick(1000);
    c.noteDeletion(HOUR);
    expect(c.since(mark)).toEqual({ minTMs: Infinity, deletedBeforeMs: 2 * HOUR, headCut: false });
    expect(c.since(0).headCut).toBe(true);
  });

  it('is conservative for a mark inside a coalesced slot', () => {
    const { log: c, tick } = log();
    c.noteCommit(100);
    tick(10); // same slot
    const mark = c.seq();
    c.noteCommit(900);
    expect(c.since(mark).minTMs).toBe(100); // the slot's min: lower than the truth, never higher
  });

  it('folds the oldest slots when full, so old marks get lower answers, never higher', () => {
    const { log: c, tick } = log(4);
    const marks: number[] = [];
    const times = [50, 400, 300, 200, 100, 600, 700];
    for (const t of times) {
      marks.push(c.seq());
      c.noteCommit(t);
      tick(1000);
    }
    marks.forEach((m, i) => {
      const truth = Math.min(...times.slice(i));
      expect(c.since(m).minTMs).toBeLessThanOrEqual(truth);
    });
    // The newest marks are exact.
    expect(c.since(marks[6]).minTMs).toBe(700);
    expect(c.since(marks[5]).minTMs).toBe(600);
  });
});

describe('Db change feed', () => {
  const L = Labels.from({ __name__: 'feed_metric', job: 'x' });
  let now = 1_700_000_000_000;
  const open = async (extra: Partial<DbOptions> = {}): Promise<Db> => {
    const t = tempDir('db-changes');
    cleanups.push(t.remove);
    const db = await Db.open({ dir: t.dir, fsync: { mode: 'never' }, clock: () => (now += 1000), random: mulberry32(7), logger: new MemoryLogger(), ...extra });
    cleanups.push(() => db.close());
    return db;
  };
  const append = async (db: Db, samples: [number, number][]): Promise<void> => {
    const app = db.appender();
    for (const [t, v] of samples) app.append(0, L, t, v);
    await app.commit();
  };

  it('notes each commit with its least sample time, in order and out of order', async () => {
    const db = await open({ outOfOrderWindowMs: HOUR });
    await append(db, [[10 * MIN, 1], [20 * MIN, 2]]);
    const mark = db.changes.seq();
    expect(db.changes.since(mark).minTMs).toBe(Infinity);
    await append(db, [[30 * MIN, 3]]);
    expect(db.changes.since(mark).minTMs).toBe(30 * MIN);
    await append(db, [[15 * MIN, 1.5]]); // out of order
    expect(db.changes.since(mark).minTMs).toBe(15 * MIN);
    const rolledBack = db.appender();
    rolledBack.append(0, L, MIN, 0);
    rolledBack.rollback();
    expect(db.changes.since(mark).minTMs).toBe(15 * MIN);
  });

  it('notes retention deletions and head cuts in the turn they happen', async () => {
    const db = await open({ blockRangeMs: HOUR, retentionMs: 2 * HOUR });
    const mark = db.changes.seq();
    const samples: [number, number][] = [];
    for (let t = 0; t <= 6 * HOUR; t += 5 * MIN) samples.push([t, t]);
    await append(db, samples);
    await db.compact();
    const c = db.changes.since(mark);
    expect(c.headCut).toBe(true);
    expect(db.stats().compaction.blocksDeleted).toBeGreaterThan(0);
    // Retention deletes the oldest blocks: everything below the oldest block left may be gone.
    expect(c.deletedBeforeMs).toBe(Math.min(...db.blocks.map((p) => p.block.meta.minTimeMs)));
    expect(c.deletedBeforeMs).toBeGreaterThan(0);
  });
});

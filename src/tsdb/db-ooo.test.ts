import { describe, expect, it } from 'vitest';
import { useCleanups } from '../model/testing/cleanups.js';
import { Labels, MemoryLogger, matcher } from '../model/index.js';
import { StorageErrorCode, collectSeries } from '../storage/index.js';
import { Db } from './db.js';
import type { DbOptions } from './db-options.js';
import { tempDir } from './testing/temp-dir.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const cleanups = useCleanups();

async function open(dir: string, extra: Partial<DbOptions> = {}): Promise<Db> {
  const db = await Db.open({ dir, fsync: { mode: 'never' }, outOfOrderWindowMs: 30 * MIN, retentionMs: 0, logger: new MemoryLogger(), ...extra });
  cleanups.push(() => db.close());
  return db;
}

const L = Labels.from({ __name__: 'ooo_metric', job: 'x' });

async function append(db: Db, samples: [number, number][], labels = L): Promise<void> {
  const app = db.appender();
  for (const [t, v] of samples) app.append(0, labels, t, v);
  await app.commit();
}

function read(db: Db, minT = 0, maxT = 10 * HOUR): [number, number][] {
  const q = db.querier(minT, maxT);
  try {
    return collectSeries(q.select([matcher('=', '__name__', 'ooo_metric')])).flatMap((s) => s.samples.map((x): [number, number] => [x.tMs, x.value]));
  } finally {
    q.close();
  }
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return undefined;
}

describe('out-of-order window', () => {
  it('accepts samples behind the newest one within the window and reads them merged', async () => {
    const t = tempDir('ooo');
    cleanups.push(t.remove);
    const db = await open(t.dir);
    await append(db, [[40 * MIN, 4], [50 * MIN, 5]]);
    await append(db, [[45 * MIN, 4.5], [25 * MIN, 2.5]]);
    expect(read(db)).toEqual([[25 * MIN, 2.5], [40 * MIN, 4], [45 * MIN, 4.5], [50 * MIN, 5]]);
    expect(read(db, 41 * MIN, 46 * MIN)).toEqual([[45 * MIN, 4.5]]);
    const app = db.appender();
    expect(app.append(0, L, 45 * MIN, 4.5)).toBeGreaterThan(0); // exact repeat: ignored
    expect(codeOf(() => app.append(0, L, 45 * MIN, 9))).toBe(StorageErrorCode.DUPLICATE_SAMPLE_FOR_TIMESTAMP);
    expect(codeOf(() => app.append(0, L, 10 * MIN, 1))).toBe(StorageErrorCode.TOO_OLD_SAMPLE);
    app.rollback();
    expect(db.stats().head.oooAppended).toBe(2);
  });

  it('treats an out-of-order sample at an existing timestamp as a repeat or a duplicate', async () => {
    const t = tempDir('ooo-dup');
    cleanups.push(t.remove);
    const db = await open(t.dir);
    await append(db, [[40 * MIN, 4], [50 * MIN, 5]]);
    const app = db.appender();
    expect(app.append(0, L, 40 * MIN, 4)).toBeGreaterThan(0); // the in-order sample, repeated
    expect(codeOf(() => app.append(0, L, 40 * MIN, 7))).toBe(StorageErrorCode.DUPLICATE_SAMPLE_FOR_TIMESTAMP);
    app.append(0, L, 35 * MIN, 3.5);
    expect(app.append(0, L, 35 * MIN, 3.5)).toBeGreaterThan(0); // staged twice in one batch: a repeat
    expect(codeOf(() => app.append(0, L, 35 * MIN, 9))).toBe(StorageErrorCode.DUPLICATE_SAMPLE_FOR_TIMESTAMP);
    await app.commit();
    expect(read(db)).toEqual([[35 * MIN, 3.5], [40 * MIN, 4], [50 * MIN, 5]]);
    expect(db.stats().head.droppedAtCommit).toBe(0);
  });

  it('keeps out-of-order samples through WAL replay, checkpoints and restarts', async () => {
    const t = tempDir('ooo-restart');
    cleanups.push(t.remove);
    let db = await open(t.dir);
    await append(db, [[40 * MIN, 4], [50 * MIN, 5]]);
    await append(db, [[45 * MIN, 4.5]]);
    await db.close();
    db = await open(t.dir);
    expect(read(db)).toEqual([[40 * MIN, 4], [45 * MIN, 4.5], [50 * MIN, 5]]);
    db.checkpoint();
    await append(db, [[30 * MIN, 3]]);
    await db.close();
    db = await open(t.dir);
    expect(read(db)).toEqual([[30 * MIN, 3], [40 * MIN, 4], [45 * MIN, 4.5], [50 * MIN, 5]]);
  });

  it('writes out-of-order samples into the block that covers them', async () => {
    const t = tempDir('ooo-block');
    cleanups.push(t.remove);
    const db = await open(t.dir, { outOfOrderWindowMs: 3 * HOUR });
    const scrapes = (fromMin: number, toMin: number): [number, number][] => {
      const out: [number, number][] = [];
      for (let m = fromMin; m <= toMin; m += 10) out.push([m * MIN + MIN, m]);
      return out;
    };
    await append(db, scrapes(0, 170)); // not yet compactable: the head spans less than 1.5 ranges
    await append(db, [[95 * MIN, -1], [5 * MIN, -2]]); // both behind the newest sample, inside [0, 2h)
    await append(db, scrapes(180, 210));
    await db.compact();
    expect(db.stats().blocks.count).toBe(1);
    const got = read(db, 0, 2 * HOUR - 1);
    expect(got).toContainEqual([95 * MIN, -1]);
    expect(got).toContainEqual([5 * MIN, -2]);
    expect(got.map(([ts]) => ts)).toEqual([...got.map(([ts]) => ts)].sort((a, b) => a - b));
    expect(got).toHaveLength(12 + 2);
    // The head no longer holds them, and the block is not written twice.
    expect(read(db, 2 * HOUR, 10 * HOUR).every(([ts]) => ts >= 2 * HOUR)).toBe(true);
  });

  it('turns a sample that a concurrent commit overtook into an out-of-order one', async () => {
    const t = tempDir('ooo-conc');
    cleanups.push(t.remove);
    const db = await open(t.dir);
    const a = db.appender();
    const b = db.appender();
    a.append(0, L, 20 * MIN, 2);
    b.append(0, L, 30 * MIN, 3);
    await b.commit();
    await a.commit();
    expect(read(db)).toEqual([[20 * MIN, 2], [30 * MIN, 3]]);
  });

  it('rejects out-of-order samples when the window is off (the default)', async () => {
    const t = tempDir('ooo-off');
    cleanups.push(t.remove);
    const db = await open(t.dir, { outOfOrderWindowMs: 0 });
    await append(db, [[40 * MIN, 4]]);
    const app = db.appender();
    expect(codeOf(() => app.append(0, L, 30 * MIN, 3))).toBe(StorageErrorCode.OUT_OF_ORDER_SAMPLE);
    app.rollback();
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../model/testing/cleanups.js';
import { Labels, MemoryLogger, matcher } from '../model/index.js';
import { collectSeries } from '../storage/index.js';
import { Db } from './db.js';
import { tempDir } from './testing/temp-dir.js';

const cleanups = useCleanups();

async function open(dir: string, extra: Partial<Parameters<typeof Db.open>[0]> = {}): Promise<Db> {
  const db = await Db.open({ dir, fsync: { mode: 'never' }, retentionMs: 0, logger: new MemoryLogger(), ...extra });
  cleanups.push(() => db.close());
  return db;
}

function names(db: Db, ms = [matcher('=~', '__name__', '.+')]): string[] {
  const q = db.querier(-Infinity, Infinity);
  try {
    return collectSeries(q.select(ms)).map((s) => `${s.labels.toString()}:${s.samples.length}`);
  } finally {
    q.close();
  }
}

describe('tsdb regressions', () => {
  it('refuses a data directory another live process holds, and takes over a dead owner\'s lock', async () => {
    const t = tempDir('reg-lock');
    cleanups.push(t.remove);
    const db = await open(t.dir);
    await expect(Db.open({ dir: t.dir })).rejects.toThrow(/in use by process/);
    await db.close();
    // A lock left by a process that no longer exists (a pid far above pid_max).
    fs.writeFileSync(path.join(t.dir, 'lock'), '999999999\n');
    const again = await open(t.dir);
    expect(again.stats().head.series).toBe(0);
  });

  it('finds series created in one order and committed in the other after a restart', async () => {
    const t = tempDir('reg-order');
    cleanups.push(t.remove);
    let db = await open(t.dir);
    const a = db.appender();
    const b = db.appender();
    a.append(0, Labels.from({ __name__: 'm', job: 'a' }), 1000, 1); // ref 1
    b.append(0, Labels.from({ __name__: 'm', job: 'b' }), 1000, 2); // ref 2
    await b.commit(); // logged first
    await a.commit();
    await db.close();
    db = await open(t.dir);
    expect(names(db, [matcher('=', '__name__', 'm'), matcher('=', 'job', 'a')])).toEqual(['m{job="a"}:1']);
    expect(names(db, [matcher('=', '__name__', 'm'), matcher('=', 'job', 'b')])).toEqual(['m{job="b"}:1']);
  });

  it('never gives a new series the ref of an orphaned head chunk after a WAL repair', async () => {
    const t = tempDir('reg-orphan');
    cleanups.push(t.remove);
    let db = await open(t.dir);
    for (let k = 0; k < 130; k++) {
      const app = db.appender();
      app.append(0, Labels.from({ __name__: 'x_metric' }), k * 15_000, k);
      await app.commit();
    }
    await db.close();
    // Corrupt the first WAL segment early: replay drops it (and x_metric's SERIES record), while
    // x_metric's sealed chunk survives in chunks_head.
    const seg = path.join(t.dir, 'wal', '00000000');
    const bytes = fs.readFileSync(seg);
    bytes[20] ^= 0xff;
    fs.writeFileSync(seg, bytes);
    db = await open(t.dir);
    const app = db.appender();
    app.append(0, Labels.from({ __name__: 'y_metric' }), 5_000_000, 1);
    await app.commit();
    await db.close();
    db = await open(t.dir);
    expect(names(db)).toEqual(['y_metric:1']);
  });
});

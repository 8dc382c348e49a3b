import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCleanups } from '../../model/testing/cleanups.js';
import { openPGliteConn } from './pglite-conn.js';
import type { SqlConn } from './sql.js';
import { SampleStoreSchemaError } from './migrations.js';
import { openSampleStore, pgliteDataDir } from './open.js';
import { describeSampleStore, suiteEvaluation, suitePair } from './testing/store-suite.js';
import { SampleStoreWriteError } from './sql-store.js';

// One in-memory PGlite for the whole suite (starting one takes seconds): every `connect` hands out
// the same instance, whose `close` waits for the file's end.
let shared: SqlConn;
beforeAll(async () => {
  shared = await openPGliteConn(null);
});
afterAll(() => shared.close());
describeSampleStore('PGlite (in memory)', { connect: async () => ({ ...shared, close: async () => undefined }) });

const cleanups = useCleanups();

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `infersight-${prefix}-`));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('the PGlite sample store on disk', () => {
  it('keeps its data in <data>/quality/pglite across a reopen, and refuses a newer schema there', async () => {
    const data = tempDir('quality-store');
    const dir = pgliteDataDir(data);
    expect(dir).toBe(path.join(data, 'quality', 'pglite'));
    const s = await openSampleStore({ kind: 'pglite', dir });
    await s.putPairs([suitePair(1), suitePair(2)]);
    await s.close();
    const again = await openSampleStore({ kind: 'pglite', dir });
    expect((await again.find({})).map((r) => r.pair.id)).toEqual([suitePair(2).id, suitePair(1).id]);
    await again.close();
    const conn = await openPGliteConn(dir);
    await conn.query('INSERT INTO schema_migrations (version, name, applied_ms) VALUES (999, $1, 0)', ['from the future']);
    await conn.close();
    await expect(openSampleStore({ kind: 'pglite', dir })).rejects.toThrow(SampleStoreSchemaError);
  });
});

/**
 * Mounts a tmpfs of `bytes` at a fresh directory, or returns null when mounting is refused (not
 * root, or a container without CAP_SYS_ADMIN), as test/e2e/disk-full.test.ts does.
 */
function mountTinyTmpfs(bytes: number): string | null {
  const dir = tempDir('quality-store-full');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch {
    return null;
  }
  cleanups.push(() => execFileSync('umount', ['-l', dir], { stdio: 'pipe' }));
  return dir;
}

describe('the PGlite sample store on a disk that fills up (real tmpfs)', () => {
  it('fails the write with a clear error, keeps nothing of that batch, and keeps serving reads', async (ctx) => {
    const dir = mountTinyTmpfs(48 * 1024 * 1024);
    if (dir === null) {
      ctx.skip('mount -t tmpfs was refused here (not root, or a container without CAP_SYS_ADMIN)');
      return;
    }
    const s = await openSampleStore({ kind: 'pglite', dir: path.join(dir, 'pglite') });
    cleanups.push(() => s.close().catch(() => undefined));
    await s.putPairs([suitePair(0)]);
    await s.putEvaluations([suiteEvaluation(suitePair(0).id, 'stage1:empty')]);
    // Fill what is left of the file system, then write a batch that needs new pages.
    const filler = path.join(dir, 'filler');
    const fd = fs.openSync(filler, 'w');
    try {
      for (;;) fs.writeSync(fd, Buffer.alloc(64 * 1024, 1));
    } catch (e) {
      expect((e as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      fs.closeSync(fd);
    }
    const batch = Array.from({ length: 200 }, (_, i) => suitePair(100 + i, { response: `${i}`.padEnd(20_000, 'z') }));
    const err = await s.putPairs(batch).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(SampleStoreWriteError);
    expect((err as Error).message).toMatch(/storing 200 pairs failed, nothing of the batch was stored: .*(space|ENOSPC)/i);
    expect((await s.find({})).map((r) => r.pair.id)).toEqual([suitePair(0).id]);
    expect(await s.stats()).toMatchObject({ pairs: 1, evaluations: 1 });
    // Space back: writes work again.
    fs.rmSync(filler);
    await s.putPairs(batch.slice(0, 5));
    expect(await s.stats()).toMatchObject({ pairs: 6 });
  });
});

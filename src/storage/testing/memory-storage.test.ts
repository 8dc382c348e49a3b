import { describe, expect, it } from 'vitest';
import { Labels, STALE_NAN } from '../../model/index.js';
import { StorageErrorCode } from '../errors.js';
import { runAppenderSuite } from './appender-suite.js';
import { MemoryStorage } from './memory-storage.js';
import { runQuerierSuite } from './querier-suite.js';

runAppenderSuite(
  'MemoryStorage (the reference test storage)',
  async () => {
    const m = new MemoryStorage();
    return { appendable: m, read: async (ms, minT, maxT) => m.read(ms, minT, maxT), close: async () => undefined };
  },
  { validatesOrder: true, persistent: false },
);

runQuerierSuite('MemoryStorage (the reference test storage)', async (data) => {
  const m = new MemoryStorage();
  const app = m.appender();
  for (const s of data) for (const x of s.samples) app.append(0, s.labels, x.tMs, x.value);
  await app.commit();
  return { queryable: m, close: async () => undefined };
});

describe('MemoryStorage read-backs and faults', () => {
  const up = (job: string): Labels => Labels.from({ __name__: 'up', job });

  it('lists committed samples in commit order, every appended sample, and counts commits and rollbacks', async () => {
    const m = new MemoryStorage();
    const a = m.appender();
    a.append(0, up('b'), 1000, 1);
    a.append(0, up('a'), 1000, STALE_NAN);
    await a.commit();
    const r = m.appender();
    r.append(0, up('a'), 2000, 5);
    r.rollback();
    expect(m.lines()).toEqual(['up{job="b"} @1000=1', 'up{job="a"} @1000=stale']);
    expect(m.appended.map((s) => s.tMs)).toEqual([1000, 1000, 2000]);
    expect(m.samples({ job: 'a' })).toEqual([[1000, 'stale']]);
    expect(m.latest('up', { job: 'b' })).toBe(1);
    expect(m.dump()).toEqual(['up{job="a"} NaN', 'up{job="b"} 1']);
    expect([m.commits, m.rollbacks]).toEqual([1, 1]);
  });

  it('fails the given number of commits, writing nothing, and refuses appenders while told to', async () => {
    const m = new MemoryStorage();
    m.failCommits(StorageErrorCode.CORRUPTION, 1);
    const a = m.appender();
    a.append(0, up('a'), 1000, 1);
    await expect(a.commit()).rejects.toMatchObject({ code: StorageErrorCode.CORRUPTION });
    const b = m.appender();
    b.append(0, up('a'), 1000, 1);
    await b.commit();
    expect(m.committed).toHaveLength(1);
    m.failOpen = StorageErrorCode.UNAVAILABLE;
    expect(() => m.appender()).toThrow(expect.objectContaining({ code: StorageErrorCode.UNAVAILABLE }));
  });
});

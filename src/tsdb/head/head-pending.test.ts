import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Labels } from '../../model/index.js';
import { isStorageError, type Appender } from '../../storage/index.js';
import type { CommitLog } from './head-appender.js';
import { Head } from './head.js';

const HOUR = 3_600_000;

function newHead(log: CommitLog | null = null, oooWindowMs = 0): Head {
  return new Head({ blockRangeMs: 2 * HOUR, oooWindowMs, log });
}

const lbl = (name: string, i: number): Labels => Labels.fromPairs(['__name__', name, 'i', String(i)]);

/** The label sets of every series in the head, sorted; the index must hold exactly these. */
function visible(head: Head): string[] {
  const out: string[] = [];
  for (const s of head.allSeries()) out.push(s.labels.toString());
  expect(head.postings.allRefs().length).toBe(out.length);
  return out.sort();
}

describe('head: a series exists only once a sample of it is committed', () => {
  it.each([
    ['rollback', async (a: Appender) => a.rollback()],
    ['a commit whose samples were all refused', async (a: Appender) => a.commit()],
  ])('leaves nothing after %s', async (_name, close) => {
    const head = newHead();
    const ok = head.appender();
    ok.append(0, lbl('up', 0), 10 * HOUR, 1);
    await ok.commit();
    const a = head.appender();
    if (_name === 'rollback') for (let i = 1; i <= 100; i++) a.append(0, lbl('fresh', i), 10 * HOUR, i);
    else for (let i = 1; i <= 100; i++) expect(() => a.append(0, lbl('old', i), 1, i)).toThrow(/out of bounds/);
    expect(head.numSeries()).toBe(1);
    await close(a);
    expect(head.numSeries()).toBe(1);
    expect(head.numPendingSeries()).toBe(0);
    expect(visible(head)).toEqual([lbl('up', 0).toString()]);
    expect(head.postings.labelValues('__name__')).toEqual(['up']);
    expect(head.stats.seriesCreated).toBe(1);
    expect(head.stats.seriesDiscarded).toBe(100);
  });

  it('keeps a pending series while another appender holds it, and publishes it on that commit', async () => {
    const head = newHead();
    const a = head.appender();
    const b = head.appender();
    const ref = a.append(0, lbl('x', 1), 1000, 1);
    expect(b.append(0, lbl('x', 1), 2000, 2)).toBe(ref);
    a.rollback();
    expect(head.numPendingSeries()).toBe(1);
    await b.commit();
    expect(head.numSeries()).toBe(1);
    expect(head.numPendingSeries()).toBe(0);
    expect(head.postings.labelValues('__name__')).toEqual(['x']);
  });

  it('burns no ref and no column slot for refused series, however many', async () => {
    const head = newHead();
    for (let k = 0; k < 200; k++) {
      const a = head.appender();
      for (let i = 0; i < 100; i++) a.append(0, lbl(`m${k}`, i), 1000, i);
      a.rollback();
    }
    const ok = head.appender();
    const ref = ok.append(0, lbl('kept', 0), 1000, 1);
    expect(ok.append(ref, lbl('kept', 0), 2000, 2)).toBe(ref); // a temporary ref, stable in the appender
    await ok.commit();
    const [s] = [...head.allSeries()];
    expect(s.ref).toBe(1); // the first real ref: the 20,000 refused series took none
    const next = head.appender();
    expect(next.append(ref, lbl('kept', 0), 3000, 3)).toBe(1); // the stale temporary ref resolves by labels
    await next.commit();
    expect(head.numSeries()).toBe(1);
  });

  it('drops the new series of a commit whose log write failed, and never hands their refs out again', async () => {
    let fail = true;
    const log: CommitLog = {
      logCommit: () => {
        if (fail) throw new Error('disk full');
      },
    };
    const head = newHead(log);
    const a = head.appender();
    const ref = a.append(0, lbl('x', 1), 1000, 1);
    await expect(a.commit()).rejects.toThrow(/write-ahead log write failed/);
    expect(head.numSeries()).toBe(0);
    expect(head.numPendingSeries()).toBe(0);
    expect(head.seriesByRef(ref)).toBeUndefined();
    fail = false;
    const b = head.appender();
    const ref2 = b.append(ref, lbl('y', 1), 1000, 1); // a stale hint resolves by labels
    await b.commit();
    expect(ref2).not.toBe(ref);
    // x got ref 1 for its log record; the write failed, and 1 is never handed out again.
    expect([...head.allSeries()].map((x) => x.ref)).toEqual([2]);
    expect(visible(head)).toEqual([lbl('y', 1).toString()]);
  });

  // Random appenders over a small label pool, some interleaved, each committed or rolled back,
  // with timestamps that are sometimes refused: afterwards the head holds exactly the series
  // that got a committed sample, and nothing pending.
  it('holds exactly the series with committed samples after any sequence of writes (property)', async () => {
    const op = fc.record({
      samples: fc.array(fc.record({ series: fc.integer({ min: 0, max: 15 }), t: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 100, max: 200 })) }), { maxLength: 12 }),
      rollback: fc.boolean(),
      overlapNext: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 12 }), fc.integer({ min: 0, max: 1 }), async (ops, ooo) => {
        const head = newHead(null, ooo * 50 * 60_000);
        const committed = new Set<string>();
        let open: { app: Appender; touched: Set<string>; rollback: boolean } | null = null;
        const close = async (o: { app: Appender; touched: Set<string>; rollback: boolean }): Promise<void> => {
          if (o.rollback) o.app.rollback();
          else {
            await o.app.commit();
            for (const k of o.touched) if ((head.lookup(Labels.fromPairs(JSON.parse(k) as string[]))?.minTimeMs() ?? Infinity) < Infinity) committed.add(k);
          }
        };
        for (const o of ops) {
          const app = head.appender();
          const touched = new Set<string>();
          for (const s of o.samples) {
            const labels = lbl('m', s.series);
            // Timestamps in minutes: the low ones fall out of bounds once the head has moved on.
            try {
              app.append(0, labels, s.t * 60_000, s.series);
              touched.add(JSON.stringify(labels.flat()));
            } catch (e) {
              if (!isStorageError(e)) throw e;
            }
          }
          const mine = { app, touched, rollback: o.rollback };
          if (open !== null) await close(open);
          open = null;
          if (o.overlapNext) open = mine;
          else await close(mine);
        }
        if (open !== null) await close(open);
        expect(head.numPendingSeries()).toBe(0);
        expect(head.numSeries()).toBe(committed.size);
        for (const s of head.allSeries()) expect(s.minTimeMs()).toBeLessThan(Infinity);
        expect(head.postings.allRefs().length).toBe(committed.size);
        expect(head.stats.seriesCreated).toBe(committed.size);
      }),
      { numRuns: 300 },
    );
  });
});

describe('head: the series limit', () => {
  const limited = (maxSeries: number): Head => new Head({ blockRangeMs: 2 * HOUR, oooWindowMs: 0, log: null, maxSeries });

  it('refuses the series past the limit, pending ones counted, and leaves nothing of them', async () => {
    const head = limited(3);
    const a = head.appender();
    a.append(0, lbl('up', 0), 10 * HOUR, 1);
    await a.commit();
    const b = head.appender();
    b.append(0, lbl('up', 1), 10 * HOUR, 1);
    b.append(0, lbl('up', 2), 10 * HOUR, 1); // pending: the head is now full
    let err: unknown;
    try {
      b.append(0, lbl('up', 3), 10 * HOUR, 1);
    } catch (e) {
      err = e;
    }
    expect(isStorageError(err, 'ERR_LIMIT_EXCEEDED')).toBe(true);
    expect((err as Error).message).toMatch(/head series limit exceeded: the store holds 1 series \(2 more pending\) and may hold at most 3/);
    // Known series still take samples, and the appender stays usable.
    b.append(0, lbl('up', 0), 11 * HOUR, 2);
    await b.commit();
    expect(visible(head)).toEqual([lbl('up', 0), lbl('up', 1), lbl('up', 2)].map(String).sort());
    expect(head.stats.seriesRefused).toBe(1);
  });

  it('frees room when pending series are rolled back', () => {
    const head = limited(2);
    const a = head.appender();
    a.append(0, lbl('x', 0), HOUR, 1);
    a.append(0, lbl('x', 1), HOUR, 1);
    a.rollback();
    const b = head.appender();
    b.append(0, lbl('x', 2), HOUR, 1);
    b.append(0, lbl('x', 3), HOUR, 1);
    expect(() => b.append(0, lbl('x', 4), HOUR, 1)).toThrow(/head series limit exceeded/);
    b.rollback();
  });

  it('never refuses what the WAL replays (getOrCreate)', () => {
    const head = limited(1);
    head.getOrCreate(lbl('a', 0), 1);
    head.getOrCreate(lbl('a', 1), 2);
    expect(head.numSeries()).toBe(2);
  });
});

import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryLogger, noopLogger } from '../../model/index.js';
import { StorageErrorCode } from '../../storage/index.js';
import { FRAME_HEADER_BYTES, SEGMENT_HEADER_BYTES, type RecordType } from './format.js';
import { STALE_BITS, bitsOf, replayAll, samplesRecord, seriesRecord, useTempDirs } from './testing/helpers.js';
import { Wal, type FsyncPolicy, type IntervalScheduler } from './wal.js';

const tempDir = useTempDirs();

function open(dir: string, fsync: FsyncPolicy = { mode: 'never' }, extra: Partial<Parameters<typeof Wal.open>[0]> = {}): Wal {
  return Wal.open({ dir, fsync, logger: noopLogger, ...extra });
}

function segmentNames(dir: string): string[] {
  return fs.readdirSync(dir).sort();
}

describe('Wal', () => {
  it('writes a header, then frames, and replays them in order', () => {
    const dir = path.join(tempDir(), 'wal');
    const wal = open(dir);
    wal.log([seriesRecord([[1, { __name__: 'up' }]]), samplesRecord([[1, 1000, STALE_BITS]])]);
    wal.log([samplesRecord([[1, 2000, 1]])]);
    wal.close();
    const bytes = fs.readFileSync(path.join(dir, '00000000'));
    expect(Array.from(bytes.subarray(0, 8))).toEqual([0x49, 0x57, 0x41, 0x4c, 1, 0, 0, 0]);
    const { records, report } = replayAll(dir);
    expect(records).toEqual([
      { type: 'series', series: [[1, { __name__: 'up' }]] },
      { type: 'samples', samples: [[1, 1000, STALE_BITS]] },
      { type: 'samples', samples: [[1, 2000, bitsOf(1)]] },
    ]);
    expect(report).toEqual({ segmentsRead: 1, recordsRead: 3, bytesRead: bytes.length, truncated: null });
    expect(wal.stats()).toMatchObject({ segmentsCreated: 1, recordsWritten: 3, bytesWritten: bytes.length });
  });

  it('cuts a segment when the next batch would not fit, keeping each batch in one segment', () => {
    const dir = tempDir();
    const rec = samplesRecord([[1, 1, 1]]); // one frame: 9 + 11 bytes
    const frame = FRAME_HEADER_BYTES + rec.payload.length;
    const wal = open(dir, { mode: 'never' }, { segmentSizeBytes: SEGMENT_HEADER_BYTES + 2 * frame });
    wal.log([rec]);
    wal.log([rec]); // exactly fills segment 0
    wal.log([rec]); // segment 1
    wal.log([rec, rec, rec, rec]); // larger than a segment: alone in segment 2
    wal.log([rec]); // segment 3
    expect(segmentNames(dir)).toEqual(['00000000', '00000001', '00000002', '00000003']);
    expect(fs.statSync(path.join(dir, '00000002')).size).toBe(SEGMENT_HEADER_BYTES + 4 * frame);
    expect(wal.segments()).toEqual({ first: 0, last: 3 });
    expect(wal.currentSegment).toBe(3);
    wal.close();
    expect(replayAll(dir).report.recordsRead).toBe(8);
  });

  it('starts a new segment on every open, after segments and checkpoints', () => {
    const dir = tempDir();
    open(dir).close();
    open(dir).close();
    expect(segmentNames(dir)).toEqual(['00000000', '00000001']);
    fs.mkdirSync(path.join(dir, 'checkpoint.00000007'));
    const wal = open(dir);
    expect(wal.currentSegment).toBe(8);
    wal.close();
  });

  it('cutSegment and truncateBefore manage the segment range', () => {
    const dir = tempDir();
    const logger = new MemoryLogger();
    const wal = Wal.open({ dir, fsync: { mode: 'never' }, logger });
    expect(wal.cutSegment()).toBe(1);
    expect(wal.cutSegment()).toBe(2);
    wal.truncateBefore(2);
    expect(segmentNames(dir)).toEqual(['00000002']);
    expect(() => wal.truncateBefore(3)).toThrow(RangeError);
    expect(wal.stats().truncations).toBe(1);
    expect(logger.lines.find((l) => l.msg === 'wal: truncated')?.fields).toMatchObject({ before: 2, segmentsDeleted: 2 });
    wal.close();
  });

  it('refuses writes after close; close is idempotent', () => {
    const wal = open(tempDir());
    wal.close();
    wal.close();
    expect(() => wal.log([samplesRecord([[1, 1, 1]])])).toThrow(expect.objectContaining({ code: StorageErrorCode.STORAGE_CLOSED }));
  });

  it('rejects unknown record types before writing anything', () => {
    const dir = tempDir();
    const wal = open(dir);
    expect(() => wal.log([{ type: 9 as RecordType, payload: new Uint8Array(1) }])).toThrow(RangeError);
    wal.close();
    expect(fs.statSync(path.join(dir, '00000000')).size).toBe(SEGMENT_HEADER_BYTES);
  });
});

describe('fsync policies', () => {
  const rec = samplesRecord([[1, 1, 1]]);
  let clock = 0;
  const now = (): number => (clock += 5); // every fsync "takes" 5 ms

  it('always: one fdatasync per log, plus the directory on segment creation', () => {
    const wal = open(tempDir(), { mode: 'always' }, { now });
    const afterOpen = wal.stats().fsyncs;
    expect(afterOpen).toBe(1); // the directory entry of the new segment
    wal.log([rec]);
    wal.log([rec, rec]);
    expect(wal.stats().fsyncs).toBe(afterOpen + 2);
    expect(wal.stats().fsyncSecondsTotal).toBeCloseTo(0.015, 9);
    wal.sync(); // nothing pending
    wal.close();
    expect(wal.stats().fsyncs).toBe(3);
  });

  it('interval: the timer syncs only when something was written', () => {
    const ticks: (() => void)[] = [];
    let cancelled = false;
    const scheduler: IntervalScheduler = {
      every(intervalMs, fn) {
        expect(intervalMs).toBe(250);
        ticks.push(fn);
        return { cancel: () => (cancelled = true) };
      },
    };
    const wal = open(tempDir(), { mode: 'interval', intervalMs: 250 }, { scheduler, now });
    const base = wal.stats().fsyncs;
    expect(ticks).toHaveLength(1);
    ticks[0]();
    expect(wal.stats().fsyncs).toBe(base);
    wal.log([rec]);
    wal.log([rec]);
    expect(wal.stats().fsyncs).toBe(base);
    ticks[0]();
    expect(wal.stats().fsyncs).toBe(base + 1);
    ticks[0]();
    expect(wal.stats().fsyncs).toBe(base + 1);
    wal.log([rec]);
    wal.close(); // close syncs what the timer has not
    expect(wal.stats().fsyncs).toBe(base + 2);
    expect(cancelled).toBe(true);
  });

  it('never: no fsync until sync() or close()', () => {
    const wal = open(tempDir(), { mode: 'never' }, { now });
    wal.log([rec]);
    wal.cutSegment();
    wal.log([rec]);
    expect(wal.stats().fsyncs).toBe(0);
    wal.sync();
    expect(wal.stats().fsyncs).toBe(1);
    wal.close();
    expect(wal.stats().fsyncs).toBe(1);
  });

  it('carries the corruptions repaired by the preceding replay into stats', () => {
    const wal = open(tempDir(), { mode: 'never' }, { corruptionsRepaired: 1 });
    expect(wal.stats().corruptionsRepaired).toBe(1);
    wal.close();
  });
});

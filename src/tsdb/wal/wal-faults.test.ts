import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../model/index.js';
import { StorageError, StorageErrorCode } from '../../storage/index.js';
import { FRAME_HEADER_BYTES, SEGMENT_HEADER_BYTES } from './format.js';
import { listWalDir } from './segment-files.js';
import { FaultyFs, type FaultRule } from './testing/faulty-fs.js';
import { copyDir, replayAll, samplesRecord, useTempDirs } from './testing/helpers.js';
import { Wal, type FsyncPolicy, type IntervalScheduler } from './wal.js';

const tempDir = useTempDirs();

/** A WAL over a fault-injecting port; `tick` runs the interval policy's timer by hand. */
function openFaulty(policy: FsyncPolicy, extra: { segmentSizeBytes?: number } = {}) {
  const dir = path.join(tempDir(), 'wal');
  const faults = new FaultyFs();
  const logger = new MemoryLogger();
  let timer: (() => void) | null = null;
  const scheduler: IntervalScheduler = {
    every(_ms, fn) {
      timer = fn;
      return { cancel: () => (timer = null) };
    },
  };
  const wal = Wal.open({ dir, fsync: policy, logger, fs: faults, now: faults.now, scheduler, ...extra });
  return { dir, wal, faults, logger, tick: () => timer?.() };
}

/** Record `i` holds one sample of series `i` at `i` s: replays read back as the list of `i`. */
const rec = (i: number) => samplesRecord([[i, i * 1000, i]]);

/** What a restart would replay if the process died now: a copy of the directory, replayed. */
function replayAfterCrash(dir: string): { refs: number[]; truncated: boolean } {
  const copy = path.join(tempDir(), 'crash');
  copyDir(dir, copy);
  const { records, report } = replayAll(copy);
  const refs = records.flatMap((r) => (r.type === 'samples' ? r.samples.map(([ref]) => ref) : []));
  return { refs, truncated: report.truncated !== null };
}

function refusal(fn: () => void): StorageError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(StorageError);
    expect((e as StorageError).code).toBe(StorageErrorCode.UNAVAILABLE);
    return e as StorageError;
  }
  throw new Error('expected the WAL to refuse');
}

const POLICIES: [string, FsyncPolicy][] = [
  ['always', { mode: 'always' }],
  ['interval', { mode: 'interval', intervalMs: 1000 }],
  ['never', { mode: 'never' }],
];

// Faults that hit a write but leave the segment as it was (the partial frame is cut off again).
const WRITE_FAULTS: [string, (f: FaultyFs) => void][] = [
  ['ENOSPC before any byte', (f) => f.inject({ op: 'write', code: 'ENOSPC', times: 1 })],
  ['ENOSPC after half a frame header', (f) => f.inject({ op: 'write', code: 'ENOSPC', partialBytes: 5, times: 1 })],
  ['EIO after the frame header', (f) => f.inject({ op: 'write', code: 'EIO', partialBytes: FRAME_HEADER_BYTES, times: 1 })],
  ['a disk that fills after 7 bytes (a short write, then ENOSPC)', (f) => f.diskFull(7)],
];

describe('Wal under a failing file system', () => {
  describe.each(POLICIES)('%s', (_name, policy) => {
    it.each(WRITE_FAULTS)('a write failing with %s is not acknowledged, and the next write succeeds without a reopen', (_f, arm) => {
      const { dir, wal, faults } = openFaulty(policy);
      wal.log([rec(0)]);
      arm(faults);
      expect(refusal(() => wal.log([rec(1)])).message).toMatch(/write failed/);
      expect(wal.needsRecovery).toBe(false);
      expect(replayAfterCrash(dir)).toEqual({ refs: [0], truncated: false }); // cut back: no torn frame
      faults.clear(); // space returns
      wal.log([rec(2)]);
      expect(replayAfterCrash(dir)).toEqual({ refs: [0, 2], truncated: false });
      expect(wal.stats()).toMatchObject({ writeFailures: 1, recordsWritten: 2 });
      wal.close();
    });

    it('a segment that cannot be created fails that write only; the next write creates it', () => {
      const { dir, wal, faults } = openFaulty(policy, { segmentSizeBytes: SEGMENT_HEADER_BYTES + 40 });
      wal.log([rec(0)]);
      faults.inject({ op: 'open', code: 'ENOSPC', times: 1 });
      refusal(() => wal.log([rec(1)])); // needs a new segment: the first is full
      expect(listWalDir(dir).segments).toEqual([0]); // nothing half-made is left behind
      expect(wal.needsRecovery).toBe(false);
      wal.log([rec(2)]);
      expect(listWalDir(dir).segments).toEqual([0, 1]);
      expect(replayAfterCrash(dir).refs).toEqual([0, 2]);
      wal.close();
    });

    it('a torn write that cannot be cut back leaves the WAL refusing writes; a restart drops the torn frame', () => {
      const { dir, wal, faults } = openFaulty(policy);
      wal.log([rec(0)]);
      faults.inject({ op: 'write', code: 'ENOSPC', partialBytes: 12, times: 1 }).inject({ op: 'ftruncate', code: 'EIO', times: 1 });
      refusal(() => wal.log([rec(1)]));
      expect(wal.needsRecovery).toBe(true);
      expect(refusal(() => wal.log([rec(2)])).message).toMatch(/refusing writes until segment 0 is replaced/);
      expect(replayAfterCrash(dir)).toEqual({ refs: [0], truncated: true });
      wal.close();
    });
  });

  it('always: a failed fsync refuses that write and every later one, never retries the fsync, and cuts the unacknowledged frame off', () => {
    const { dir, wal, faults } = openFaulty({ mode: 'always' });
    wal.log([rec(0)]);
    faults.inject({ op: 'fsync', code: 'EIO', times: 1 });
    refusal(() => wal.log([rec(1)]));
    expect(wal.stats().fsyncFailures).toBe(1);
    const fsyncs = faults.calls.fsync;
    // The fault is gone, but a second fsync could report success for pages the kernel dropped.
    refusal(() => wal.log([rec(2)]));
    refusal(() => wal.sync());
    expect(faults.calls.fsync).toBe(fsyncs);
    expect(replayAfterCrash(dir)).toEqual({ refs: [0], truncated: false });
    wal.close(); // does not sync the untrusted segment either
    expect(faults.calls.fsync).toBe(fsyncs);
  });

  it('interval: a failed background fsync refuses the next writes until the owner recovers; the lost pages show why', () => {
    const { dir, wal, faults, logger, tick } = openFaulty({ mode: 'interval', intervalMs: 1000 });
    wal.log([rec(0)]);
    tick(); // synced
    wal.log([rec(1)]); // acknowledged, in the page cache only
    faults.inject({ op: 'fsync', code: 'EIO', times: 1, loseUnsynced: true });
    tick(); // fails in the background: nobody to throw at
    expect(logger.lines.some((l) => l.level === 'error' && /refusing writes/.test(l.msg))).toBe(true);
    refusal(() => wal.log([rec(2)]));
    refusal(() => wal.sync());
    const fsyncs = faults.calls.fsync;
    tick();
    expect(faults.calls.fsync).toBe(fsyncs); // the timer does not retry it either
    // Record 1 was acknowledged but its pages are gone: only a rewrite from memory can save it.
    expect(replayAfterCrash(dir)).toEqual({ refs: [0], truncated: true });

    // The recovery protocol: abandon the segment, (the owner checkpoints from memory), resume.
    const through = wal.abandonSegment();
    expect(through).toBe(0);
    expect(wal.abandonSegment()).toBe(0); // a retry after a failed checkpoint reuses the new segment
    refusal(() => wal.log([rec(3)])); // still refused until the owner says the checkpoint is done
    wal.recovered();
    wal.log([rec(4)]);
    expect(wal.currentSegment).toBe(1);
    expect(replayAfterCrash(dir).refs).toEqual([0]); // segment 0's torn tail drops every later segment: hence the checkpoint
    wal.close();
  });

  it('abandonSegment fails softly while the disk is full and works once space returns', () => {
    const { wal, faults } = openFaulty({ mode: 'always' });
    wal.log([rec(0)]);
    faults.inject({ op: 'fsync', code: 'EIO', times: 1 });
    refusal(() => wal.log([rec(1)]));
    faults.diskFull();
    refusal(() => wal.abandonSegment());
    expect(wal.needsRecovery).toBe(true);
    faults.freeSpace();
    expect(wal.abandonSegment()).toBe(0);
    wal.recovered();
    wal.log([rec(2)]);
    wal.close();
  });

  it.each<[string, FaultRule, number]>([
    ['a 5 s fsync is logged and counted', { op: 'fsync', delayMs: 5000, times: 1 }, 1],
    ['a 999 ms fsync is not', { op: 'fsync', delayMs: 999, times: 1 }, 0],
  ])('slow fsync: %s, and the write still succeeds', (_name, rule, slow) => {
    const { dir, wal, faults, logger } = openFaulty({ mode: 'always' });
    faults.inject(rule);
    wal.log([rec(0)]);
    expect(wal.stats().slowFsyncs).toBe(slow);
    expect(logger.lines.filter((l) => l.msg === 'wal: slow fsync')).toHaveLength(slow);
    expect(replayAfterCrash(dir).refs).toEqual([0]);
    wal.close();
  });
});

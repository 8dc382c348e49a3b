import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryLogger, noopLogger } from '../../model/index.js';
import { replayWithCheckpoint, writeCheckpoint, type CheckpointOptions } from './checkpoint.js';
import {
  STALE_BITS,
  decodeRecord,
  replayAll,
  samplesRecord,
  seriesRecord,
  useTempDirs,
  type DecodedRecord,
} from './testing/helpers.js';
import { Wal } from './wal.js';

const tempDir = useTempDirs();

/** Four segments: series 1-3 in segment 0, series 4 in segment 2, samples of every series throughout. */
function buildWal(dir: string): Wal {
  const wal = Wal.open({ dir, fsync: { mode: 'never' }, logger: noopLogger });
  wal.log([seriesRecord([[1, { __name__: 'a' }], [2, { __name__: 'b' }], [3, { __name__: 'c', zone: 'ü' }]])]);
  for (let s = 0; s < 4; s++) {
    if (s > 0) wal.cutSegment();
    if (s === 2) wal.log([seriesRecord([[4, { __name__: 'd' }]])]);
    for (let k = 0; k < 3; k++) {
      const t = (s * 3 + k) * 1000;
      wal.log([samplesRecord([[1, t, t], [2, t, STALE_BITS], [3, t, -Infinity], ...(s >= 2 ? [[4, t, 1] as [number, number, number]] : [])])]);
    }
  }
  return wal;
}

function replayCheckpointed(dir: string): { records: DecodedRecord[]; logger: MemoryLogger; report: ReturnType<typeof replayWithCheckpoint> } {
  const logger = new MemoryLogger();
  const records: DecodedRecord[] = [];
  const report = replayWithCheckpoint(dir, { logger, onRecord: (type, payload) => records.push(decodeRecord(type, payload)) });
  return { records, logger, report };
}

/** The state a checkpoint writer produces: here, a fixed summary of series 1 and 4. */
const SUMMARY = [seriesRecord([[1, { __name__: 'a' }], [4, { __name__: 'd' }]]), samplesRecord([[1, 8000, 8000], [4, 8000, 1]])];
const writeSummary: CheckpointOptions['write'] = (log) => log(SUMMARY);

describe('checkpoints', () => {
  it('checkpoint + truncate + replay gives the checkpoint, then the later segments', () => {
    const dir = tempDir();
    const wal = buildWal(dir);
    const original = replayAll(dir).records;
    const covered = 1 + 3 + 4 + 3; // records in segments 0..2 (a SERIES record leads segments 0 and 2)
    const logger = new MemoryLogger();
    const result = writeCheckpoint(dir, { throughSegment: 2, logger, write: writeSummary });
    expect(result).toMatchObject({ written: true, throughSegment: 2, previous: null, records: 2 });
    wal.truncateBefore(3);
    wal.close();
    expect(fs.readdirSync(dir).sort()).toEqual(['00000003', 'checkpoint.00000002']);
    const { records, report } = replayCheckpointed(dir);
    expect(records).toEqual([...SUMMARY.map((r) => decodeRecord(r.type, r.payload)), ...original.slice(covered)]);
    expect(report.checkpoint).toBe(2);
    expect(report.segments.truncated).toBeNull();
    expect(logger.lines.find((l) => l.msg === 'wal: checkpoint written')).toBeDefined();
  });

  it('replaces the previous checkpoint and deletes it', () => {
    const dir = tempDir();
    const wal = buildWal(dir);
    writeCheckpoint(dir, { throughSegment: 0, logger: noopLogger, write: () => undefined });
    wal.truncateBefore(1);
    const second = writeCheckpoint(dir, { throughSegment: 2, logger: noopLogger, write: writeSummary });
    expect(second).toMatchObject({ written: true, previous: 0 });
    wal.truncateBefore(3);
    wal.close();
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('checkpoint'))).toEqual(['checkpoint.00000002']);
    expect(replayCheckpointed(dir).records.slice(0, 2)).toEqual(SUMMARY.map((r) => decodeRecord(r.type, r.payload)));
    expect(writeCheckpoint(dir, { throughSegment: 1, logger: noopLogger, write: writeSummary }).written).toBe(false);
  });

  it('ignores and removes a checkpoint left unfinished by a crash before the rename', () => {
    const dir = tempDir();
    buildWal(dir).close();
    const original = replayAll(dir).records;
    writeCheckpoint(dir, { throughSegment: 2, logger: noopLogger, write: writeSummary });
    // Simulate a crash before the rename: the finished checkpoint becomes a half-written .tmp.
    const tmp = path.join(dir, 'checkpoint.00000002.tmp');
    fs.renameSync(path.join(dir, 'checkpoint.00000002'), tmp);
    fs.truncateSync(path.join(tmp, '00000000'), 20);
    const { records, logger, report } = replayCheckpointed(dir);
    expect(records).toEqual(original);
    expect(report.checkpoint).toBeNull();
    expect(fs.existsSync(tmp)).toBe(false);
    expect(logger.lines).toContainEqual(expect.objectContaining({ msg: 'wal: removed unfinished checkpoint' }));
  });

  it('skips segments a crash left behind after the rename, and superseded checkpoints', () => {
    const dir = tempDir();
    buildWal(dir).close();
    const original = replayAll(dir).records;
    writeCheckpoint(dir, { throughSegment: 0, logger: noopLogger, write: () => undefined });
    fs.cpSync(path.join(dir, 'checkpoint.00000000'), path.join(dir, 'checkpoint.00000001.keep'), { recursive: true });
    writeCheckpoint(dir, { throughSegment: 1, logger: noopLogger, write: writeSummary });
    fs.renameSync(path.join(dir, 'checkpoint.00000001.keep'), path.join(dir, 'checkpoint.00000000')); // "not yet deleted"
    const { records, report } = replayCheckpointed(dir); // segments 0..3 all still there
    expect(records).toEqual([...SUMMARY.map((r) => decodeRecord(r.type, r.payload)), ...original.slice(1 + 3 + 3)]);
    expect(report.checkpoint).toBe(1);
    expect(fs.existsSync(path.join(dir, 'checkpoint.00000000'))).toBe(false);
    const wal = Wal.open({ dir, fsync: { mode: 'never' }, logger: noopLogger });
    expect(wal.currentSegment).toBe(4);
    wal.close();
  });

  it('refuses a missing or the newest segment, and leaves nothing behind when the writer throws', () => {
    const dir = tempDir();
    buildWal(dir).close();
    const before = fs.readdirSync(dir).sort();
    expect(() => writeCheckpoint(dir, { throughSegment: 9, logger: noopLogger, write: writeSummary })).toThrow(RangeError);
    expect(() => writeCheckpoint(dir, { throughSegment: 3, logger: noopLogger, write: writeSummary })).toThrow(/newest segment/);
    expect(() =>
      writeCheckpoint(dir, {
        throughSegment: 2,
        logger: noopLogger,
        write: (log) => {
          log(SUMMARY);
          throw new Error('disk full');
        },
      }),
    ).toThrow('disk full');
    expect(fs.readdirSync(dir).sort()).toEqual(before);
  });

  it('splits a large checkpoint into segments of the requested size', () => {
    const dir = tempDir();
    buildWal(dir).close();
    writeCheckpoint(dir, { throughSegment: 2, logger: noopLogger, segmentSizeBytes: 64, write: (log) => SUMMARY.forEach((r) => log([r])) });
    expect(fs.readdirSync(path.join(dir, 'checkpoint.00000002')).length).toBeGreaterThan(1);
    for (const s of [0, 1, 2]) fs.rmSync(path.join(dir, String(s).padStart(8, '0')));
    expect(replayCheckpointed(dir).records.slice(0, 2)).toEqual(SUMMARY.map((r) => decodeRecord(r.type, r.payload)));
  });
});

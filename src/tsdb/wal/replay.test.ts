import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { noopLogger } from '../../model/index.js';
import { StorageErrorCode } from '../../storage/index.js';
import { FRAME_HEADER_BYTES, SEGMENT_HEADER_BYTES } from './format.js';
import { copyDir, expectedSamples, replayAll, samplesRecord, useTempDirs, type SampleTuple } from './testing/helpers.js';
import { Wal } from './wal.js';

const tempDir = useTempDirs();

function sample(i: number): SampleTuple {
  return [i, 1_700_000_000_000 + i * 1000, i / 2];
}

/** Writes `perSegment` one-sample records into each of `segments` segments; returns the dir. */
function writeWal(segments: number, perSegment: number): string {
  const dir = tempDir();
  const wal = Wal.open({ dir, fsync: { mode: 'never' }, logger: noopLogger });
  for (let s = 0; s < segments; s++) {
    if (s > 0) wal.cutSegment();
    for (let r = 0; r < perSegment; r++) wal.log([samplesRecord([sample(s * perSegment + r)])]);
  }
  wal.close();
  return dir;
}

function records(from: number, to: number): { type: 'samples'; samples: [number, number, string][] }[] {
  const out = [];
  for (let i = from; i < to; i++) out.push({ type: 'samples' as const, samples: expectedSamples([sample(i)]) });
  return out;
}

/** The byte offset of frame `k` in a segment written by `writeWal` whose first record is `first`. */
function frameOffset(first: number, k: number): number {
  let off = SEGMENT_HEADER_BYTES;
  for (let i = 0; i < k; i++) off += FRAME_HEADER_BYTES + samplesRecord([sample(first + i)]).payload.length;
  return off;
}

const seg = (dir: string, i: number): string => path.join(dir, String(i).padStart(8, '0'));

describe('replayWal', () => {
  it('replays a missing directory as empty', () => {
    expect(replayAll(path.join(tempDir(), 'nope')).report).toEqual({ segmentsRead: 0, recordsRead: 0, bytesRead: 0, truncated: null });
  });

  it('recovers every earlier record from a tail torn at any byte of the last frame, and logs the drop', () => {
    const pristine = writeWal(1, 4);
    const start = frameOffset(0, 3);
    const end = fs.statSync(seg(pristine, 0)).size;
    for (let cut = start + 1; cut < end; cut++) {
      const dir = path.join(tempDir(), 'w');
      copyDir(pristine, dir);
      fs.truncateSync(seg(dir, 0), cut);
      const { records: got, report, logger } = replayAll(dir);
      expect(got, `cut at ${cut}`).toEqual(records(0, 3));
      const reason = cut - start < FRAME_HEADER_BYTES ? 'torn-frame-header' : 'torn-frame';
      expect(report.truncated).toEqual({ segment: 0, offset: start, droppedBytes: cut - start, reason });
      expect(logger.lines).toEqual([
        { level: 'warn', msg: 'wal: dropping invalid data', fields: { dir, segment: 0, offset: start, droppedBytes: cut - start, reason } },
      ]);
      expect(fs.statSync(seg(dir, 0)).size).toBe(start);
      expect(replayAll(dir).report.truncated).toBeNull(); // the repair sticks
    }
  });

  it('drops everything after a checksum mismatch mid-segment, later segments included', () => {
    const dir = writeWal(3, 4);
    const off = frameOffset(0, 1);
    const bytes = fs.readFileSync(seg(dir, 0));
    bytes[off + FRAME_HEADER_BYTES + 2] ^= 0x40; // flip one payload bit of record 1
    fs.writeFileSync(seg(dir, 0), bytes);
    const laterBytes = fs.statSync(seg(dir, 1)).size + fs.statSync(seg(dir, 2)).size;
    const { records: got, report, logger } = replayAll(dir);
    expect(got).toEqual(records(0, 1));
    expect(report.truncated).toEqual({ segment: 0, offset: off, droppedBytes: bytes.length - off + laterBytes, reason: 'checksum-mismatch' });
    expect(fs.readdirSync(dir)).toEqual(['00000000']);
    expect(logger.lines.map((l) => [l.msg, l.fields.segment, l.fields.droppedBytes])).toEqual([
      ['wal: dropping invalid data', 0, bytes.length - off],
      ['wal: deleted segment after invalid data', 1, fs.statSync(seg(writeWal(3, 4), 1)).size],
      ['wal: deleted segment after invalid data', 2, fs.statSync(seg(writeWal(3, 4), 2)).size],
    ]);
  });

  it.each<[string, number[], string]>([
    ['garbage', [0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 'torn-frame'],
    ['a zero-filled tail', new Array<number>(4096).fill(0), 'zero-filled-tail'],
    ['a few zero bytes', [0, 0, 0], 'zero-filled-tail'],
    ['a frame of an unknown type', [1, 0, 0, 0, 0xce, 0xce, 0x9b, 0x38, 7, 0xaa], 'unknown-record-type'],
  ])('truncates %s appended to the last segment', (_name, tail, reason) => {
    const dir = writeWal(2, 3);
    const size = fs.statSync(seg(dir, 1)).size;
    fs.appendFileSync(seg(dir, 1), Uint8Array.from(tail));
    const { records: got, report } = replayAll(dir);
    expect(got).toEqual(records(0, 6));
    expect(report.truncated).toEqual({ segment: 1, offset: size, droppedBytes: tail.length, reason });
    expect(fs.statSync(seg(dir, 1)).size).toBe(size);
  });

  it.each<[string, (file: string) => void, string, number]>([
    ['a bad magic', (f) => fs.writeFileSync(f, Buffer.concat([Buffer.from('XXXX'), fs.readFileSync(f).subarray(4)])), 'bad-segment-header', -1],
    ['an empty file', (f) => fs.truncateSync(f, 0), 'empty-segment', 0],
    ['a torn header', (f) => fs.truncateSync(f, 6), 'torn-segment-header', 6],
  ])('deletes a segment with %s and every later one', (_name, damage, reason, size) => {
    const dir = writeWal(3, 2);
    const full = fs.statSync(seg(dir, 1)).size;
    damage(seg(dir, 1));
    const { records: got, report } = replayAll(dir);
    expect(got).toEqual(records(0, 2));
    expect(report.truncated).toMatchObject({ segment: 1, offset: 0, reason });
    expect(report.truncated?.droppedBytes).toBe((size < 0 ? full : size) + fs.statSync(seg(writeWal(3, 2), 2)).size);
    expect(fs.readdirSync(dir)).toEqual(['00000000']);
  });

  it('treats a gap in the segment numbers as the end of the valid data', () => {
    const dir = writeWal(4, 1);
    fs.rmSync(seg(dir, 1));
    const { records: got, report } = replayAll(dir);
    expect(got).toEqual(records(0, 1));
    expect(report.truncated).toMatchObject({ segment: 2, offset: 0, reason: 'missing-segment' });
    expect(fs.readdirSync(dir)).toEqual(['00000000']);
  });

  it('refuses a segment of a newer format version without touching it', () => {
    const dir = writeWal(1, 2);
    const bytes = fs.readFileSync(seg(dir, 0));
    bytes[4] = 2;
    fs.writeFileSync(seg(dir, 0), bytes);
    expect(() => replayAll(dir)).toThrow(expect.objectContaining({ code: StorageErrorCode.CORRUPTION }));
    expect(fs.readFileSync(seg(dir, 0))).toEqual(bytes);
  });

  it('leaves a clean directory that a new writer extends', () => {
    const dir = writeWal(2, 2);
    fs.appendFileSync(seg(dir, 1), Uint8Array.from([9, 9, 9]));
    expect(replayAll(dir).report.truncated).not.toBeNull();
    const wal = Wal.open({ dir, fsync: { mode: 'never' }, logger: noopLogger });
    wal.log([samplesRecord([sample(4)])]);
    wal.close();
    const again = replayAll(dir);
    expect(again.records).toEqual(records(0, 5));
    expect(again.report).toMatchObject({ segmentsRead: 3, recordsRead: 5, truncated: null });
  });
});

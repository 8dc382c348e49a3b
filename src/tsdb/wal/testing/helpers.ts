/**
 * Helpers shared by the WAL's tests: temporary directories, record builders and a replay that
 * collects what it read. Not part of the build.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach } from 'vitest';
import { Labels, MemoryLogger } from '../../../model/index.js';
import { decodeHeadChunks } from '../head-chunk-record.js';
import { ByteBuffer } from '../byte-buffer.js';
import { RecordType } from '../format.js';
import { decodeSamples, decodeSeries, encodeSamples, encodeSeries } from '../records.js';
import { replayWal, type ReplayReport } from '../replay.js';
import type { WalRecord } from '../wal.js';

/** Registers an `afterEach` that removes every directory the returned function made. */
export function useTempDirs(): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-wal-'));
    made.push(dir);
    return dir;
  };
}

/**
 * One sample as a tuple. A value given as a string is a float64 bit pattern in hex: V8 quiets
 * signaling NaNs (the stale marker is one) stored in a plain array of numbers, so a tuple such
 * as `[1, 2, STALE_NAN]` would already hold 0x7ff8000000000002 instead of 0x7ff0000000000002.
 */
export type SampleTuple = [ref: number, tMs: number, value: number | string];

/** The stale marker's bit pattern, for sample tuples. */
export const STALE_BITS = '7ff0000000000002';

/** The hex bit pattern a tuple value stands for. */
export function valueBits(value: number | string): string {
  return typeof value === 'string' ? value.padStart(16, '0') : bitsOf(value);
}

/** Stores the value a tuple stands for into `values[i]`, bit for bit. */
function setValue(values: Float64Array, i: number, value: number | string): void {
  const dv = new DataView(values.buffer, values.byteOffset + 8 * i, 8);
  if (typeof value === 'number') dv.setFloat64(0, value, true);
  else dv.setBigUint64(0, BigInt(`0x${value}`), true);
}

/** A SAMPLES record holding `samples`, values copied bit for bit. */
export function samplesRecord(samples: readonly SampleTuple[]): WalRecord {
  const n = samples.length;
  const refs = new Float64Array(n);
  const ts = new Float64Array(n);
  const values = new Float64Array(n);
  samples.forEach(([r, t, v], i) => {
    refs[i] = r;
    ts[i] = t;
    setValue(values, i, v);
  });
  const buf = new ByteBuffer();
  encodeSamples(buf, refs, ts, values, n);
  return { type: RecordType.SAMPLES, payload: buf.subarray().slice() };
}

/** The tuples as `decodeRecord` reports them: values as hex bit patterns. */
export function expectedSamples(samples: readonly SampleTuple[]): [number, number, string][] {
  return samples.map(([r, t, v]) => [r, t, valueBits(v)]);
}

/** A SERIES record holding `series`, given as ref and label record. */
export function seriesRecord(series: readonly [number, Record<string, string>][]): WalRecord {
  const buf = new ByteBuffer();
  encodeSeries(
    buf,
    series.map(([ref, labels]) => ({ ref, labels: Labels.from(labels) })),
  );
  return { type: RecordType.SERIES, payload: buf.subarray().slice() };
}

/** The hex bit pattern of a float64, so that NaN payloads and -0 compare exactly. */
export function bitsOf(value: number): string {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, value);
  return dv.getBigUint64(0).toString(16).padStart(16, '0');
}

/** A decoded record, as tests compare them. */
export type DecodedRecord =
  | { type: 'series'; series: [number, Record<string, string>][] }
  | { type: 'samples'; samples: [number, number, string][] }
  | { type: 'ooo-samples'; samples: [number, number, string][] }
  | { type: 'head-chunks'; chunks: [number, number, number, number, string, number[] | null][] }
  | { type: 'other'; code: number; bytes: number[] };

/** Decodes a record payload into plain data (values as bit patterns). */
export function decodeRecord(type: number, payload: Uint8Array): DecodedRecord {
  if (type === RecordType.SERIES) {
    const series: [number, Record<string, string>][] = [];
    decodeSeries(payload, (ref, labels) => series.push([ref, labels.toRecord()]));
    return { type: 'series', series };
  }
  if (type === RecordType.SAMPLES) {
    const samples: [number, number, string][] = [];
    decodeSamples(payload, (ref, tMs, value) => samples.push([ref, tMs, bitsOf(value)]));
    return { type: 'samples', samples };
  }
  if (type === RecordType.OOO_SAMPLES) {
    const samples: [number, number, string][] = [];
    decodeSamples(payload, (ref, tMs, value) => samples.push([ref, tMs, bitsOf(value)]));
    return { type: 'ooo-samples', samples };
  }
  if (type === RecordType.HEAD_CHUNK) {
    const chunks: [number, number, number, number, string, number[] | null][] = [];
    decodeHeadChunks(payload, (ref, c) => {
      const e = c.encoder;
      const state = e === undefined ? null : [e.delta, e.vHi, e.vLo, e.leading, e.trailing, e.lengthBits];
      chunks.push([ref, c.minTimeMs, c.maxTimeMs, c.flags, Buffer.from(c.bytes).toString('hex'), state]);
    });
    return { type: 'head-chunks', chunks };
  }
  return { type: 'other', code: type, bytes: Array.from(payload) };
}

/** Replays `dir` and returns the decoded records, the report and what was logged. */
export function replayAll(dir: string): { records: DecodedRecord[]; report: ReplayReport; logger: MemoryLogger } {
  const logger = new MemoryLogger();
  const records: DecodedRecord[] = [];
  const report = replayWal(dir, { logger, onRecord: (type, payload) => records.push(decodeRecord(type, payload)) });
  return { records, report, logger };
}

/** Copies a directory tree (used to try many corruptions of one WAL). */
export function copyDir(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true });
}

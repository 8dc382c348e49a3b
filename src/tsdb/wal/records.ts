/**
 * Payload codecs of the WAL record types (format v1, docs/formats/wal.md). Pure functions, no
 * I/O. Encoders append to a reusable `ByteBuffer`; decoders read a payload view and hand each
 * entry to a callback or into caller-owned typed arrays, allocating nothing per sample.
 */
import { Labels } from '../../model/index.js';
import { StorageError, StorageErrorCode } from '../../storage/index.js';
import type { ByteBuffer } from './byte-buffer.js';
import { ByteReader, putUvarint, putVarint, putVarintBig } from './varint.js';

/** One entry of a SERIES record. Any object with these two fields (a head series) will do. */
export interface SeriesEntry {
  readonly ref: number;
  readonly labels: Labels;
}

/** The largest encoding of one sample: two 8-byte varints and the 8-byte value. */
const MAX_SAMPLE_BYTES = 24;
const MAX_VARINT_BYTES = 8;

const textEncoder = new TextEncoder();

function corrupt(what: string): StorageError {
  return new StorageError(StorageErrorCode.CORRUPTION, `wal: malformed ${what} record`);
}

function putString(out: ByteBuffer, s: string): void {
  out.ensure(MAX_VARINT_BYTES + 3 * s.length);
  const b = out.bytes;
  const n = s.length;
  // Fast path: ASCII, where the UTF-16 length is the byte length.
  let pos = putUvarint(b, out.length, n);
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) {
      const utf8 = textEncoder.encode(s);
      pos = putUvarint(b, out.length, utf8.length);
      b.set(utf8, pos);
      out.length = pos + utf8.length;
      return;
    }
    b[pos + i] = c;
  }
  out.length = pos + n;
}

/**
 * Appends a SERIES payload to `out`: per entry, uvarint ref, uvarint label count, then each
 * label's name and value as uvarint byte length + UTF-8. Call `out.reset()` first for a fresh
 * payload. Refs must be non-negative safe integers.
 */
export function encodeSeries(out: ByteBuffer, series: readonly SeriesEntry[]): void {
  for (let i = 0; i < series.length; i++) {
    const { ref, labels } = series[i];
    if (!Number.isSafeInteger(ref) || ref < 0) throw new RangeError(`wal: series ref ${ref} is not a uint`);
    const flat = labels.flat();
    out.ensure(2 * MAX_VARINT_BYTES);
    const pos = putUvarint(out.bytes, out.length, ref);
    out.length = putUvarint(out.bytes, pos, flat.length >> 1);
    for (let j = 0; j < flat.length; j++) putString(out, flat[j]);
  }
}

/**
 * Decodes a SERIES payload, calling `fn` once per entry in order; returns the entry count.
 * Labels are rebuilt without re-sorting (the encoder wrote them from sorted `Labels`).
 * Throws `StorageError` `ERR_CORRUPTION` when the payload is malformed.
 */
export function decodeSeries(payload: Uint8Array, fn: (ref: number, labels: Labels) => void): number {
  const r = new ByteReader(payload, 0, payload.length);
  // Buffer#toString is the fastest UTF-8 decoder for short strings and yields flat strings.
  const text = Buffer.isBuffer(payload) ? payload : Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  let n = 0;
  while (r.pos < r.end) {
    const ref = r.uvarint();
    const count = r.uvarint();
    if (count > (r.end - r.pos) / 2) throw corrupt('SERIES');
    const flat = new Array<string>(2 * count);
    for (let j = 0; j < flat.length; j++) {
      const len = r.uvarint();
      if (len > r.end - r.pos) throw corrupt('SERIES');
      flat[j] = text.toString('utf8', r.pos, r.pos + len);
      r.pos += len;
    }
    if (r.pos > r.end) throw corrupt('SERIES');
    fn(ref, Labels.fromSortedPairsUnchecked(flat));
    n++;
  }
  return n;
}

/**
 * Appends a SAMPLES payload holding `count` samples taken from parallel arrays: uvarint count,
 * then (when count > 0) uvarint base ref and zigzag varint base timestamp (those of the first
 * sample), then per sample zigzag varint(ref - baseRef), zigzag varint(tMs - baseT) and the
 * float64 value as 8 little-endian bytes. Pass values in a `Float64Array` to keep NaN payloads
 * (the stale marker) bit-exact: engines may canonicalise NaNs stored in plain arrays.
 * Timestamps must be safe integers; call `out.reset()` first for a fresh payload.
 */
export function encodeSamples(
  out: ByteBuffer,
  refs: ArrayLike<number>,
  tsMs: ArrayLike<number>,
  values: ArrayLike<number>,
  count: number,
): void {
  out.ensure(3 * MAX_VARINT_BYTES + count * MAX_SAMPLE_BYTES);
  const b = out.bytes;
  const dv = out.view;
  let pos = putUvarint(b, out.length, count);
  if (count > 0) {
    const baseRef = refs[0];
    const baseT = tsMs[0];
    if (!Number.isSafeInteger(baseRef) || baseRef < 0) throw new RangeError(`wal: sample ref ${baseRef} is not a uint`);
    if (!Number.isSafeInteger(baseT)) throw new RangeError(`wal: timestamp ${baseT} is not a safe integer`);
    pos = putUvarint(b, pos, baseRef);
    pos = putVarint(b, pos, baseT);
    for (let i = 0; i < count; i++) {
      const ref = refs[i];
      if (!Number.isSafeInteger(ref) || ref < 0) throw new RangeError(`wal: sample ref ${ref} is not a uint`);
      pos = putVarint(b, pos, ref - baseRef);
      const t = tsMs[i];
      const dt = t - baseT;
      if (Number.isSafeInteger(dt)) pos = putVarint(b, pos, dt);
      else if (Number.isSafeInteger(t)) pos = putVarintBig(b, pos, BigInt(t) - BigInt(baseT));
      else throw new RangeError(`wal: timestamp ${t} is not a safe integer`);
      dv.setFloat64(pos, values[i], true);
      pos += 8;
    }
  }
  out.length = pos;
}

/** The number of samples in a SAMPLES payload, read from its first field. */
export function samplesCount(payload: Uint8Array): number {
  return new ByteReader(payload, 0, payload.length).uvarint();
}

function readTime(r: ByteReader, baseT: number): number {
  const dt = r.varint();
  if (dt === dt) return baseT + dt;
  const t = Number(BigInt(baseT) + r.varintBig()); // two far-apart timestamps: rare slow path
  if (!Number.isSafeInteger(t)) throw corrupt('SAMPLES');
  return t;
}

/**
 * Decodes a SAMPLES payload, calling `fn(ref, tMs, value)` once per sample in order; returns
 * the sample count. Throws `StorageError` `ERR_CORRUPTION` when the payload is malformed.
 */
export function decodeSamples(payload: Uint8Array, fn: (ref: number, tMs: number, value: number) => void): number {
  const r = new ByteReader(payload, 0, payload.length);
  const count = r.uvarint();
  if (count === 0) {
    if (r.pos !== r.end) throw corrupt('SAMPLES');
    return 0;
  }
  if (count > payload.length / 10) throw corrupt('SAMPLES');
  const dv = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const baseRef = r.uvarint();
  const baseT = readTime(r, 0);
  for (let i = 0; i < count; i++) {
    const ref = baseRef + r.varint();
    const t = readTime(r, baseT);
    const pos = r.pos;
    if (pos + 8 > r.end || ref !== ref) throw corrupt('SAMPLES');
    r.pos = pos + 8;
    fn(ref, t, dv.getFloat64(pos, true));
  }
  if (r.pos !== r.end) throw corrupt('SAMPLES');
  return count;
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Decodes a SAMPLES payload into caller-owned arrays starting at index `at`; returns the sample
 * count. Values are copied bit for bit. Throws `RangeError` when the arrays are too short
 * (size them with `samplesCount`) and `StorageError` `ERR_CORRUPTION` when the payload is malformed.
 */
export function decodeSamplesInto(
  payload: Uint8Array,
  refs: Float64Array,
  tsMs: Float64Array,
  values: Float64Array,
  at = 0,
): number {
  const r = new ByteReader(payload, 0, payload.length);
  const count = r.uvarint();
  if (count === 0) {
    if (r.pos !== r.end) throw corrupt('SAMPLES');
    return 0;
  }
  if (count > payload.length / 10) throw corrupt('SAMPLES');
  if (at + count > refs.length || at + count > tsMs.length || at + count > values.length) {
    throw new RangeError(`wal: ${count} samples do not fit at index ${at}`);
  }
  const dv = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
  const lo = LITTLE_ENDIAN_HOST ? 0 : 1;
  const baseRef = r.uvarint();
  const baseT = readTime(r, 0);
  for (let i = 0; i < count; i++) {
    const ref = baseRef + r.varint();
    const t = readTime(r, baseT);
    const pos = r.pos;
    if (pos + 8 > r.end || ref !== ref) throw corrupt('SAMPLES');
    r.pos = pos + 8;
    const j = at + i;
    refs[j] = ref;
    tsMs[j] = t;
    bits[2 * j + lo] = dv.getUint32(pos, true);
    bits[2 * j + 1 - lo] = dv.getUint32(pos + 4, true);
  }
  if (r.pos !== r.end) throw corrupt('SAMPLES');
  return count;
}

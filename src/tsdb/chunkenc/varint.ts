/**
 * Varints for safe-integer JS numbers, byte-compatible with Go's `encoding/binary` Uvarint and
 * Varint (LEB128, 7 bits a byte, least significant group first; signed values zigzag-encoded).
 *
 * Values go up to `Number.MAX_SAFE_INTEGER` (2^53 - 1), beyond what 32-bit bitwise operators
 * cover, so the long paths use exact float arithmetic (`%` and `/` by powers of two). The
 * zigzag form of a negative safe integer is odd and can exceed 2^53, where floats lose odd
 * numbers, so it is never materialised: the first byte takes the sign bit and six magnitude
 * bits, and the rest of the magnitude follows as an ordinary uvarint.
 *
 * Two flavours: byte-buffer helpers (`putUvarint`/`readUvarint`, for the WAL and the block
 * index) and bit-stream helpers (`writeUvarintBits`/`readUvarintBits`, for chunks).
 */
import type { BitReader } from './bit-reader.js';
import type { BitWriter } from './bit-writer.js';

/** The most bytes a varint of a safe integer (signed or not) takes. */
export const MAX_VARINT_LEN = 8;

/** The most bytes a 64-bit uvarint takes (as in Go's `binary.MaxVarintLen64`). */
export const MAX_VARINT_LEN_64 = 10;

/** An out-parameter for the byte-buffer readers: where the next value starts, or -1 on error. */
export interface ByteCursor {
  offset: number;
}

/**
 * The shared cursor the byte-buffer readers use when the caller passes none. Read it right
 * after the call: the next read overwrites it.
 */
export const byteCursor: ByteCursor = { offset: 0 };

/** A 64-bit unsigned value as two uint32 halves (an out-parameter for the 64-bit readers). */
export interface Uint64Parts {
  hi: number;
  lo: number;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function checkUnsigned(n: number): void {
  if (!(n >= 0 && n <= MAX_SAFE)) throw new RangeError(`uvarint out of range: ${n}`);
}

function checkSigned(n: number): void {
  if (!(n >= -MAX_SAFE && n <= MAX_SAFE)) throw new RangeError(`varint out of range: ${n}`);
}

/** Returns how many bytes `putUvarint` writes for `n` (a safe non-negative integer). */
export function uvarintSize(n: number): number {
  checkUnsigned(n);
  let size = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

/** Returns how many bytes `putVarint` writes for `n` (a safe integer). */
export function varintSize(n: number): number {
  checkSigned(n);
  const k = n < 0 ? -n - 1 : n;
  return k < 64 ? 1 : 1 + uvarintSize(Math.floor(k / 64));
}

/**
 * Writes `n` (a safe non-negative integer) as a uvarint at `buf[off]` and returns the offset
 * after it. The caller guarantees room for `uvarintSize(n)` bytes (at most `MAX_VARINT_LEN`);
 * typed arrays silently drop writes past their end. Throws a RangeError when `n` is out of range.
 */
export function putUvarint(buf: Uint8Array, off: number, n: number): number {
  if (n < 128 && n >= 0) {
    buf[off] = n;
    return off + 1;
  }
  checkUnsigned(n);
  // Above 2^31 shed 7-bit groups arithmetically until the rest fits the bitwise loop.
  while (n > 0x7fffffff) {
    const low = n % 128;
    buf[off++] = low | 0x80;
    n = (n - low) / 128;
  }
  while (n >= 128) {
    buf[off++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  buf[off] = n;
  return off + 1;
}

/** Writes `n` (a safe integer) as a zigzag varint at `buf[off]`; returns the offset after it. */
export function putVarint(buf: Uint8Array, off: number, n: number): number {
  checkSigned(n);
  const sign = n < 0 ? 1 : 0;
  const k = sign === 1 ? -n - 1 : n; // zigzag(n) = 2k + sign, never computed as one float
  const low = k % 64;
  const rest = (k - low) / 64;
  if (rest === 0) {
    buf[off] = (low << 1) | sign;
    return off + 1;
  }
  buf[off] = (low << 1) | sign | 0x80;
  return putUvarint(buf, off + 1, rest);
}

/**
 * Reads a uvarint at `buf[off]`. Returns its value and stores the offset after it in
 * `cursor.offset`. On a truncated varint, one longer than 10 bytes, or a value above
 * 2^53 - 1, returns NaN and sets `cursor.offset` to -1. Never reads outside `buf`.
 */
export function readUvarint(buf: Uint8Array, off: number, cursor: ByteCursor = byteCursor): number {
  const len = buf.length;
  if (off >= 0 && off < len) {
    const b0 = buf[off];
    if (b0 < 0x80) {
      cursor.offset = off + 1;
      return b0;
    }
  }
  return readUvarintSlow(buf, off, len, cursor);
}

function readUvarintSlow(buf: Uint8Array, off: number, len: number, cursor: ByteCursor): number {
  if (!(off >= 0)) return fail(cursor);
  let result = 0;
  // The first four groups (28 bits) fit int32 arithmetic.
  for (let shift = 0; shift < 28; shift += 7) {
    if (off >= len) return fail(cursor);
    const b = buf[off++];
    result |= (b & 0x7f) << shift;
    if (b < 0x80) {
      cursor.offset = off;
      return result;
    }
  }
  let scale = 268435456; // 2^28
  for (let i = 4; i < MAX_VARINT_LEN_64; i++) {
    if (off >= len) return fail(cursor);
    const b = buf[off++];
    result += (b & 0x7f) * scale;
    if (b < 0x80) {
      // Rounding is monotonic, so a true value >= 2^53 never rounds into the safe range.
      if (result > MAX_SAFE) return fail(cursor);
      cursor.offset = off;
      return result;
    }
    scale *= 128;
  }
  return fail(cursor);
}

/** Reads a zigzag varint at `buf[off]`; same contract as `readUvarint` (NaN and -1 on error). */
export function readVarint(buf: Uint8Array, off: number, cursor: ByteCursor = byteCursor): number {
  if (!(off >= 0 && off < buf.length)) return fail(cursor);
  const b0 = buf[off];
  const sign = b0 & 1;
  const low = (b0 >>> 1) & 0x3f;
  let k = low;
  if (b0 < 0x80) {
    cursor.offset = off + 1;
  } else {
    const rest = readUvarint(buf, off + 1, cursor);
    if (cursor.offset < 0) return NaN;
    k = rest * 64 + low;
  }
  const n = sign === 1 ? -k - 1 : k;
  if (!Number.isSafeInteger(n)) return fail(cursor);
  return n;
}

function fail(cursor: ByteCursor): number {
  cursor.offset = -1;
  return NaN;
}

/** Writes `n` (a safe non-negative integer) as a uvarint, one byte (8 bits) at a time. */
export function writeUvarintBits(w: BitWriter, n: number): void {
  checkUnsigned(n);
  while (n > 0x7fffffff) {
    const low = n % 128;
    w.writeBits(low | 0x80, 8);
    n = (n - low) / 128;
  }
  while (n >= 128) {
    w.writeBits((n & 0x7f) | 0x80, 8);
    n >>>= 7;
  }
  w.writeBits(n, 8);
}

/** Writes a 64-bit unsigned value given as uint32 halves as a uvarint (up to 10 bytes). */
export function writeUvarint64Bits(w: BitWriter, hi: number, lo: number): void {
  hi >>>= 0;
  lo >>>= 0;
  while (hi !== 0 || lo >= 128) {
    w.writeBits((lo & 0x7f) | 0x80, 8);
    lo = ((lo >>> 7) | (hi << 25)) >>> 0;
    hi >>>= 7;
  }
  w.writeBits(lo, 8);
}

/** Writes `n` (a safe integer) as a zigzag varint into the bit stream. */
export function writeVarintBits(w: BitWriter, n: number): void {
  checkSigned(n);
  const sign = n < 0 ? 1 : 0;
  const k = sign === 1 ? -n - 1 : n;
  const low = k % 64;
  const rest = (k - low) / 64;
  if (rest === 0) {
    w.writeBits((low << 1) | sign, 8);
    return;
  }
  w.writeBits((low << 1) | sign | 0x80, 8);
  writeUvarintBits(w, rest);
}

/**
 * Reads a uvarint from the bit stream. Returns NaN when it is longer than 10 bytes, exceeds
 * 2^53 - 1 or runs past the end (then `r.overflowed` is also set).
 */
export function readUvarintBits(r: BitReader): number {
  let result = 0;
  let scale = 1;
  for (let i = 0; i < MAX_VARINT_LEN_64; i++) {
    const b = r.readBits(8);
    if (r.overflowed) return NaN;
    result += (b & 0x7f) * scale;
    if (b < 0x80) return result > MAX_SAFE ? NaN : result;
    scale *= 128;
  }
  return NaN;
}

/**
 * Reads a uvarint of up to 64 bits into `out` (uint32 halves). Returns false when it is longer
 * than 10 bytes, does not fit 64 bits, or runs past the end.
 */
export function readUvarint64Bits(r: BitReader, out: Uint64Parts): boolean {
  let hi = 0;
  let lo = 0;
  for (let shift = 0; shift < 70; shift += 7) {
    const b = r.readBits(8);
    if (r.overflowed) return false;
    const g = b & 0x7f;
    if (shift < 32) {
      lo |= g << shift;
      if (shift > 25) hi |= g >>> (32 - shift);
    } else if (shift === 63) {
      if (g > 1) return false;
      hi |= g << 31;
    } else {
      hi |= g << (shift - 32);
    }
    if (b < 0x80) {
      out.hi = hi >>> 0;
      out.lo = lo >>> 0;
      return true;
    }
  }
  return false;
}

/** Reads a zigzag varint from the bit stream; NaN on error, as `readUvarintBits`. */
export function readVarintBits(r: BitReader): number {
  const b0 = r.readBits(8);
  if (r.overflowed) return NaN;
  const sign = b0 & 1;
  let k = (b0 >>> 1) & 0x3f;
  if (b0 >= 0x80) k += readUvarintBits(r) * 64;
  const n = sign === 1 ? -k - 1 : k;
  return Number.isSafeInteger(n) ? n : NaN;
}

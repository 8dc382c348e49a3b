/**
 * A growable, big-endian bit stream over a `Uint8Array`.
 *
 * Bits are packed most-significant first: the first bit written is bit 7 of byte 0. Unwritten
 * bits of the last byte are always zero, so `bytes()` can be handed to a reader as is.
 */

import { allocChunkBytes, copyChunkBytes } from './byte-arena.js';

const INITIAL_CAPACITY_BYTES = 32;

/**
 * Appends bits to a buffer that starts small and doubles when full.
 *
 * The writer never shrinks and never reuses a buffer it has outgrown: a view returned by
 * `bytes()` keeps showing the bits that were written when it was taken, even after the writer
 * grows (the old buffer is simply dropped) or writes more bits (which only land past the view
 * or in still-zero bits of its last byte). That is what lets a chunk iterator read a snapshot
 * of a chunk that is still being appended to. Streams are limited to 2^31 bits (256 MiB).
 */
export class BitWriter {
  private buf: Uint8Array;
  private bitLength = 0;

  /** Creates an empty writer whose first buffer holds `initialCapacityBytes` bytes. */
  constructor(initialCapacityBytes: number = INITIAL_CAPACITY_BYTES) {
    this.buf = allocChunkBytes(Math.max(1, initialCapacityBytes | 0));
  }

  /**
   * A writer that continues the first `lengthBits` bits of `bytes` (copied into a buffer of at
   * least `capacityBytes`). Bits past `lengthBits` in the last byte are cleared, because later
   * writes OR into them (a view of a live chunk can carry bits appended after it was taken).
   */
  static resume(bytes: Uint8Array, lengthBits: number, capacityBytes: number): BitWriter {
    const used = (lengthBits + 7) >>> 3;
    const w = new BitWriter(Math.max(capacityBytes, used + 1));
    w.buf.set(bytes.subarray(0, used));
    if ((lengthBits & 7) !== 0) w.buf[used - 1] &= 0xff << (8 - (lengthBits & 7));
    w.bitLength = lengthBits;
    return w;
  }

  /** The number of bits written so far. */
  get lengthBits(): number {
    return this.bitLength;
  }

  /** The size of the current buffer in bytes. */
  get capacityBytes(): number {
    return this.buf.length;
  }

  /** The number of bytes the written bits occupy (the last one possibly partial). */
  get lengthBytes(): number {
    return (this.bitLength + 7) >>> 3;
  }

  /** Writes one bit: 1 when `bit` is non-zero, else 0. */
  writeBit(bit: number): void {
    const pos = this.bitLength;
    if (pos >= this.buf.length * 8) this.grow(pos + 1);
    if (bit !== 0) this.buf[pos >>> 3] |= 0x80 >>> (pos & 7);
    this.bitLength = pos + 1;
  }

  /**
   * Writes the low `count` bits of `value` (0 <= count <= 32), most significant first. Higher
   * bits of `value` are ignored, so a negative int32 can be written as its two's complement.
   */
  writeBits(value: number, count: number): void {
    if (!(count > 0)) return; // also rejects NaN, which would never end the loop below
    let pos = this.bitLength;
    const end = pos + count;
    if (end > this.buf.length * 8) this.grow(end);
    const buf = this.buf;
    // `(1 << 32) - 1` is 0 in JS, so 32 bits need their own mask.
    let v = count >= 32 ? value >>> 0 : value & ((1 << count) - 1);
    let remaining = count;
    for (;;) {
      const free = 8 - (pos & 7);
      if (remaining <= free) {
        buf[pos >>> 3] |= v << (free - remaining);
        break;
      }
      remaining -= free;
      buf[pos >>> 3] |= v >>> remaining;
      pos += free;
      v &= (1 << remaining) - 1; // remaining < 32 here because free >= 1
    }
    this.bitLength = end;
  }

  /** Writes a 64-bit pattern given as its high and low 32-bit halves (high first). */
  writeBits64(hi: number, lo: number): void {
    this.writeBits(hi, 32);
    this.writeBits(lo, 32);
  }

  /**
   * Overwrites two already-written bytes at `byteOffset` with `value` as a big-endian uint16.
   * Used for headers (a chunk's sample count) that change as the stream grows.
   */
  patchUint16(byteOffset: number, value: number): void {
    if (byteOffset + 2 > this.lengthBytes) throw new RangeError('patchUint16 past the written bytes');
    this.buf[byteOffset] = value >>> 8;
    this.buf[byteOffset + 1] = value;
  }

  /**
   * Returns a view of the written bytes (the last one zero-padded). The view shares memory
   * with the writer: it stays valid (and unchanged in its written bits) until `reset()`.
   */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.lengthBytes);
  }

  /** Same as `bytes()`; the name readers of other bit-stream libraries look for. */
  finish(): Uint8Array {
    return this.bytes();
  }

  /** Returns an exact-size copy of the written bytes, detached from the writer's buffer. */
  copyBytes(): Uint8Array {
    return copyChunkBytes(this.buf.subarray(0, this.lengthBytes));
  }

  /**
   * Empties the writer for reuse, keeping its buffer. Views returned earlier by `bytes()`
   * become invalid, so only call this when nobody holds one.
   */
  reset(): void {
    this.buf.fill(0, 0, this.lengthBytes);
    this.bitLength = 0;
  }

  private grow(minBits: number): void {
    if (minBits > 0x7fffffff) throw new RangeError('bit stream longer than 2^31 bits');
    let capacity = this.buf.length * 2;
    while (capacity * 8 < minBits) capacity *= 2;
    const next = allocChunkBytes(capacity);
    next.set(this.buf.subarray(0, this.lengthBytes));
    this.buf = next;
  }
}

/**
 * Reads a big-endian bit stream written by `BitWriter`.
 *
 * The reader never throws and never reads outside its byte range: a read that would run past
 * the end returns zero bits, leaves the reader at the end and sets `overflowed`. Decoders check
 * that flag once per record instead of once per read, which keeps the hot loop branch-light.
 */

const EMPTY = new Uint8Array(0);

/** A cursor over the bits of a byte range, most significant bit of each byte first. */
export class BitReader {
  private buf: Uint8Array = EMPTY;
  private pos = 0;
  private limit = 0;
  private overflow = false;

  /** Creates a reader over `bytes`, starting `startByte` bytes in (an empty reader by default). */
  constructor(bytes?: Uint8Array, startByte = 0) {
    if (bytes !== undefined) this.reset(bytes, startByte);
  }

  /** Re-points the reader at `bytes`, starting `startByte` bytes in, and clears `overflowed`. */
  reset(bytes: Uint8Array, startByte = 0): void {
    this.buf = bytes;
    this.limit = bytes.length * 8;
    this.pos = Math.min(startByte * 8, this.limit);
    this.overflow = startByte * 8 > this.limit;
  }

  /** True once a read ran past the end of the bytes; every such read returned zeros. */
  get overflowed(): boolean {
    return this.overflow;
  }

  /** The number of bits consumed so far, counted from the start of the byte array. */
  get positionBits(): number {
    return this.pos;
  }

  /** The bytes being read (for decoders that read bits in a local loop, see `moveTo`). */
  get bytes(): Uint8Array {
    return this.buf;
  }

  /** The bit position the bytes end at. */
  get limitBits(): number {
    return this.limit;
  }

  /**
   * Moves the cursor to bit `posBits` (at most `limitBits`), for a decoder that read ahead in
   * a local loop over `bytes` and hands the position back.
   */
  moveTo(posBits: number): void {
    this.pos = posBits;
  }

  /** The number of bits left before the end of the bytes. */
  get remainingBits(): number {
    return this.limit - this.pos;
  }

  /** Reads one bit (0 or 1). */
  readBit(): number {
    const pos = this.pos;
    if (pos >= this.limit) {
      this.overflow = true;
      return 0;
    }
    this.pos = pos + 1;
    return (this.buf[pos >>> 3] >>> (7 - (pos & 7))) & 1;
  }

  /** Reads `count` bits (0 <= count <= 32) as an unsigned integer. */
  readBits(count: number): number {
    if (!(count > 0)) return 0; // also rejects NaN, which would never end the loop below
    let pos = this.pos;
    if (pos + count > this.limit) {
      this.pos = this.limit;
      this.overflow = true;
      return 0;
    }
    const buf = this.buf;
    let result = 0;
    let remaining = count;
    for (;;) {
      const avail = 8 - (pos & 7);
      const byte = buf[pos >>> 3] & (0xff >>> (8 - avail));
      if (remaining <= avail) {
        result = (result << remaining) | (byte >>> (avail - remaining));
        pos += remaining;
        break;
      }
      // At most 32 bits in total, so shifting left never drops a wanted bit.
      result = (result << avail) | byte;
      pos += avail;
      remaining -= avail;
    }
    this.pos = pos;
    return result >>> 0;
  }

  /** Reads `count` bits and sign-extends them from bit `count - 1` (1 <= count <= 32). */
  readSignedBits(count: number): number {
    const raw = this.readBits(count);
    return count >= 32 ? raw | 0 : (raw << (32 - count)) >> (32 - count);
  }
}

/**
 * Reads the bit at position `pos` of `buf` (0 or 1) without a reader: for decoders that keep the
 * position in a local variable in their hot loop. A position past the end reads 0; such decoders
 * compare their position with the end once per record, as `BitReader` users check `overflowed`.
 */
export function bitAt(buf: Uint8Array, pos: number): number {
  return (buf[pos >>> 3] >>> (7 - (pos & 7))) & 1;
}

/**
 * Reads `count` bits (1 <= count <= 32) at bit position `pos` of `buf` as an unsigned integer,
 * touching only the bytes that hold them (bytes past the end read as zeros); see `bitAt`.
 */
export function bitsAt(buf: Uint8Array, pos: number, count: number): number {
  let result = 0;
  let remaining = count;
  for (;;) {
    const avail = 8 - (pos & 7);
    const byte = buf[pos >>> 3] & (0xff >>> (8 - avail));
    if (remaining <= avail) {
      result = (result << remaining) | (byte >>> (avail - remaining));
      break;
    }
    result = (result << avail) | byte;
    pos += avail;
    remaining -= avail;
  }
  return result >>> 0;
}

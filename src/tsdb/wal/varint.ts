/**
 * Varints over byte arrays for the WAL's record payloads, exact for every safe integer.
 *
 * `uvarint` is LEB128: 7 bits per byte, least significant group first, high bit set on every
 * byte but the last. `varint` is the zigzag mapping `n >= 0 ? 2n : -2n - 1` followed by
 * `uvarint`; it is computed from sign and magnitude so that no intermediate leaves the safe
 * range (2n itself would not be exact near 2^53). 32-bit operators are only ever applied to
 * extract low bits: `x & 0x7f` is exact for any integer because ToInt32 reduces modulo 2^32.
 *
 * The writers are shared with the chunk encoding (`chunkenc/varint.ts`).
 */

const TWO_POW_53 = 2 ** 53;

// The writers are the chunk encoding's (one implementation of LEB128 and zigzag in the TSDB);
// the WAL adds the BigInt slow path and a cursor-style reader below.
export { putUvarint, putVarint } from '../chunkenc/varint.js';

/**
 * Writes `n` as a zigzag varint where `n` may exceed the safe range (up to 2^55): the slow path
 * for the difference of two far-apart safe timestamps. Returns the position after it.
 */
export function putVarintBig(out: Uint8Array, pos: number, n: bigint): number {
  let z = n >= 0n ? n << 1n : ((-n - 1n) << 1n) | 1n;
  while (z >= 0x80n) {
    out[pos++] = Number(z & 0x7fn) | 0x80;
    z >>= 7n;
  }
  out[pos++] = Number(z);
  return pos;
}

/**
 * A forward cursor over a byte range. Reads past `end` return garbage but never loop forever
 * (a missing byte reads as `undefined`, which ends a varint); decoders check `pos <= end`
 * once per entry instead of once per byte.
 */
export class ByteReader {
  /** The next byte to read. */
  pos: number;

  /** Creates a reader over `bytes[start, end)`. */
  constructor(
    readonly bytes: Uint8Array,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }

  /** Reads a uvarint. Values past 2^53 come back rounded; callers that care compare with 2^53. */
  uvarint(): number {
    const b = this.bytes;
    let byte = b[this.pos++];
    if (byte < 0x80) return byte;
    let v = byte & 0x7f;
    let mul = 128;
    for (;;) {
      byte = b[this.pos++];
      if (!(byte >= 0x80)) return v + (byte | 0) * mul;
      v += (byte & 0x7f) * mul;
      mul *= 128;
    }
  }

  /**
   * Reads a zigzag varint. A magnitude past the safe range comes back as NaN with the cursor
   * unchanged, so that the caller can re-read it with `varintBig`.
   */
  varint(): number {
    const start = this.pos;
    const first = this.bytes[this.pos++] | 0;
    let m = (first >> 1) & 63;
    if (first >= 0x80) m += this.uvarint() * 64;
    if (m >= TWO_POW_53) {
      this.pos = start;
      return NaN;
    }
    return first & 1 ? -m - 1 : m;
  }

  /** Reads a zigzag varint of any size as a bigint. */
  varintBig(): bigint {
    const b = this.bytes;
    let z = 0n;
    let shift = 0n;
    for (;;) {
      const byte = b[this.pos++] | 0;
      z |= BigInt(byte & 0x7f) << shift;
      shift += 7n;
      if (byte < 0x80) break;
    }
    return z & 1n ? -(z >> 1n) - 1n : z >> 1n;
  }
}

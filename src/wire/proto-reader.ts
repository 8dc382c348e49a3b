import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';

const FATAL_UTF8 = new TextDecoder('utf-8', { fatal: true });
const LOSSY_UTF8 = new TextDecoder('utf-8');

/**
 * `@bufbuild/protobuf`'s `BinaryReader` with the two reads the hot decoders need and the base
 * class keeps as BigInt: `int64` as a plain number, and the raw bytes of a span as a one-byte
 * string (a cheap, exact map key for "these encoded labels").
 */
export class ProtoReader extends BinaryReader {
  private latin1: Buffer | undefined;

  /**
   * A signed 64-bit varint as a number. Exact up to ±2^53; beyond that the result is rounded, so
   * `Number.isSafeInteger` on it tells whether the value was representable.
   */
  int64Number(): number {
    const [lo, hi] = this.varint64();
    return (hi | 0) * 4294967296 + (lo >>> 0);
  }

  /** An unsigned 64-bit varint (or fixed64 via `fixed64Number`) as a number, rounded beyond 2^53. */
  uint64Number(): number {
    const [lo, hi] = this.varint64();
    return (hi >>> 0) * 4294967296 + (lo >>> 0);
  }

  /** The bytes `[start, end)` of the buffer as a string of one char per byte. */
  binaryString(start: number, end: number): string {
    this.latin1 ??= Buffer.from(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    return this.latin1.toString('latin1', start, end);
  }

  /**
   * Reads a length-delimited string that must be valid UTF-8, or returns null when it is not
   * (the position is past it either way). `string()` would replace invalid bytes with U+FFFD,
   * which can merge two different label values into one series. ASCII, the common case, is
   * checked and decoded in one cheap pass; anything else goes through a fatal `TextDecoder`.
   */
  utf8String(): string | null {
    const end = this.subEnd();
    const start = this.pos;
    this.pos = end;
    return this.utf8Slice(start, end);
  }

  /**
   * The bytes `[start, end)` as strict UTF-8, or null when they are not valid UTF-8; `latin1` is
   * their one-char-per-byte string when the caller has it already (it is the answer for ASCII).
   */
  utf8Slice(start: number, end: number, latin1?: string): string | null {
    const b = this.buf;
    let i = start;
    while (i < end && b[i] < 0x80) i++;
    if (i === end) return latin1 ?? this.binaryString(start, end);
    try {
      return FATAL_UTF8.decode(b.subarray(start, end));
    } catch {
      return null;
    }
  }

  /** The bytes `[start, end)` decoded with U+FFFD for invalid sequences: for error messages only. */
  lossyString(start: number, end: number): string {
    return LOSSY_UTF8.decode(this.buf.subarray(start, end));
  }

  /**
   * Reads a tag as one number, `fieldNo << 3 | wireType`, without the array `tag()` allocates.
   * Throws like `tag()` on field number 0 and on wire types above 5.
   */
  tagNumber(): number {
    const t = this.uint32();
    if (t >>> 3 === 0 || (t & 7) > 5) throw new Error(`illegal tag: field no ${t >>> 3} wire type ${t & 7}`);
    return t;
  }

  /** Skips the field just read by `tag()`, with the library's limit on nested groups. */
  skipField(wireType: WireType, fieldNo: number): void {
    this.skip(wireType, fieldNo);
  }

  /** Reads a length prefix and returns the end position of the sub-message, checked against the buffer. */
  subEnd(): number {
    const len = this.uint32();
    const end = this.pos + len;
    if (end > this.len) throw new RangeError('premature EOF');
    return end;
  }
}

export { WireType };

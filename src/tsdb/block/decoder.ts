/**
 * A bounds-checked cursor over bytes of a file already in memory, for the index reader. Every
 * failure (a truncated or overlong varint, a read past the end) throws `ERR_CORRUPTION` naming
 * the file, so decoders need no error plumbing of their own.
 */
import { readUvarint, readVarint, type ByteCursor } from '../chunkenc/index.js';
import { corruption } from './format.js';

/** Reads varints from `buf[offset, end)`; reset it onto other bytes instead of allocating. */
export class Decoder {
  /** The bytes being read. */
  buf: Uint8Array = new Uint8Array(0);
  /** The index of the next byte. */
  offset = 0;
  /** The index just past the last readable byte. */
  end = 0;
  private readonly cursor: ByteCursor = { offset: 0 };

  /** Creates a decoder whose errors name `path`. */
  constructor(readonly path: string) {}

  /** Points the decoder at `buf[offset, end)`; returns it. */
  reset(buf: Uint8Array, offset: number, end: number): this {
    this.buf = buf;
    this.offset = offset;
    this.end = end;
    return this;
  }

  /** Reads a uvarint; throws `ERR_CORRUPTION` when it is malformed or passes `end`. */
  uvarint(): number {
    const v = readUvarint(this.buf, this.offset, this.cursor);
    const next = this.cursor.offset;
    if (next < 0 || next > this.end) throw this.fail('malformed or truncated varint');
    this.offset = next;
    return v;
  }

  /** Reads a zigzag varint; throws like `uvarint`. */
  varint(): number {
    const v = readVarint(this.buf, this.offset, this.cursor);
    const next = this.cursor.offset;
    if (next < 0 || next > this.end) throw this.fail('malformed or truncated varint');
    this.offset = next;
    return v;
  }

  /** Reads a uvarint that must be below `limit` (a count or reference); throws otherwise. */
  uvarintBelow(limit: number, what: string): number {
    const v = this.uvarint();
    if (v >= limit) throw this.fail(`${what} ${v} out of range (limit ${limit})`);
    return v;
  }

  /** Throws unless every byte up to `end` was consumed. */
  expectEnd(what: string): void {
    if (this.offset !== this.end) throw this.fail(`${this.end - this.offset} trailing bytes after ${what}`);
  }

  /** Builds the corruption error for this decoder's file. */
  fail(what: string): Error {
    return corruption(this.path, what);
  }
}

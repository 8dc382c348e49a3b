/**
 * Write-side byte buffers: `ByteBuf`, a growable in-memory encoder, and `FileSink`, which
 * streams a `ByteBuf` into a file in large writes while keeping a running CRC-32 of the current
 * section. Encoding is synchronous; only flushing awaits, so writers call `maybeFlush()` once per
 * record instead of awaiting per varint.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { MAX_VARINT_LEN, putUvarint, putVarint } from '../chunkenc/index.js';

const FLUSH_BYTES = 1 << 20;

/** A growable byte buffer with big-endian and varint encoders. */
export class ByteBuf {
  /** The backing array; valid bytes are `[0, length)`. Replaced when the buffer grows. */
  bytes: Uint8Array;
  /** The number of bytes written. */
  length = 0;

  /** Creates a buffer with `initialBytes` of capacity. */
  constructor(initialBytes = 256) {
    this.bytes = new Uint8Array(initialBytes);
  }

  /** Makes room for `n` more bytes. */
  reserve(n: number): void {
    const need = this.length + n;
    if (need <= this.bytes.length) return;
    let cap = this.bytes.length * 2;
    while (cap < need) cap *= 2;
    const grown = new Uint8Array(cap);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  /** Appends one byte. */
  putU8(v: number): void {
    this.reserve(1);
    this.bytes[this.length++] = v;
  }

  /** Appends a big-endian uint32. */
  putU32(v: number): void {
    this.reserve(4);
    const b = this.bytes;
    const o = this.length;
    b[o] = v >>> 24;
    b[o + 1] = (v >>> 16) & 0xff;
    b[o + 2] = (v >>> 8) & 0xff;
    b[o + 3] = v & 0xff;
    this.length = o + 4;
  }

  /** Appends a big-endian uint64 holding a safe non-negative integer. */
  putU64(v: number): void {
    const hi = Math.floor(v / 2 ** 32);
    this.putU32(hi);
    this.putU32(v - hi * 2 ** 32);
  }

  /** Appends a uvarint (a safe non-negative integer). */
  putUvarint(v: number): void {
    this.reserve(MAX_VARINT_LEN);
    this.length = putUvarint(this.bytes, this.length, v);
  }

  /** Appends a zigzag varint (a safe integer). */
  putVarint(v: number): void {
    this.reserve(MAX_VARINT_LEN);
    this.length = putVarint(this.bytes, this.length, v);
  }

  /** Appends raw bytes. */
  putBytes(src: Uint8Array): void {
    this.reserve(src.length);
    this.bytes.set(src, this.length);
    this.length += src.length;
  }

  /** A view of the written bytes, valid until the next write. */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }

  /** Forgets the written bytes, keeping the capacity. */
  reset(): void {
    this.length = 0;
  }
}

/**
 * An append-only file written through a `ByteBuf`. `offset()` is the file offset of the next
 * byte. Between `beginSection()` and `endSection()` every byte is fed to a running CRC-32, which
 * `endSection()` appends big-endian.
 */
export class FileSink {
  /** The buffer to encode into; flushed to the file by `maybeFlush`, `flush` and `close`. */
  readonly buf = new ByteBuf(FLUSH_BYTES + 64 * 1024);
  private flushed = 0;
  private crc = 0;
  private crcFrom = -1;

  private constructor(
    private readonly handle: FileHandle,
    /** The path of the file, for error messages. */
    readonly path: string,
  ) {}

  /** Creates (or truncates) the file at `path`. */
  static async create(path: string): Promise<FileSink> {
    return new FileSink(await open(path, 'w'), path);
  }

  /** The file offset of the next byte written. */
  offset(): number {
    return this.flushed + this.buf.length;
  }

  /** Starts a checksummed section at the current offset. */
  beginSection(): void {
    this.crc = 0;
    this.crcFrom = this.buf.length;
  }

  /** Ends the current section by appending the CRC-32 of its bytes. */
  endSection(): void {
    this.crc = crc32(this.buf.bytes.subarray(this.crcFrom, this.buf.length), this.crc);
    this.crcFrom = -1;
    this.buf.putU32(this.crc);
  }

  /** Reports whether the buffer holds at least 1 MiB: time to `await flush()`. */
  full(): boolean {
    return this.buf.length >= FLUSH_BYTES;
  }

  /** Writes the buffer out when it is `full()`. */
  async maybeFlush(): Promise<void> {
    if (this.full()) await this.flush();
  }

  /** Writes the buffered bytes to the file. */
  async flush(): Promise<void> {
    const buf = this.buf;
    if (buf.length === 0) return;
    if (this.crcFrom >= 0) {
      this.crc = crc32(buf.bytes.subarray(this.crcFrom, buf.length), this.crc);
      this.crcFrom = 0;
    }
    let done = 0;
    while (done < buf.length) {
      const { bytesWritten } = await this.handle.write(buf.bytes, done, buf.length - done);
      done += bytesWritten;
    }
    this.flushed += buf.length;
    buf.reset();
  }

  /** Flushes, fsyncs and closes the file; returns its size. */
  async close(): Promise<number> {
    try {
      await this.flush();
      await this.handle.sync();
    } finally {
      await this.handle.close();
    }
    return this.flushed;
  }

  /** Closes the file without flushing (after a failure). Never throws. */
  async abandon(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}

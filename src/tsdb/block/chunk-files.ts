/**
 * Chunk segment files (`chunks/000001`, ...; docs/formats/block.md): the streaming writer used
 * by `writeBlock` and the on-demand reader used by block queriers.
 */
import { closeSync, fstatSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { CHUNK_ENCODING_XOR, MAX_VARINT_LEN, readUvarint, uvarintSize, type ByteCursor } from '../chunkenc/index.js';
import { FileSink } from './byte-buf.js';
import { FileWindow } from './file-window.js';
import {
  CHUNK_REF_FILE_FACTOR,
  CHUNKS_MAGIC,
  CHUNKS_VERSION,
  CRC_BYTES,
  FILE_HEADER_BYTES,
  checkFileHeader,
  chunkFileName,
  corruption,
  putFileHeader,
} from './format.js';

const HEADER = new Uint8Array(FILE_HEADER_BYTES);
putFileHeader(HEADER, CHUNKS_MAGIC, CHUNKS_VERSION);

const WINDOW_BYTES = 64 * 1024;

/** Writes chunks into numbered segment files of at most `maxFileBytes` each. */
export class ChunkFilesWriter {
  private sink: FileSink | null = null;
  private fileNumber = 0;
  private chunksInFile = 0;
  private totalBytes = 0;

  /** Creates a writer into the existing directory `dir`. */
  constructor(
    private readonly dir: string,
    private readonly maxFileBytes: number,
  ) {}

  /**
   * Appends one chunk and returns its reference (`fileNumber * 2^32 + offset`), or -1 when the
   * chunk does not fit the current segment file (then use `add`). Synchronous, so a block of
   * millions of chunks does not pay one promise per chunk; callers `await flush()` between
   * series whenever `full()` says so.
   */
  tryAdd(encoding: number, data: Uint8Array): number {
    const sink = this.sink;
    if (sink === null) return -1;
    const size = uvarintSize(data.length) + 1 + data.length + CRC_BYTES;
    if (this.chunksInFile > 0 && sink.offset() + size > this.maxFileBytes) return -1;
    const offset = sink.offset();
    const buf = sink.buf;
    buf.putUvarint(data.length);
    const crcFrom = buf.length;
    buf.putU8(encoding);
    buf.putBytes(data);
    buf.putU32(crc32(buf.bytes.subarray(crcFrom, buf.length)));
    this.chunksInFile++;
    return this.fileNumber * CHUNK_REF_FILE_FACTOR + offset;
  }

  /** Appends one chunk, starting a new segment file when needed; returns its reference. */
  async add(encoding: number, data: Uint8Array): Promise<number> {
    let ref = this.tryAdd(encoding, data);
    if (ref < 0) {
      await this.nextFile();
      ref = this.tryAdd(encoding, data);
    }
    return ref;
  }

  /** Reports whether the write buffer is full: time to `await flush()`. */
  full(): boolean {
    return this.sink !== null && this.sink.full();
  }

  /** Writes the buffered chunks to the current segment file. */
  async flush(): Promise<void> {
    await this.sink?.flush();
  }

  /** Flushes, fsyncs and closes the open segment file; returns the bytes of all segment files. */
  async close(): Promise<number> {
    if (this.sink !== null) this.totalBytes += await this.sink.close();
    this.sink = null;
    return this.totalBytes;
  }

  /** Closes the open file without flushing (after a failure). */
  async abandon(): Promise<void> {
    await this.sink?.abandon();
    this.sink = null;
  }

  /** Closes the current segment file (if any) and starts the next one. */
  async nextFile(): Promise<void> {
    if (this.sink !== null) this.totalBytes += await this.sink.close();
    this.sink = null;
    this.fileNumber++;
    const sink = await FileSink.create(join(this.dir, chunkFileName(this.fileNumber)));
    sink.buf.putBytes(HEADER);
    this.sink = sink;
    this.chunksInFile = 0;
  }
}

/** A buffer owned by one reader of chunks (an iterator); `readChunk` copies chunk bytes into it. */
export interface ChunkScratch {
  buf: Uint8Array;
}

/** Creates an empty chunk scratch buffer. */
export function newChunkScratch(): ChunkScratch {
  return { buf: new Uint8Array(512) };
}

const cursor: ByteCursor = { offset: 0 };

/**
 * Reads chunks of one block on demand. Keeps one descriptor per segment file open until
 * `close()`; each file gets a 64 KiB read-ahead window on first use.
 */
export class ChunkFilesReader {
  private readonly windows: (FileWindow | null)[];
  private closed = false;

  private constructor(
    private readonly paths: readonly string[],
    private readonly fds: readonly number[],
    private readonly sizes: readonly number[],
  ) {
    this.windows = fds.map(() => null);
  }

  /**
   * Opens the segment files in `<blockDir>/chunks`, checking that they are numbered 000001 on
   * without gaps and that each header is valid. Throws `ERR_CORRUPTION` otherwise.
   */
  static open(chunksDir: string): ChunkFilesReader {
    let names: string[];
    try {
      names = readdirSync(chunksDir).sort();
    } catch (err) {
      throw corruption(chunksDir, 'cannot list chunk files', err);
    }
    const paths: string[] = [];
    const fds: number[] = [];
    const sizes: number[] = [];
    try {
      names.forEach((name, i) => {
        const path = join(chunksDir, name);
        if (name !== chunkFileName(i + 1)) throw corruption(path, `unexpected chunk file (want ${chunkFileName(i + 1)})`);
        const fd = openSync(path, 'r');
        fds.push(fd);
        paths.push(path);
        const size = fstatSync(fd).size;
        sizes.push(size);
        const header = new FileWindow(fd, path, size, FILE_HEADER_BYTES);
        header.load(0, Math.min(size, FILE_HEADER_BYTES));
        checkFileHeader(path, header.buf.subarray(0, header.length), CHUNKS_MAGIC, CHUNKS_VERSION);
      });
    } catch (err) {
      for (const fd of fds) closeSync(fd);
      throw err;
    }
    return new ChunkFilesReader(paths, fds, sizes);
  }

  /** The path of the segment file that `ref` points into (for error messages). */
  pathOf(ref: number): string {
    return this.paths[Math.floor(ref / CHUNK_REF_FILE_FACTOR) - 1] ?? 'chunks';
  }

  /** The total size of the segment files in bytes. */
  sizeBytes(): number {
    return this.sizes.reduce((a, b) => a + b, 0);
  }

  /**
   * Reads the chunk at `ref`, verifies its CRC and encoding, copies its data into `scratch` and
   * returns a view of exactly that data (valid until the next read into the same scratch).
   * Throws `ERR_CORRUPTION` naming the file on any inconsistency, and an Error after `close()`.
   */
  readChunk(ref: number, scratch: ChunkScratch): Uint8Array {
    if (this.closed) throw new Error('block: chunk read after the block was closed');
    const fileNumber = Math.floor(ref / CHUNK_REF_FILE_FACTOR);
    const offset = ref - fileNumber * CHUNK_REF_FILE_FACTOR;
    const i = fileNumber - 1;
    if (i < 0 || i >= this.fds.length || offset < FILE_HEADER_BYTES) {
      throw corruption(this.paths[0] ?? 'chunks', `chunk reference ${ref} points to no chunk file`);
    }
    const path = this.paths[i];
    let w = this.windows[i];
    if (w === null) w = this.windows[i] = new FileWindow(this.fds[i], path, this.sizes[i], WINDOW_BYTES);
    let at = w.loadUpTo(offset, MAX_VARINT_LEN + 1);
    const len = readUvarint(w.buf, at, cursor);
    if (cursor.offset < 0 || cursor.offset > w.validEnd()) throw corruption(path, `bad chunk length at offset ${offset}`);
    const head = cursor.offset - at;
    at = w.load(offset, head + 1 + len + CRC_BYTES);
    const b = w.buf;
    const encStart = at + head;
    const dataEnd = encStart + 1 + len;
    const want = ((b[dataEnd] << 24) | (b[dataEnd + 1] << 16) | (b[dataEnd + 2] << 8) | b[dataEnd + 3]) >>> 0;
    if (crc32(b.subarray(encStart, dataEnd)) !== want) throw corruption(path, `chunk CRC mismatch at offset ${offset}`);
    if (b[encStart] !== CHUNK_ENCODING_XOR) throw corruption(path, `unknown chunk encoding ${b[encStart]} at offset ${offset}`);
    if (scratch.buf.length < len) scratch.buf = new Uint8Array(Math.max(len, scratch.buf.length * 2));
    scratch.buf.set(b.subarray(encStart + 1, dataEnd));
    return scratch.buf.subarray(0, len);
  }

  /** Closes every descriptor. Calling it twice is harmless. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const fd of this.fds) closeSync(fd);
  }
}

/**
 * Read-side access to a file that stays on disk: a read-ahead window over one file descriptor,
 * filled with `fs.readSync`. Readers decode (or copy) what they need right away, because the
 * next `load` may overwrite the window; that is what lets one window serve every reader of a
 * block without allocating.
 */
import { readSync } from 'node:fs';
import { corruption } from './format.js';

/** A window over `[start, start + length)` of a file, moved by `load`. */
export class FileWindow {
  /** The window's bytes; index `i` holds the file byte at `start + i`. Replaced when it grows. */
  buf: Uint8Array = new Uint8Array(0);
  /** The file offset of `buf[0]`. */
  start = 0;
  /** The number of valid bytes in `buf`. */
  length = 0;

  /**
   * Creates a window over the open descriptor `fd` of `path`, whose valid bytes end at `end`;
   * each miss reads at least `windowBytes`.
   */
  constructor(
    private readonly fd: number,
    /** The path of the file, for error messages. */
    readonly path: string,
    /** The end of the readable part of the file (its size, or a section end). */
    readonly end: number,
    private readonly windowBytes: number,
  ) {}

  /**
   * Makes the file bytes `[offset, offset + n)` available and returns the index in `buf` where
   * `offset` lies. Throws `ERR_CORRUPTION` when the range passes `end`, or on a short read.
   */
  load(offset: number, n: number): number {
    if (offset >= this.start && offset + n <= this.start + this.length) return offset - this.start;
    if (offset < 0 || n < 0 || offset + n > this.end) {
      throw corruption(this.path, `read of ${n} bytes at offset ${offset} passes the end (${this.end})`);
    }
    const want = Math.min(Math.max(n, this.windowBytes), this.end - offset);
    if (want > this.buf.length) this.buf = new Uint8Array(Math.max(want, this.windowBytes));
    let got = 0;
    while (got < want) {
      const r = readSync(this.fd, this.buf, got, want - got, offset + got);
      if (r === 0) throw corruption(this.path, `file ends before offset ${offset + want}`);
      got += r;
    }
    this.start = offset;
    this.length = want;
    return 0;
  }

  /** Like `load`, but for up to `n` bytes: stops at `end`. Returns the index of `offset`. */
  loadUpTo(offset: number, n: number): number {
    if (offset >= this.end) throw corruption(this.path, `read at offset ${offset} passes the end (${this.end})`);
    return this.load(offset, Math.min(n, this.end - offset));
  }

  /** The index in `buf` just past the valid bytes. */
  validEnd(): number {
    return this.length;
  }
}

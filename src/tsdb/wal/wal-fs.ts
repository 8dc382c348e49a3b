/**
 * The file operations through which the WAL writer, checkpoints and the head-chunks log change
 * files: a small port, so that a test can make a write, an fsync or a file creation fail (ENOSPC,
 * EIO) or take long at a chosen point without a real full disk. Reads and directory listings
 * stay on `node:fs`: the faults that matter for durability happen on the write path.
 */
import * as fs from 'node:fs';

/** The synchronous file operations the write path uses; `node:fs` semantics. */
export interface WalFs {
  /** Opens `path` with `flags` ('ax' for a new segment, 'r' to fsync a file or directory). */
  openSync(path: string, flags: string): number;
  /** Writes up to `length` bytes; returns how many were written (short writes are legal). */
  writeSync(fd: number, bytes: Uint8Array, offset: number, length: number): number;
  /** Flushes a file's data (and the metadata needed to read it) to stable storage. */
  fdatasyncSync(fd: number): void;
  /** Flushes a file's data and metadata (or a directory's entries) to stable storage. */
  fsyncSync(fd: number): void;
  /** Cuts a file to `length` bytes. */
  ftruncateSync(fd: number, length: number): void;
  closeSync(fd: number): void;
}

/** The production port: `node:fs` itself. */
export const nodeWalFs: WalFs = {
  openSync: (file, flags) => fs.openSync(file, flags),
  writeSync: (fd, bytes, offset, length) => fs.writeSync(fd, bytes, offset, length),
  fdatasyncSync: (fd) => fs.fdatasyncSync(fd),
  fsyncSync: (fd) => fs.fsyncSync(fd),
  ftruncateSync: (fd, length) => fs.ftruncateSync(fd, length),
  closeSync: (fd) => fs.closeSync(fd),
};

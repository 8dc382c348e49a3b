/**
 * File-system helpers shared by the writer, replay and checkpointing: listing segment files
 * and checkpoint directories, and making directory changes durable.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  isCheckpointTmpDirName,
  parseCheckpointDirName,
  parseSegmentFileName,
  segmentFileName,
} from './format.js';
import { nodeWalFs, type WalFs } from './wal-fs.js';

/** What a WAL directory holds, every list sorted ascending. */
export interface WalDirListing {
  /** Indexes of segment files. */
  segments: number[];
  /** Indexes of complete checkpoint directories (`checkpoint.N`). */
  checkpoints: number[];
  /** Names of unfinished checkpoint directories (`checkpoint.N.tmp`). */
  checkpointTmps: string[];
}

/** Lists a WAL directory; a missing directory lists as empty. */
export function listWalDir(dir: string): WalDirListing {
  const out: WalDirListing = { segments: [], checkpoints: [], checkpointTmps: [] };
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw err;
  }
  for (const name of names) {
    const seg = parseSegmentFileName(name);
    if (seg >= 0) {
      out.segments.push(seg);
      continue;
    }
    const cp = parseCheckpointDirName(name);
    if (cp >= 0) out.checkpoints.push(cp);
    else if (isCheckpointTmpDirName(name)) out.checkpointTmps.push(name);
  }
  out.segments.sort((a, b) => a - b);
  out.checkpoints.sort((a, b) => a - b);
  out.checkpointTmps.sort();
  return out;
}

/** The path of segment `index` inside `dir`. */
export function segmentPath(dir: string, index: number): string {
  return path.join(dir, segmentFileName(index));
}

/** The size of a file in bytes, or 0 when it does not exist. */
export function fileSizeBytes(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/**
 * Flushes a directory's entries (created, renamed, deleted files) to stable storage. Without
 * it a power loss can undo a rename or resurrect a deleted file even after the file was synced.
 */
export function fsyncDir(dir: string, io: WalFs = nodeWalFs): void {
  fsyncFile(dir, io);
}

/** Flushes a file's data and metadata to stable storage. */
export function fsyncFile(file: string, io: WalFs = nodeWalFs): void {
  const fd = io.openSync(file, 'r');
  try {
    io.fsyncSync(fd);
  } finally {
    io.closeSync(fd);
  }
}

/** Writes all of `bytes[offset, offset + length)` to `fd`, looping over short writes. */
export function writeAll(fd: number, bytes: Uint8Array, offset: number, length: number, io: WalFs = nodeWalFs): void {
  let done = 0;
  while (done < length) done += io.writeSync(fd, bytes, offset + done, length - done);
}

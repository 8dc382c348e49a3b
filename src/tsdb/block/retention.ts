/**
 * Retention: which blocks to delete (a pure function following Prometheus' rules) and how to
 * delete one so that a crash never leaves a half-deleted block visible.
 */
import { rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { DurationMs, UnixMs } from '../../model/index.js';
import { syncDir } from './block-writer.js';
import { DELETED_SUFFIX } from './format.js';

/** What retention needs to know about a block. */
export interface RetentionBlock {
  readonly ulid: string;
  readonly minTimeMs: UnixMs;
  /** Exclusive end of the block's range. */
  readonly maxTimeMs: UnixMs;
  readonly sizeBytes: number;
}

/** Retention limits; a missing or non-positive limit disables that rule. */
export interface RetentionOptions {
  /** Keep blocks whose end is less than this far behind the newest block's end. */
  readonly retentionMs?: DurationMs;
  /** Keep the newest blocks whose sizes (plus `headBytes`) sum to at most this many bytes. */
  readonly retentionBytes?: number;
  /** Bytes of the head (WAL and head chunks) counted before any block, as Prometheus does. */
  readonly headBytes?: number;
}

/**
 * Returns the ids of the blocks retention deletes, oldest first. Blocks are ordered by
 * `maxTimeMs`, newest first (ties: larger id first), and, as in Prometheus' `tsdb/db.go`:
 *
 * - time: the first block after the newest whose `maxTimeMs` is at least `retentionMs` behind
 *   the newest block's `maxTimeMs` (`newest.max - block.max >= retentionMs`), and every older one;
 *   the reference is the newest block, never the wall clock;
 * - size: summing sizes from `headBytes` and the newest block on, the first block that makes the
 *   sum exceed `retentionBytes`, and every older one.
 *
 * The result is the union of both rules. The newest block is only ever deleted by the size rule.
 */
export function blocksToDelete(blocks: readonly RetentionBlock[], opts: RetentionOptions): string[] {
  const sorted = [...blocks].sort((a, b) => b.maxTimeMs - a.maxTimeMs || (a.ulid < b.ulid ? 1 : a.ulid > b.ulid ? -1 : 0));
  let cut = sorted.length;
  const retentionMs = opts.retentionMs ?? 0;
  if (retentionMs > 0 && sorted.length > 0) {
    const newestMax = sorted[0].maxTimeMs;
    for (let i = 1; i < sorted.length; i++) {
      if (newestMax - sorted[i].maxTimeMs >= retentionMs) {
        cut = i;
        break;
      }
    }
  }
  const retentionBytes = opts.retentionBytes ?? 0;
  if (retentionBytes > 0) {
    let total = opts.headBytes ?? 0;
    for (let i = 0; i < sorted.length; i++) {
      total += sorted[i].sizeBytes;
      if (total > retentionBytes) {
        cut = Math.min(cut, i);
        break;
      }
    }
  }
  return sorted
    .slice(cut)
    .reverse()
    .map((b) => b.ulid);
}

/**
 * Deletes the block directory `dir`: renames it to `<dir>.deleted` (so it stops being a block at
 * once), fsyncs the parent, then removes it recursively. A crash mid-way leaves only a
 * `.deleted` directory, which `openBlocks` removes. The caller closes the block first.
 */
export async function deleteBlock(dir: string): Promise<void> {
  const doomed = dir + DELETED_SUFFIX;
  await rm(doomed, { recursive: true, force: true });
  await rename(dir, doomed);
  await syncDir(dirname(dir));
  await rm(doomed, { recursive: true, force: true });
}

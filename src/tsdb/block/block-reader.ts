/**
 * Opening blocks: `openBlock` for one block directory, `openBlocks` for a data directory (which
 * also clears what interrupted writes and deletions left behind).
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Logger, UnixMs } from '../../model/index.js';
import type { Querier } from '../../storage/index.js';
import { BlockQuerier } from './block-querier.js';
import { ChunkFilesReader } from './chunk-files.js';
import { CHUNKS_DIR, DELETED_SUFFIX, INDEX_FILE, META_FILE, TMP_SUFFIX } from './format.js';
import { IndexReader } from './index-reader.js';
import { readMeta, type BlockMeta } from './meta.js';
import { isBlockId } from './ulid.js';

/**
 * An open, immutable on-disk block. It holds open file descriptors (the index and every chunk
 * segment file) until `close()`. Queriers read synchronously; the owner must not close a block
 * while queriers over it are still in use (the TSDB pins blocks for the duration of a query).
 */
export interface Block {
  /** The block's directory. */
  readonly dir: string;
  /** The block's `meta.json`. */
  readonly meta: BlockMeta;
  /** The total size of the block's files in bytes, for size-based retention. */
  sizeBytes(): number;
  /** Opens a querier over the inclusive range `[minTMs, maxTMs]` (cheap; see `Querier`). */
  querier(minTMs: UnixMs, maxTMs: UnixMs): Querier;
  /** Closes the block's files. Calling it twice is harmless. */
  close(): void;
}

/** Options of `openBlock`. */
export interface OpenBlockOptions {
  /**
   * Whether to stream the whole index once to verify every section's CRC (default true). The
   * header, table of contents, symbols and label-value index are always verified.
   */
  verifyChecksums?: boolean;
}

class OpenBlock implements Block {
  constructor(
    readonly dir: string,
    readonly meta: BlockMeta,
    private readonly index: IndexReader,
    private readonly chunks: ChunkFilesReader,
    private readonly metaBytes: number,
  ) {}

  sizeBytes(): number {
    return this.metaBytes + this.index.sizeBytes() + this.chunks.sizeBytes();
  }

  querier(minTMs: UnixMs, maxTMs: UnixMs): Querier {
    const files = { index: this.index, chunks: this.chunks, minTimeMs: this.meta.minTimeMs, maxTimeMs: this.meta.maxTimeMs };
    return new BlockQuerier(files, minTMs, maxTMs);
  }

  close(): void {
    this.index.close();
    this.chunks.close();
  }
}

/**
 * Opens the block in `dir` (whose name must be its id): reads and validates `meta.json`, opens
 * and verifies the index, opens the chunk segment files. Throws `StorageError` `ERR_CORRUPTION`
 * naming the offending file when anything is missing or fails a check.
 */
export function openBlock(dir: string, logger: Logger, options: OpenBlockOptions = {}): Block {
  const meta = readMeta(dir, basename(dir));
  const metaBytes = statSync(join(dir, META_FILE)).size;
  const index = IndexReader.open(join(dir, INDEX_FILE), options.verifyChecksums ?? true);
  let chunks: ChunkFilesReader;
  try {
    chunks = ChunkFilesReader.open(join(dir, CHUNKS_DIR));
  } catch (err) {
    index.close();
    throw err;
  }
  logger.debug('block opened', { ulid: meta.ulid, minTimeMs: meta.minTimeMs, maxTimeMs: meta.maxTimeMs, series: meta.stats.numSeries });
  return new OpenBlock(dir, meta, index, chunks, metaBytes);
}

/**
 * Opens every block directly under `parentDir`, sorted by `minTimeMs` (then id). Directories
 * left by an interrupted write (`<id>.tmp`) or deletion (`<id>.deleted`) are removed first and
 * logged; other entries whose names are not block ids are ignored. A block that fails to open
 * closes the ones already opened and throws its `ERR_CORRUPTION`.
 */
export function openBlocks(parentDir: string, logger: Logger, options: OpenBlockOptions = {}): Block[] {
  const blocks: Block[] = [];
  try {
    for (const entry of readdirSync(parentDir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const name = entry.name;
      const leftover = name.endsWith(TMP_SUFFIX) ? TMP_SUFFIX : name.endsWith(DELETED_SUFFIX) ? DELETED_SUFFIX : '';
      if (leftover !== '' && isBlockId(name.slice(0, -leftover.length))) {
        rmSync(join(parentDir, name), { recursive: true, force: true });
        logger.warn('removed leftover block directory', { dir: name, reason: leftover === TMP_SUFFIX ? 'interrupted write' : 'interrupted delete' });
        continue;
      }
      if (isBlockId(name)) blocks.push(openBlock(join(parentDir, name), logger, options));
    }
  } catch (err) {
    for (const b of blocks) b.close();
    throw err;
  }
  return blocks.sort((a, b) => a.meta.minTimeMs - b.meta.minTimeMs || (a.meta.ulid < b.meta.ulid ? -1 : 1));
}

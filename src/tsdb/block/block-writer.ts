/**
 * Writes one immutable block directory atomically (docs/formats/block.md): everything goes into
 * `<id>.tmp`, is fsynced, and only then renamed to `<id>`.
 */
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Clock, Labels, Logger, UnixMs } from '../../model/index.js';
import { CHUNK_ENCODING_XOR, XorChunk } from '../chunkenc/index.js';
import { ChunkFilesWriter } from './chunk-files.js';
import { CHUNKS_DIR, DEFAULT_CHUNK_FILE_MAX_BYTES, INDEX_FILE, MAX_U32, META_FILE, META_VERSION, TMP_SUFFIX } from './format.js';
import { writeIndex, type IndexSeries } from './index-writer.js';
import { encodeMeta, type BlockMeta } from './meta.js';
import { newBlockId, type RandomSource } from './ulid.js';

/** One sealed chunk handed to the block writer. */
export interface BlockChunk {
  /** Timestamp of the chunk's first sample (inclusive). */
  readonly minTimeMs: UnixMs;
  /** Timestamp of the chunk's last sample (inclusive). */
  readonly maxTimeMs: UnixMs;
  /** The encoded chunk (for XOR, `XorChunk.sealedBytes()`); written as given. */
  readonly bytes: Uint8Array;
  /** The chunk encoding byte; only `CHUNK_ENCODING_XOR` is accepted. */
  readonly encoding: number;
}

/** One series handed to the block writer. */
export interface BlockSeriesInput {
  readonly labels: Labels;
  /** The series' chunks in time order, not overlapping, inside the block's range. */
  readonly chunks: readonly BlockChunk[];
}

/** What `writeBlock` needs. */
export interface WriteBlockOptions {
  /** Start of the block's half-open range `[minTimeMs, maxTimeMs)`. */
  readonly minTimeMs: UnixMs;
  /** End (exclusive) of the block's range. */
  readonly maxTimeMs: UnixMs;
  /** The series, strictly increasing by `Labels.compare`; series without chunks are skipped. */
  readonly series: Iterable<BlockSeriesInput>;
  /** The clock for the block id and the logged duration. */
  readonly clock: Clock;
  /** The random source for the block id. */
  readonly random: RandomSource;
  /** Where the result is logged. */
  readonly logger: Logger;
  /** The size limit of one chunk segment file, below 4 GiB (default 512 MiB; smaller in tests). */
  readonly chunkFileMaxBytes?: number;
}

/**
 * Writes a new block under `parentDir` and returns its meta once the block is durable and
 * visible as `<parentDir>/<ulid>`. Chunks are streamed to disk as the series iterable yields
 * them; only labels and chunk metas are kept in memory until the index is written. Throws a
 * RangeError for unsorted series, unordered or out-of-range chunks, or an unknown encoding (the
 * caller's bug), and rethrows I/O errors; in both cases the `.tmp` directory is removed.
 */
export async function writeBlock(parentDir: string, opts: WriteBlockOptions): Promise<BlockMeta> {
  const { minTimeMs, maxTimeMs, logger, clock } = opts;
  if (!Number.isSafeInteger(minTimeMs) || !Number.isSafeInteger(maxTimeMs) || minTimeMs >= maxTimeMs) {
    throw new RangeError(`writeBlock: invalid range [${minTimeMs}, ${maxTimeMs})`);
  }
  const chunkFileMaxBytes = opts.chunkFileMaxBytes ?? DEFAULT_CHUNK_FILE_MAX_BYTES;
  if (!Number.isSafeInteger(chunkFileMaxBytes) || chunkFileMaxBytes < 1 || chunkFileMaxBytes > MAX_U32) {
    throw new RangeError(`writeBlock: chunkFileMaxBytes ${chunkFileMaxBytes} is outside [1, 2^32)`);
  }
  const startedMs = clock();
  const ulid = newBlockId(clock, opts.random);
  const finalDir = join(parentDir, ulid);
  const tmpDir = finalDir + TMP_SUFFIX;
  await rm(tmpDir, { recursive: true, force: true });
  await mkdir(join(tmpDir, CHUNKS_DIR), { recursive: true });
  const chunkWriter = new ChunkFilesWriter(join(tmpDir, CHUNKS_DIR), chunkFileMaxBytes);
  try {
    const series: IndexSeries[] = [];
    let numChunks = 0;
    let numSamples = 0;
    let prev: Labels | null = null;
    for (const s of opts.series) {
      if (prev !== null && prev.compare(s.labels) >= 0) {
        throw new RangeError(`writeBlock: series out of order: ${s.labels.toString()} after ${prev.toString()}`);
      }
      prev = s.labels;
      if (s.chunks.length === 0) continue;
      const metas: number[] = [];
      let prevMax = -Infinity;
      for (const c of s.chunks) {
        checkChunk(c, prevMax, minTimeMs, maxTimeMs, s.labels);
        prevMax = c.maxTimeMs;
        let ref = chunkWriter.tryAdd(c.encoding, c.bytes);
        if (ref < 0) ref = await chunkWriter.add(c.encoding, c.bytes);
        metas.push(c.minTimeMs, c.maxTimeMs, ref);
        numSamples += XorChunk.fromBytes(c.bytes).numSamples();
      }
      numChunks += s.chunks.length;
      series.push({ labels: s.labels, chunks: metas });
      if (chunkWriter.full()) await chunkWriter.flush();
    }
    await chunkWriter.close();
    await writeIndex(join(tmpDir, INDEX_FILE), series);
    const meta: BlockMeta = {
      version: META_VERSION,
      ulid,
      minTimeMs,
      maxTimeMs,
      stats: { numSeries: series.length, numChunks, numSamples },
      compaction: { level: 1, sources: [ulid] },
    };
    await writeFile(join(tmpDir, META_FILE), encodeMeta(meta), { flush: true });
    await syncDir(join(tmpDir, CHUNKS_DIR));
    await syncDir(tmpDir);
    await rename(tmpDir, finalDir);
    await syncDir(dirname(finalDir));
    logger.info('block written', { ulid, minTimeMs, maxTimeMs, series: series.length, chunks: numChunks, samples: numSamples, durationMs: clock() - startedMs });
    return meta;
  } catch (err) {
    await chunkWriter.abandon();
    await rm(tmpDir, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
}

function checkChunk(c: BlockChunk, prevMax: number, minTimeMs: UnixMs, maxTimeMs: UnixMs, labels: Labels): void {
  if (c.encoding !== CHUNK_ENCODING_XOR) throw new RangeError(`writeBlock: unknown chunk encoding ${c.encoding}`);
  if (!Number.isSafeInteger(c.minTimeMs) || !Number.isSafeInteger(c.maxTimeMs) || c.minTimeMs > c.maxTimeMs) {
    throw new RangeError(`writeBlock: invalid chunk range [${c.minTimeMs}, ${c.maxTimeMs}] in ${labels.toString()}`);
  }
  if (c.minTimeMs <= prevMax) throw new RangeError(`writeBlock: chunks of ${labels.toString()} overlap or are out of order`);
  if (c.minTimeMs < minTimeMs || c.maxTimeMs >= maxTimeMs) {
    throw new RangeError(`writeBlock: chunk [${c.minTimeMs}, ${c.maxTimeMs}] of ${labels.toString()} is outside the block`);
  }
}

/** Fsyncs a directory so that the entries created or renamed in it are durable. */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

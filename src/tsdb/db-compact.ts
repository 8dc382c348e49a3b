import fs from 'node:fs';
import path from 'node:path';
import { blocksToDelete, deleteBlock, openBlock, writeBlock, type BlockChunk, type BlockSeriesInput } from './block/index.js';
import { ArraySeriesIterator } from '../model/index.js';
import { MergedSeriesIterator } from '../storage/index.js';
import { ChunkListIterator } from './chunk-list-iterator.js';
import { CHUNK_ENCODING_XOR, XorChunk } from './chunkenc/index.js';
import type { Db } from './db.js';
import { NO_CHUNK, SAMPLES_PER_CHUNK, type MemSeries } from './head/index.js';

/** Counters of compaction and retention. */
export interface CompactionStats {
  runs: number;
  failures: number;
  secondsTotal: number;
  blocksDeleted: number;
}

/**
 * The chunks of `s` inside `[minTMs, maxTMs)`. Head chunks never straddle a block boundary, so
 * they are taken as they are, unless out-of-order samples fall in the range: then the range's
 * samples are merged and encoded into new chunks.
 */
function chunksInRange(s: MemSeries, minTMs: number, maxTMs: number): BlockChunk[] {
  const out: BlockChunk[] = [];
  const store = s.store;
  for (let id = s.firstSealed; id !== NO_CHUNK; id = store.next[id]) {
    const minT = store.minT[id];
    const maxT = store.maxT[id];
    if (minT >= minTMs && maxT < maxTMs) out.push({ minTimeMs: minT, maxTimeMs: maxT, bytes: store.bytes(id), encoding: CHUNK_ENCODING_XOR });
  }
  const open = s.open;
  if (open !== null && open.numSamples() > 0 && open.minTimeMs() >= minTMs && open.maxTimeMs() < maxTMs) {
    out.push({ minTimeMs: open.minTimeMs(), maxTimeMs: open.maxTimeMs(), bytes: open.sealedBytes(), encoding: CHUNK_ENCODING_XOR });
  }
  const ooo = s.ooo?.slice(minTMs, maxTMs - 1) ?? null;
  if (ooo === null) return out;
  const merged = new MergedSeriesIterator([
    new ChunkListIterator().reset(out.map((c) => c.bytes), out.map(() => undefined), minTMs, maxTMs - 1),
    new ArraySeriesIterator(ooo.tsMs, ooo.values),
  ]);
  const rechunked: BlockChunk[] = [];
  let chunk = new XorChunk();
  const seal = (): void => {
    rechunked.push({ minTimeMs: chunk.minTimeMs(), maxTimeMs: chunk.maxTimeMs(), bytes: chunk.sealedBytes(), encoding: CHUNK_ENCODING_XOR });
    chunk = new XorChunk();
  };
  while (merged.next()) {
    if (chunk.numSamples() >= SAMPLES_PER_CHUNK) seal();
    chunk.append(merged.at().tMs, merged.at().value);
  }
  if (chunk.numSamples() > 0) seal();
  return rechunked;
}

/**
 * Cuts the oldest block range out of the head into a block, then truncates the head and the
 * head-chunks log and checkpoints the WAL, so a restart does not replay what the block holds.
 *
 * Safety: the range ends at or below the head's appendable minimum (the head spans more than
 * 1.5 ranges), so no sample can land in it while the block is written. The block becomes visible
 * and the head drops its chunks in one synchronous step, so queries never see both or neither.
 */
export async function compactHead(db: Db): Promise<void> {
  const { head, options } = db;
  const started = performance.now();
  const rangeMs = options.blockRangeMs;
  const minTMs = Math.floor(head.minTimeMs / rangeMs) * rangeMs;
  const maxTMs = minTMs + rangeMs;
  head.minValidTimeMs = Math.max(head.minValidTimeMs, maxTMs);

  const series: BlockSeriesInput[] = [];
  for (const s of head.allSeries()) {
    const chunks = chunksInRange(s, minTMs, maxTMs);
    if (chunks.length > 0) series.push({ labels: s.labels, chunks });
  }
  series.sort((a, b) => a.labels.compare(b.labels));
  const meta = await writeBlock(options.dir, {
    minTimeMs: minTMs,
    maxTimeMs: maxTMs,
    series,
    clock: options.clock,
    random: options.random,
    logger: options.logger,
  });
  const block = openBlock(path.join(options.dir, meta.ulid), options.logger, { verifyChecksums: false });
  db.blocks.push({ block, pins: 0, doomed: false });
  db.blocks.sort((a, b) => a.block.meta.minTimeMs - b.block.meta.minTimeMs);
  head.truncateBefore(maxTMs);
  db.changes.noteHeadCut(); // same turn: a reader straddling the cut is told

  // The head no longer needs what the block holds: drop it from the head-chunks log, and
  // checkpoint the WAL so that a restart does not replay it either.
  db.chunksLog.truncateBefore(maxTMs);
  db.checkpoint();

  const seconds = (performance.now() - started) / 1000;
  db.compaction.runs++;
  db.compaction.secondsTotal += seconds;
  options.logger.info('compaction: block cut from head', {
    ulid: meta.ulid,
    minTimeMs: minTMs,
    maxTimeMs: maxTMs,
    series: meta.stats.numSeries,
    samples: meta.stats.numSamples,
    seconds: seconds.toFixed(3),
  });
}

/** Deletes the blocks that time or size retention no longer keeps. */
export async function applyRetention(db: Db): Promise<void> {
  const { options } = db;
  if (options.retentionMs <= 0 && options.retentionBytes <= 0) return;
  const doomed = new Set(
    blocksToDelete(
      db.blocks.map((p) => ({ ulid: p.block.meta.ulid, minTimeMs: p.block.meta.minTimeMs, maxTimeMs: p.block.meta.maxTimeMs, sizeBytes: p.block.sizeBytes() })),
      { retentionMs: options.retentionMs, retentionBytes: options.retentionBytes, headBytes: dirSizeBytes(path.join(options.dir, 'wal')) + dirSizeBytes(path.join(options.dir, 'chunks_head')) },
    ),
  );
  if (doomed.size === 0) return;
  const removed = db.blocks.filter((p) => doomed.has(p.block.meta.ulid));
  db.blocks = db.blocks.filter((p) => !doomed.has(p.block.meta.ulid));
  // Same turn as the blocks leave new queriers: no reader may see them gone and the feed silent.
  db.changes.noteDeletion(Math.max(...removed.map((p) => p.block.meta.maxTimeMs)));
  for (const p of removed) {
    // Unlinked files stay readable through open descriptors, so a pinned block's directory can
    // go now; its descriptors close when the last querier reading it closes.
    await deleteBlock(p.block.dir);
    if (p.pins === 0) p.block.close();
    else p.doomed = true;
    db.compaction.blocksDeleted++;
    options.logger.info('retention: block deleted', { ulid: p.block.meta.ulid, minTimeMs: p.block.meta.minTimeMs, maxTimeMs: p.block.meta.maxTimeMs });
  }
}

/** The total size of the files under `dir` (0 when it does not exist). */
function dirSizeBytes(dir: string): number {
  let total = 0;
  try {
    for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (e.isFile()) total += fs.statSync(path.join(e.parentPath, e.name)).size;
    }
  } catch {
    return total; // a missing directory counts as empty
  }
  return total;
}

import { runBatchIteratorSuite, type BatchSuiteSeries } from '../../model/testing/batch-suite.js';
import { XorChunk } from '../chunkenc/index.js';
import type { ChunkFilesReader } from './chunk-files.js';
import { BlockSeriesIterator } from './series-iterator.js';

/** Chunk bytes by reference, standing in for the segment files (the iterator only calls these two). */
function memoryChunks(chunks: Uint8Array[]): ChunkFilesReader {
  const reader = { readChunk: (ref: number) => chunks[ref], pathOf: () => 'memory' };
  return reader as unknown as ChunkFilesReader;
}

/** Cuts a series into chunks of random sizes: their bytes and `[min, max, ref]` metas. */
function blockChunks(s: BatchSuiteSeries, random: () => number): { bytes: Uint8Array[]; metas: Float64Array } {
  const bytes: Uint8Array[] = [];
  const metas: number[] = [];
  for (let i = 0; i < s.tsMs.length; ) {
    const end = Math.min(i + 1 + Math.floor(random() * (random() < 0.3 ? 3 : 150)), s.tsMs.length);
    const c = new XorChunk();
    for (let j = i; j < end; j++) c.append(s.tsMs[j], s.values[j]);
    metas.push(s.tsMs[i], s.tsMs[end - 1], bytes.length);
    bytes.push(c.sealedBytes());
    i = end;
  }
  return { bytes, metas: Float64Array.from(metas) };
}

function near(s: BatchSuiteSeries, random: () => number, fallback: number): number {
  if (s.tsMs.length === 0 || random() < 0.3) return fallback;
  return s.tsMs[Math.floor(random() * s.tsMs.length)] + Math.floor(random() * 3) - 1;
}

runBatchIteratorSuite('BlockSeriesIterator', (s, random) => {
  const { bytes, metas } = blockChunks(s, random);
  const reader = memoryChunks(bytes);
  let minT = near(s, random, -Infinity);
  let maxT = near(s, random, Infinity);
  if (minT > maxT) [minT, maxT] = [maxT, minT];
  return () => new BlockSeriesIterator().reset(reader, metas, minT, maxT);
});

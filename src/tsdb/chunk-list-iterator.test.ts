import { runBatchIteratorSuite, type BatchSuiteSeries } from '../model/testing/batch-suite.js';
import { ChunkListIterator } from './chunk-list-iterator.js';
import { XorChunk } from './chunkenc/index.js';

/** Cuts a series into XOR chunks of random sizes; returns their bytes and sample counts. */
function randomChunks(s: BatchSuiteSeries, random: () => number): { bytes: Uint8Array[]; counts: number[] } {
  const bytes: Uint8Array[] = [];
  const counts: number[] = [];
  for (let i = 0; i < s.tsMs.length; ) {
    const size = 1 + Math.floor(random() * (random() < 0.3 ? 3 : 150));
    const c = new XorChunk();
    for (let j = i; j < Math.min(i + size, s.tsMs.length); j++) c.append(s.tsMs[j], s.values[j]);
    bytes.push(c.sealedBytes());
    counts.push(c.numSamples());
    i += size;
  }
  return { bytes, counts };
}

/** A bound near one of the series' timestamps (or far outside it). */
function near(s: BatchSuiteSeries, random: () => number, fallback: number): number {
  if (s.tsMs.length === 0 || random() < 0.3) return fallback;
  return s.tsMs[Math.floor(random() * s.tsMs.length)] + Math.floor(random() * 3) - 1;
}

runBatchIteratorSuite('ChunkListIterator', (s, random) => {
  const { bytes, counts } = randomChunks(s, random);
  // The last chunk may be an open one seen through a smaller count.
  const seen: (number | undefined)[] = counts.map((c, i) => (i === counts.length - 1 && random() < 0.5 ? Math.floor(random() * (c + 1)) : undefined));
  let minT = near(s, random, -Infinity);
  let maxT = near(s, random, Infinity);
  if (minT > maxT) [minT, maxT] = [maxT, minT];
  return () => new ChunkListIterator().reset(bytes, seen, minT, maxT);
});

/**
 * Test helpers for blocks: building chunked series from samples, a seeded random source, temp
 * directories, and draining query results.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectSeries, type Querier } from '../../../storage/index.js';
import { mulberry32, type Labels, type Matcher, type Sample } from '../../../model/index.js';
import { CHUNK_ENCODING_XOR, XorChunk } from '../../chunkenc/index.js';
import type { BlockChunk, BlockSeriesInput } from '../block-writer.js';
import type { RandomSource } from '../ulid.js';

/** Splits samples into XOR chunks of at most `perChunk` samples. */
export function chunkSamples(samples: readonly Sample[], perChunk: number): BlockChunk[] {
  const chunks: BlockChunk[] = [];
  for (let i = 0; i < samples.length; i += perChunk) {
    const part = samples.slice(i, i + perChunk);
    const c = new XorChunk();
    for (const s of part) c.append(s.tMs, s.value);
    chunks.push({ minTimeMs: part[0].tMs, maxTimeMs: part[part.length - 1].tMs, bytes: c.sealedBytes(), encoding: CHUNK_ENCODING_XOR });
  }
  return chunks;
}

/** A series input with its samples cut into chunks of `perChunk`. */
export function seriesInput(labels: Labels, samples: readonly Sample[], perChunk = 120): BlockSeriesInput {
  return { labels, chunks: chunkSamples(samples, perChunk) };
}

/** Samples at `startMs`, `startMs + stepMs`, ... with values from `value(i)`. */
export function regularSamples(startMs: number, stepMs: number, count: number, value: (i: number) => number): Sample[] {
  return Array.from({ length: count }, (_, i) => ({ tMs: startMs + i * stepMs, value: value(i) }));
}

/** A deterministic random source (mulberry32). */
export function seededRandom(seed: number): RandomSource {
  return mulberry32(seed);
}

/** Creates a fresh temporary directory; `cleanup` removes it. */
export function tempDir(prefix = 'infersight-block-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Selects and drains into `{ labels: string, samples }` pairs (labels in Prometheus notation). */
export function selectAll(q: Querier, matchers: readonly Matcher[]): { labels: string; samples: Sample[] }[] {
  return collectSeries(q.select(matchers)).map((s) => ({ labels: s.labels.toString(), samples: s.samples }));
}

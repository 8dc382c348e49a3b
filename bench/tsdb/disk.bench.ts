/**
 * Bytes per sample on disk once blocks are cut: the issue's storage target ("≤ 1.3 bytes per
 * sample on disk; Prometheus' TSDB is the anchor", see prometheus-disk.bench.ts for the anchor).
 *
 * Writes 6 h of the fleet data set (15 s scrapes) through the `Appender`, compacting every 60
 * scrapes so blocks are cut as data arrives, as in production. The head keeps the newest ~1.5
 * block ranges, so with 2 h blocks, 6 h of data leaves two blocks ([0, 2 h) and [2 h, 4 h)); only
 * those are measured: every file under each block directory (index, chunks/, meta.json) divided
 * by the samples the blocks hold (the sum of their meta.json `stats.numSamples`), and separately
 * the chunk files and the index. The WAL and the head are not counted: they are not the
 * long-term storage format.
 *
 * Env: BENCH_INSTANCES (default 100 ≈ 28k series), BENCH_SCRAPES (default 1440 = 6 h at 15 s).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Db } from '../../src/tsdb/index.js';
import { dirBytes } from './dir-size.js';
import { writeFleet } from './fleet-writer.js';

const instances = Number(process.env.BENCH_INSTANCES ?? 100);
const scrapes = Number(process.env.BENCH_SCRAPES ?? 1440);
const COMPACT_EVERY = 60;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-disk-'));


/** What one block directory holds and weighs. */
interface BlockSize {
  minTimeMs: number;
  samples: number;
  bytes: number;
  chunkBytes: number;
  indexBytes: number;
}

/** Every block directory under `d` (those with a meta.json), oldest first. */
function blockSizes(d: string): BlockSize[] {
  const out: BlockSize[] = [];
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const b = path.join(d, e.name);
    if (!e.isDirectory() || !fs.existsSync(path.join(b, 'meta.json'))) continue;
    const meta = JSON.parse(fs.readFileSync(path.join(b, 'meta.json'), 'utf8')) as { minTimeMs: number; stats: { numSamples: number } };
    out.push({
      minTimeMs: meta.minTimeMs,
      samples: meta.stats.numSamples,
      bytes: dirBytes(b),
      chunkBytes: dirBytes(path.join(b, 'chunks')),
      indexBytes: fs.statSync(path.join(b, 'index')).size,
    });
  }
  return out.sort((a, b) => a.minTimeMs - b.minTimeMs);
}

const perSample = (bytes: number, samples: number): number => Number((bytes / samples).toFixed(3));

try {
  const t0 = performance.now();
  const db = await Db.open({ dir, fsync: { mode: 'never' }, retentionMs: 0 });
  const written = await writeFleet(db, {
    instances,
    scrapes,
    afterScrape: async (k) => {
      if ((k + 1) % COMPACT_EVERY === 0 || k === scrapes - 1) await db.compact();
    },
  });
  await db.close();
  const seconds = (performance.now() - t0) / 1000;
  const blocks = blockSizes(dir);
  const sum = (f: (b: BlockSize) => number): number => blocks.reduce((n, b) => n + f(b), 0);
  const samples = sum((b) => b.samples);
  const bytes = sum((b) => b.bytes);
  console.log(
    JSON.stringify({
      bench: 'tsdb.disk',
      series: written.series,
      samplesWritten: written.samples,
      samples,
      bytes,
      bytesPerSample: perSample(bytes, samples),
      chunkBytesPerSample: perSample(sum((b) => b.chunkBytes), samples),
      indexBytesPerSample: perSample(sum((b) => b.indexBytes), samples),
      blocks: blocks.length,
      blockMinTimesMs: blocks.map((b) => b.minTimeMs),
      perBlockBytesPerSample: blocks.map((b) => perSample(b.bytes, b.samples)),
      seconds: Number(seconds.toFixed(1)),
    }),
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

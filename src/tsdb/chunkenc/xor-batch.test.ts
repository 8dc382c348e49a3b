import { describe, expect, test } from 'vitest';
import { isStaleNaN, STALE_NAN } from '../../model/index.js';
import { runBatchIteratorSuite } from '../../model/testing/batch-suite.js';
import { XorChunk } from './xor-chunk.js';
import { XorIterator } from './xor-iterator.js';

function encode(ts: readonly number[], values: Float64Array): XorChunk {
  const chunk = new XorChunk();
  for (let i = 0; i < ts.length; i++) chunk.append(ts[i], values[i]);
  return chunk;
}

runBatchIteratorSuite('XorIterator', (s) => {
  const bytes = encode(s.tsMs, s.values).sealedBytes();
  return () => new XorIterator(bytes);
});

// A prefix of a chunk still being appended to: the count bounds the batch, not the bytes.
runBatchIteratorSuite('XorIterator over an open chunk prefix', (s, random) => {
  const chunk = encode(s.tsMs, s.values);
  const n = Math.floor(random() * (s.tsMs.length + 1));
  const bytes = chunk.bytes();
  return () => new XorIterator(bytes, n);
}, { cases: 60 });

describe('XorIterator.nextBatch', () => {
  test.each([
    ['huge gaps (64-bit deltas of deltas)', [0, 1, 2 ** 40, 2 ** 40 + 1, 2 ** 52, 2 ** 53 - 2]],
    ['negative timestamps', [-5000, -4000, -3000, -1, 0, 1]],
    ['gaps of every dod width', [0, 10, 20, 30 + 8000, 40 + 8000 + 60_000, 50 + 8000 + 60_000 + 500_000, 60 + 8000 + 60_000 + 500_000 + 1]],
  ])('%s', (_name, ts) => {
    const values = Float64Array.from(ts, (t, i) => (i % 3 === 0 ? STALE_NAN : t / 7));
    const bytes = encode(ts, values).sealedBytes();
    const t = new Float64Array(ts.length);
    const f = new Float64Array(ts.length);
    const n = new XorIterator(bytes).nextBatch(Infinity, t, f, 0, ts.length);
    expect(n).toBe(ts.length);
    expect(Array.from(t)).toEqual(ts);
    for (let i = 0; i < ts.length; i++) expect(i % 3 === 0 ? isStaleNaN(f[i]) : f[i] === ts[i] / 7).toBe(true);
  });

  test.each([
    ['cut in the middle of a sample', 3],
    ['only the header', 2],
  ])('a truncated chunk (%s) ends the batch with err() set', (_name, keepBytes) => {
    const ts = Array.from({ length: 50 }, (_, i) => i * 15_000 + (i % 7));
    const bytes = encode(ts, Float64Array.from(ts, (x) => x * 1.5)).sealedBytes();
    const cut = bytes.slice(0, Math.max(keepBytes, Math.floor(bytes.length / 2)));
    const it = new XorIterator(cut);
    const t = new Float64Array(64);
    const n = it.nextBatch(Infinity, t, new Float64Array(64), 0, 64);
    expect(n).toBeLessThan(50);
    expect(it.err()?.message).toMatch(/truncated/);
    expect(Array.from(t.subarray(0, n))).toEqual(ts.slice(0, n));
  });
});

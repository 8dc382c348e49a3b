/**
 * Time and heap of one async call, for the PromQL benchmarks. Allocation is read from V8's
 * `GCProfiler`: the used heap grows by what is allocated and shrinks only at a collection, so the
 * bytes allocated are the growth between collections (before each GC minus after the previous
 * one) plus the growth after the last. It counts the JavaScript heap; ArrayBuffer backing stores
 * are external memory and are reported apart (their net change). Run with `--expose-gc` (as
 * scripts/run-benches.mjs does) so that each measurement starts after a full collection.
 */
import { GCProfiler, getHeapStatistics } from 'node:v8';

/** What one measured call cost. */
export interface Measured<T> {
  readonly value: T;
  readonly ms: number;
  /** JavaScript heap allocated during the call. */
  readonly allocatedBytes: number;
  /** Highest used heap during the call, above the used heap at its start. */
  readonly peakHeapBytes: number;
  /** Used heap after a full collection with the result still held, above the start. */
  readonly retainedBytes: number;
  /** Net change of ArrayBuffer memory (external to the heap) across the call, result held. */
  readonly arrayBufferBytes: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

function used(h: object): number {
  const r = h as Record<string, number>;
  return r.usedHeapSize ?? r.used_heap_size;
}

/** Runs `fn` once and measures it (see the module comment). */
export async function measure<T>(fn: () => Promise<T>): Promise<Measured<T>> {
  gc?.();
  const ab0 = process.memoryUsage().arrayBuffers;
  const start = getHeapStatistics().used_heap_size;
  const profiler = new GCProfiler();
  profiler.start();
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  const end = getHeapStatistics().used_heap_size;
  const stats = profiler.stop().statistics;
  let allocated = 0;
  let last = start;
  let peak = Math.max(start, end);
  for (const s of stats) {
    const before = used(s.beforeGC.heapStatistics);
    allocated += Math.max(0, before - last);
    peak = Math.max(peak, before);
    last = used(s.afterGC.heapStatistics);
  }
  allocated += Math.max(0, end - last);
  gc?.();
  const retained = getHeapStatistics().used_heap_size - start;
  return { value, ms, allocatedBytes: allocated, peakHeapBytes: peak - start, retainedBytes: retained, arrayBufferBytes: process.memoryUsage().arrayBuffers - ab0 };
}

/** The median of `xs` (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * The conformance suite of `SeriesIterator.nextBatch`: every iterator that implements it runs
 * this, so that a batch read always yields exactly what `next()` + `at()` yield, stale markers
 * bit for bit, and leaves the iterator where those calls leave it.
 *
 * Each case is a seed: it draws a series (scrape-like or irregular timestamps, repeated values,
 * stale markers, NaNs of other payloads, infinities, -0) and a script of `next`, `seek` and
 * `nextBatch` calls with random bounds and caps of 1 up to more than the series holds. Two
 * iterators over the series run the script, one reading through `nextBatch`, the other through
 * `next`/`at` only; after every step their answers and positions must agree.
 */
import { describe, expect, test } from 'vitest';
import { readBatch, stoppedPast, type SeriesIterator } from '../iterator.js';
import { mulberry32 } from '../random.js';
import { STALE_NAN } from '../sample.js';

/** A drawn series: strictly increasing integer timestamps and their values (typed: keeps NaN bits). */
export interface BatchSuiteSeries {
  readonly tsMs: readonly number[];
  readonly values: Float64Array;
}

/** Builds fresh iterators over a series; called twice per case (the batch reader, the reference). */
export type BatchIteratorFactory = (series: BatchSuiteSeries, random: () => number) => () => SeriesIterator;

const SPECIAL = new Float64Array([STALE_NAN, NaN, Infinity, -Infinity, -0, 0, 1e-310]);

/** Draws a series of 0..`maxLength` samples from `random`. */
export function drawBatchSeries(random: () => number, maxLength: number): BatchSuiteSeries {
  const n = Math.floor(random() * (maxLength + 1));
  const tsMs: number[] = [];
  const values = new Float64Array(n);
  const regular = random() < 0.6;
  const step = [1, 1000, 15_000, 60_000][Math.floor(random() * 4)];
  let t = Math.floor((random() - 0.5) * 2e12);
  let v = Math.round(random() * 1000);
  for (let i = 0; i < n; i++) {
    t += regular ? step + (random() < 0.1 ? Math.floor(random() * 400) - 200 : 0) : 1 + Math.floor(random() * random() * 5e6);
    if (i > 0 && t <= tsMs[i - 1]) t = tsMs[i - 1] + 1;
    tsMs.push(t);
    const r = random();
    if (r < 0.08) values[i] = SPECIAL[Math.floor(random() * SPECIAL.length)];
    else if (r < 0.4) values[i] = v; // repeated value
    else if (r < 0.7) values[i] = v += Math.round(random() * 50);
    else values[i] = (random() - 0.5) * 1e6;
  }
  return { tsMs, values };
}

type Op = { kind: 'next' } | { kind: 'seek'; tMs: number } | { kind: 'batch'; maxTMs: number; cap: number };

function drawOps(random: () => number, s: BatchSuiteSeries): Op[] {
  const ops: Op[] = [];
  const near = (): number => {
    if (s.tsMs.length === 0 || random() < 0.1) return Math.floor((random() - 0.5) * 4e12);
    return s.tsMs[Math.floor(random() * s.tsMs.length)] + Math.floor(random() * 3) - 1;
  };
  const count = 1 + Math.floor(random() * 30);
  for (let i = 0; i < count; i++) {
    const r = random();
    if (r < 0.15) ops.push({ kind: 'next' });
    else if (r < 0.3) ops.push({ kind: 'seek', tMs: near() });
    else {
      const capR = random();
      const cap = capR < 0.2 ? 1 : capR < 0.4 ? 2 + Math.floor(random() * 3) : 1 + Math.floor(random() * (s.tsMs.length + 10));
      const maxTMs = random() < 0.3 ? Infinity : near();
      ops.push({ kind: 'batch', maxTMs, cap });
    }
  }
  return ops;
}

const words = new Uint32Array(2);
const word64 = new Float64Array(words.buffer);

function bits(v: number): string {
  word64[0] = v;
  return `${words[1].toString(16)}:${words[0].toString(16)}`;
}

function sampleText(tMs: number, v: number): string {
  return `${tMs}@${bits(v)}`;
}

/** Runs one script on a batch reader and a reference; returns the first disagreement, or null. */
function runScript(batch: SeriesIterator, ref: SeriesIterator, ops: readonly Op[], viaHelper: boolean): string | null {
  for (let step = 0; step < ops.length; step++) {
    const op = ops[step];
    const where = `step ${step} (${JSON.stringify(op)})`;
    if (op.kind === 'next' || op.kind === 'seek') {
      const a = op.kind === 'next' ? batch.next() : batch.seek(op.tMs);
      const b = op.kind === 'next' ? ref.next() : ref.seek(op.tMs);
      if (a !== b) return `${where}: got ${a}, want ${b}`;
      if (a && sampleText(batch.at().tMs, batch.at().value) !== sampleText(ref.at().tMs, ref.at().value)) {
        return `${where}: at ${sampleText(batch.at().tMs, batch.at().value)}, want ${sampleText(ref.at().tMs, ref.at().value)}`;
      }
      continue;
    }
    const t = new Float64Array(op.cap + 2).fill(-1);
    const f = new Float64Array(op.cap + 2).fill(-1);
    const offset = 1;
    const k = viaHelper ? readBatch(batch, op.maxTMs, t, f, offset, op.cap) : batch.nextBatch!(op.maxTMs, t, f, offset, op.cap);
    const want: string[] = [];
    let reason: 'cap' | 'past' | 'end' = 'cap';
    while (want.length < op.cap) {
      if (!ref.next()) {
        reason = 'end';
        break;
      }
      const s = ref.at();
      if (s.tMs > op.maxTMs) {
        reason = 'past';
        break;
      }
      want.push(sampleText(s.tMs, s.value));
    }
    const got: string[] = [];
    for (let i = 0; i < k; i++) got.push(sampleText(t[offset + i], f[offset + i]));
    if (got.join(' ') !== want.join(' ')) return `${where}: wrote [${got.join(' ')}], want [${want.join(' ')}]`;
    if (t[0] !== -1 || t[offset + k] !== -1 || f[offset + k] !== -1) return `${where}: wrote outside [offset, offset + count)`;
    if (reason === 'cap') {
      if (k > 0 && sampleText(batch.at().tMs, batch.at().value) !== want[k - 1]) return `${where}: at ${sampleText(batch.at().tMs, batch.at().value)} after a full batch, want ${want[k - 1]}`;
      continue;
    }
    if (reason === 'past' && sampleText(batch.at().tMs, batch.at().value) !== sampleText(ref.at().tMs, ref.at().value)) {
      return `${where}: at ${sampleText(batch.at().tMs, batch.at().value)} after stopping, want ${sampleText(ref.at().tMs, ref.at().value)}`;
    }
    const past = stoppedPast(batch, op.maxTMs);
    const refPast = stoppedPast(ref, op.maxTMs);
    if (past !== (reason === 'past') || refPast !== past) return `${where}: stoppedPast ${past}, reference ${refPast}, stopped by ${reason}`;
  }
  // Drain both the plain way: the batch calls must have left the same position behind.
  for (;;) {
    const a = batch.next();
    const b = ref.next();
    if (a !== b) return `drain: got ${a}, want ${b}`;
    if (!a) break;
    if (sampleText(batch.at().tMs, batch.at().value) !== sampleText(ref.at().tMs, ref.at().value)) return 'drain: samples differ';
  }
  if ((batch.err() === null) !== (ref.err() === null)) return `err: ${String(batch.err())} vs ${String(ref.err())}`;
  return null;
}

/**
 * Declares the suite for one implementation. `make` returns a factory of fresh iterators over the
 * drawn series (it may clip, split into chunks or merge, as long as both iterators it builds are
 * alike); `maxLength` bounds the drawn series; `native: false` checks only `readBatch` (for an
 * iterator without a `nextBatch` of its own).
 */
export function runBatchIteratorSuite(
  name: string,
  make: BatchIteratorFactory,
  options: { cases?: number; maxLength?: number; native?: boolean } = {},
): void {
  const cases = options.cases ?? 150;
  const seeds = Array.from({ length: cases }, (_, i) => i + 1);
  describe(`SeriesIterator.nextBatch contract: ${name}`, () => {
    test.each(options.native === false ? [true] : [false, true])('nextBatch equals next/at on random series and scripts (through readBatch: %s)', (viaHelper) => {
      for (const seed of seeds) {
        const random = mulberry32(seed);
        const series = drawBatchSeries(random, options.maxLength ?? 400);
        const build = make(series, random);
        const ops = drawOps(random, series);
        const batch = build();
        if (!viaHelper) expect(batch.nextBatch, 'implements nextBatch').toBeTypeOf('function');
        const failure = runScript(batch, build(), ops, viaHelper);
        expect(failure, `seed ${seed}`).toBeNull();
      }
    });

    test('a batch of cap 0 writes nothing and does not move', () => {
      const series = drawBatchSeries(mulberry32(7), 50);
      const it = make(series, mulberry32(8))();
      const t = new Float64Array(1);
      expect(readBatch(it, Infinity, t, t, 0, 0)).toBe(0);
      const ref = make(series, mulberry32(8))();
      expect(it.next()).toBe(ref.next());
    });
  });
}

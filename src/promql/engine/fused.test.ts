import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Labels, STALE_NAN, mulberry32 } from '../../model/index.js';
import { QueryError } from '../errors.js';
import { parseExpr, type Expr } from '../parser/index.js';
import { MemoryStorage } from '../promqltest/memory-storage.js';
import type { Value } from '../value.js';
import { fusedAggregatePlan } from './fused-aggregate.js';
import { fusedHistogramPlan } from './fused-histogram.js';
import { Engine, type EngineOptions } from './index.js';
import type { QueryResult } from './types.js';

const prng = mulberry32;

const HOUR_MS = 3_600_000;

/**
 * Writes one counter-like series: an irregular scrape interval, gaps, resets, stale markers, now
 * and then NaN. `base` lets bucket series of one histogram be cumulative (or, rarely, not).
 */
function writeCounter(s: MemoryStorage, labels: Labels, rand: () => number, scale: number): void {
  const interval = [10_000, 15_000, 30_000][Math.floor(rand() * 3)];
  let t = Math.floor(rand() * interval);
  let v = Math.floor(rand() * 100) * scale;
  while (t <= HOUR_MS) {
    const r = rand();
    if (r < 0.02) t += interval * (5 + Math.floor(rand() * 20)); // a gap
    else if (r < 0.04) s.add(labels, t, STALE_NAN);
    else {
      if (r < 0.07) v = Math.floor(rand() * 5) * scale; // a reset
      else if (r > 0.995) v = NaN;
      else v = (Number.isNaN(v) ? 0 : v) + Math.floor(rand() * 10) * scale;
      s.add(labels, t, v);
    }
    t += interval + (rand() < 0.1 ? Math.floor(rand() * 3_000) : 0);
  }
}

/** Counters of two names (which collide once names go), a gauge, and classic histogram buckets. */
function fixture(seed: number): MemoryStorage {
  const rand = prng(seed);
  const s = new MemoryStorage();
  for (let i = 0; i < 6; i++) {
    const base = { instance: `i${i}`, job: i % 2 === 0 ? 'a' : 'b', model: `m${i % 3}` };
    writeCounter(s, Labels.from({ __name__: 'req_total', ...base }), rand, 1);
    if (rand() < 0.5) writeCounter(s, Labels.from({ __name__: 'other_total', ...base }), rand, 1);
    writeCounter(s, Labels.from({ __name__: 'temp', ...base }), rand, 0.25);
    const les = ['0.1', '0.5', '1', '+Inf'];
    if (rand() < 0.2) les.pop(); // no +Inf bucket
    if (rand() < 0.1) les.push('abc'); // a bucket bound that is no number
    for (const le of les) writeCounter(s, Labels.from({ __name__: 'lat_bucket', ...base, le }), rand, 1 + les.indexOf(le));
  }
  return s;
}

const AGGS = ['sum', 'avg', 'max', 'min', 'count'];
const FUNCS = ['rate', 'increase', 'irate'];
const GROUPINGS = ['', ' by (job)', ' by (model, job)', ' without (instance)', ' by (__name__)', ' without (le, job)', ' by (nothing)'];
const SELECTORS = ['req_total', 'req_total{job="a"}', '{__name__=~"req_total|other_total"}', 'temp', '{__name__=~".+_total", model="m1"}', 'absent_total'];
const WINDOWS = ['1m', '2m', '5m', '10m', '37s', '1h'];
const MODIFIERS = ['', ' offset 1m', ' offset -30s', ' @ 1800', ' @ end()', ' @ 900 offset 2m'];
const QS = ['0.5', '0.99', '1', '0', '-1', '2', 'NaN'];

const queryArb = fc
  .record({
    shape: fc.constantFrom('agg', 'topk', 'bottomk', 'hq', 'hq-by'),
    agg: fc.constantFrom(...AGGS),
    fn: fc.constantFrom(...FUNCS),
    grouping: fc.constantFrom(...GROUPINGS),
    selector: fc.constantFrom(...SELECTORS),
    window: fc.constantFrom(...WINDOWS),
    modifier: fc.constantFrom(...MODIFIERS),
    k: fc.constantFrom('1', '2', '5'),
    q: fc.constantFrom(...QS),
  })
  .map(({ shape, agg, fn, grouping, selector, window, modifier, k, q }) => {
    const inner = `${agg}${grouping} (${fn}(${selector}[${window}]${modifier}))`;
    switch (shape) {
      case 'topk':
      case 'bottomk':
        return `${shape}(${k}, ${inner})`;
      case 'hq':
        return `histogram_quantile(${q}, sum by (le, model) (${fn}(lat_bucket[${window}]${modifier})))`;
      case 'hq-by':
        return `histogram_quantile(${q}, sum by (le${grouping.includes('job') ? ', job' : ''}) (${fn}(lat_bucket{model!="m2"}[${window}]${modifier})))`;
      default:
        return inner;
    }
  });

const frameArb = fc.oneof(
  fc.record({ kind: fc.constant('instant' as const), startMs: fc.integer({ min: 0, max: HOUR_MS + 600_000 }) }),
  fc.record({
    kind: fc.constant('range' as const),
    startMs: fc.integer({ min: -600_000, max: HOUR_MS }),
    spanMs: fc.integer({ min: 0, max: HOUR_MS }),
    stepMs: fc.constantFrom(7_000, 15_000, 30_000, 60_000, 300_000),
  }),
);

const optionsArb = fc.record({
  enableDelayedNameRemoval: fc.boolean(),
  // Small limits fail in the selector, in the rate matrix or in the aggregation, depending on the data.
  maxSamples: fc.constantFrom(50_000_000, 40, 400, 2_000, 10_000),
});

/** A float's bits, so that -0, NaN payloads (stale markers) and the last ulp all count. */
function bits(f: number): string {
  return Buffer.from(new Float64Array([f]).buffer).toString('hex');
}

function plainValue(v: Value): unknown {
  switch (v.type) {
    case 'matrix':
      return v.v.map((s) => ({ metric: s.metric.key(), t: [...s.t], f: s.f.map(bits), dropName: s.dropName }));
    case 'vector':
      return v.v.map((s) => ({ metric: s.metric.key(), t: s.t, f: bits(s.f) }));
    case 'scalar':
      return { t: v.t, f: bits(v.v) };
    case 'string':
      return v;
  }
}

/** Everything a caller can observe of a query but its timing. */
async function outcome(run: () => Promise<QueryResult>): Promise<unknown> {
  try {
    const r = await run();
    const { totalQueryableSamples, peakSamples } = r.stats;
    return { value: plainValue(r.value), warnings: r.warnings, infos: r.infos, totalQueryableSamples, peakSamples };
  } catch (err) {
    if (err instanceof QueryError) return { error: err.errorType, message: err.message };
    throw err;
  }
}

const STORAGES = [1, 2, 3, 4].map(fixture);

describe('fused hot paths', () => {
  it.each([
    ['sum by (job) (rate(x[5m]))', 'aggregate'],
    ['avg without (instance) (increase(x[1m] offset 5m))', 'aggregate'],
    ['max ((irate(x[1m] @ 100)))', 'aggregate'],
    ['count by (a) (rate(x[5m]))', 'aggregate'],
    ['histogram_quantile(0.9, sum by (le, model) (rate(x_bucket[5m])))', 'histogram'],
    ['histogram_quantile(0.9, (sum by (model, le) (increase(x_bucket[5m]))))', 'histogram'],
    ['topk(3, sum by (job) (rate(x[5m])))', 'aggregate'],
    ['sum by (job) (delta(x[5m]))', 'none'],
    ['stddev by (job) (rate(x[5m]))', 'none'],
    ['sum by (job) (rate(x[5m:1m]))', 'none'],
    ['sum by (job) (rate(x[5m]) * 2)', 'none'],
    ['histogram_quantile(0.9, sum by (model) (rate(x_bucket[5m])))', 'aggregate'],
    ['histogram_quantile(0.9, max by (le) (rate(x_bucket[5m])))', 'aggregate'],
    ['histogram_quantile(0.9, rate(x_bucket[5m]))', 'none'],
  ])('recognises the shape of %s as %s', (query, want) => {
    const plan = (e: Expr): string => {
      if (e.type === 'Call' && fusedHistogramPlan(e)) return 'histogram';
      if (e.type === 'AggregateExpr' && fusedAggregatePlan(e)) return 'aggregate';
      if (e.type === 'AggregateExpr' || e.type === 'Call') {
        const inner = e.type === 'AggregateExpr' ? e.expr : e.args[e.args.length - 1];
        return inner.type === 'AggregateExpr' && fusedAggregatePlan(inner) ? 'aggregate' : 'none';
      }
      return 'none';
    };
    expect(plan(parseExpr(query))).toBe(want);
  });

  it('gives the general path’s results, annotations, stats and errors to the bit', async () => {
    let compared = 0;
    let succeeded = 0;
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: STORAGES.length - 1 }), queryArb, frameArb, optionsArb, async (si, query, frame, opts) => {
        const storage = STORAGES[si];
        const run = (o: EngineOptions) => {
          const engine = new Engine(o);
          return frame.kind === 'instant'
            ? () => engine.instantQuery(storage, query, frame.startMs)
            : () => engine.rangeQuery(storage, query, frame.startMs, frame.startMs + frame.spanMs, frame.stepMs);
        };
        const general = await outcome(run({ ...opts, fusedPaths: false }));
        const fused = await outcome(run({ ...opts, fusedPaths: true }));
        expect(fused, query).toEqual(general);
        compared++;
        if (!('error' in (general as object))) succeeded++;
      }),
      { numRuns: 600, seed: 15 },
    );
    // Most runs must produce results (not only limit errors), or the comparison proves little.
    expect(succeeded).toBeGreaterThan(compared / 3);
  });
});

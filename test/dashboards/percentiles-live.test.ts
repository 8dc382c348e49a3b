// Every percentile on the Insights dashboard against the simulator's ground truth, on the mixed
// demo fleet (vLLM, SGLang and DJL/LMI, vLLM and SGLang replicas sharing instances): the fleet is
// scraped for 12 virtual minutes, each panel query is evaluated at the end as the UI would run it,
// and each `histogram_quantile` in it is evaluated on its own, giving one value per layout source
// (engine, or front-door job). Each value is compared with the exact quantile of the latencies the
// simulator recorded (LatencyTruth) for the same requests, and each panel's figure with the
// largest of its sources' values, as docs/design/histogram-layouts.md says it is.
//
// The tolerance is the bucket resolution: the exact quantile must lie in the bucket of the
// source's own layout that holds the reported value, or in a bucket next to it. Why that is the
// right bound: over the same observations, `histogram_quantile` and the exact quantile choose the
// same bucket (both take the first bucket whose cumulative count reaches q times the total), and
// the reported value is interpolated inside it, so within one bucket is all a histogram can say.
// The observations are almost, not exactly, the same: the truth is taken per target between the
// first and the last scrape inside the query's window (what `rate` and `increase` count), but a
// value is stamped at the engine's step time, which can run up to one step past the scrape it
// lands in, and rate's extrapolation scales targets with slightly different factors when they add
// up. Those move a few observations across the rank, so a rank that sits at a bucket edge can
// move into the next bucket, never two buckets away. A mixed-layout sum is not held to this: its
// buckets are no layout's buckets, and the former fleet query misses by more than a bucket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSIGHTS, builtinIntervals, dashboardPanels, defaultValues, interpolate, panelQueries, type VariableValues } from '../../src/dashboards/index.js';
import { exprToString, parseExpr, walkExpr, type Expr } from '../../src/promql/index.js';
import type { InstantSample } from '../../src/query/index.js';
import { exactQuantile, type ComponentRuntime, type TruthKind, type TruthSample } from '../../src/sim/index.js';
import { runLiveFleet, type LiveFleet } from './live-fleet.js';

const MIN = 60_000;
const RANGE_MS = 10 * MIN;
const STEP_MS = 30_000;

/** The truth behind each catalog histogram a percentile panel reads. */
const TRUTH_OF: Readonly<Record<string, TruthKind | 'overhead'>> = {
  llm_time_to_first_token_seconds: 'ttft',
  llm_inter_token_latency_seconds: 'itl',
  llm_time_per_output_token_seconds: 'tpot',
  llm_e2e_request_latency_seconds: 'e2e',
  llm_client_time_to_first_token_seconds: 'client_ttft',
  llm_client_request_duration_seconds: 'client_e2e',
  llm_client_overhead_latency_seconds: 'overhead',
};

/** Histograms only the gateway writes: the live fleet has no gateway, so they stay empty. */
const GATEWAY_ONLY = ['llm_client_inter_token_latency_seconds', 'llm_client_model_latency_seconds'];

/** One source's figure: its reported value, the exact quantile, and the buckets of its layout. */
interface Check {
  readonly query: string;
  readonly source: Record<string, string>;
  readonly reported: number;
  readonly truth: number;
  readonly weight: number;
  readonly bounds: number[];
}

let fleet: LiveFleet;
const checks: Check[] = [];
const composed: { query: string; group: string; panel: number; sources: number }[] = [];
/** The `histogram_quantile` calls evaluated (panels share some), and the queries that had one. */
const seen = new Set<string>();
const covered = new Set<string>();
let formerFleetP99: { reported: number; truth: number; vllm: number[]; sglang: number[] } | undefined;

async function instant(expr: string): Promise<InstantSample[]> {
  const r = await fleet.client.instant(expr, fleet.nowMs);
  if (r.data.resultType !== 'vector') throw new Error(`${expr}: ${r.data.resultType}`);
  return r.data.result;
}

const selector = (labels: Record<string, string>) => `{${Object.entries(labels).map(([k, v]) => `${k}="${v}"`).join(', ')}}`;
const sameGroup = (a: Record<string, string>, b: Record<string, string>, by: readonly string[]) => by.every((l) => (a[l] ?? '') === (b[l] ?? ''));

/** The histogram family, quantile and window of a `histogram_quantile` call the builders wrote. */
function describeCall(call: Extract<Expr, { type: 'Call' }>): { family: string; q: number; windowMs: number } {
  let family = '';
  let windowMs = 0;
  walkExpr(call.args[1], (n) => {
    if (n.type === 'MatrixSelector') {
      family = n.vectorSelector.name.replace(/_bucket$/, '');
      windowMs = n.rangeMs;
    }
  });
  const q = call.args[0].type === 'NumberLiteral' ? call.args[0].value : Number.NaN;
  return { family, q, windowMs };
}

/**
 * The recorded values behind one source's series: per target of the family's `_count` series
 * in the source, those stamped between its first and last scrape inside the window.
 */
async function truthSamples(family: string, kind: TruthKind | 'overhead', source: Record<string, string>, windowMs: number): Promise<TruthSample[]> {
  const r = await fleet.client.instant(`${family}_count${selector(source)}[${windowMs / 1000}s]`, fleet.nowMs);
  if (r.data.resultType !== 'matrix') throw new Error(r.data.resultType);
  const out: TruthSample[] = [];
  for (const s of r.data.result) {
    if (s.values.length < 2) continue;
    const fromMs = s.values[0][0] * 1000;
    const toMs = s.values[s.values.length - 1][0] * 1000;
    const c: ComponentRuntime | undefined = fleet.simulation.fleet.components.find((x) => x.spec.name === s.metric.component);
    if (c === undefined) throw new Error(`no component ${s.metric.component}`);
    if (kind === 'overhead') {
      // The front door observes its constant overhead once per request it answers.
      for (const x of c.truth.log('client_e2e').samples(fromMs, toMs)) out.push({ ...x, valueS: c.frontdoor.overheadS });
    } else {
      out.push(...c.truth.log(kind).samples(fromMs, toMs, kind.startsWith('client_') ? undefined : s.metric.instance));
    }
  }
  return out;
}

/** The finite upper bounds of one source's buckets, ascending. */
async function boundsOf(family: string, source: Record<string, string>): Promise<number[]> {
  const les = (await instant(`group by (le) (${family}_bucket${selector(source)})`)).map((s) => Number(s.metric.le));
  return les.filter(Number.isFinite).sort((a, b) => a - b);
}

/** The index of the bucket (lo, hi] of `bounds` that holds `v` (bounds.length: the +Inf bucket). */
function bucketOf(v: number, bounds: readonly number[]): number {
  const i = bounds.findIndex((b) => v <= b);
  return i < 0 ? bounds.length : i;
}

async function checkQuery(key: string, text: string): Promise<void> {
  const ast = parseExpr(text);
  const calls: Extract<Expr, { type: 'Call' }>[] = [];
  const maxima: Extract<Expr, { type: 'AggregateExpr' }>[] = [];
  walkExpr(ast, (n) => {
    if (n.type === 'Call' && n.func.name === 'histogram_quantile') calls.push(n);
    if (n.type === 'AggregateExpr' && n.op === 'max' && n.expr.type === 'Call' && n.expr.func.name === 'histogram_quantile') maxima.push(n);
  });
  for (const call of calls) {
    const hq = exprToString(call);
    covered.add(key);
    if (seen.has(hq)) continue;
    seen.add(hq);
    const { family, q, windowMs } = describeCall(call);
    const kind = TRUTH_OF[family];
    const result = await instant(hq);
    if (kind === undefined) {
      // Only the gateway writes these (client ITL, model latency); the live fleet runs none.
      expect(GATEWAY_ONLY, `${key}: no ground truth for ${family}`).toContain(family);
      expect(result, `${key}: ${family} has data but no ground truth`).toEqual([]);
      continue;
    }
    for (const s of result) {
      const reported = Number(s.value[1]);
      const source = { ...s.metric };
      const samples = await truthSamples(family, kind, source, windowMs);
      if (Number.isNaN(reported) && samples.length === 0) continue;
      checks.push({ query: `${key} ${family} q=${q}`, source, reported, truth: exactQuantile(q, samples), weight: samples.reduce((a, x) => a + x.weight, 0), bounds: await boundsOf(family, source) });
    }
  }
  // The panel's figure per group is the largest of its sources' (NaN sources left out, as max does).
  for (const m of maxima) {
    const perSource = (await instant(exprToString(m.expr))).filter((s) => !Number.isNaN(Number(s.value[1])));
    for (const g of await instant(exprToString(m))) {
      const mine = perSource.filter((s) => sameGroup(s.metric, g.metric, m.grouping)).map((s) => Number(s.value[1]));
      composed.push({ query: key, group: JSON.stringify(g.metric), panel: Number(g.value[1]) - Math.max(...mine), sources: mine.length });
    }
  }
}

beforeAll(async () => {
  fleet = await runLiveFleet({ durationMs: 12 * MIN });
  const opts = { variables: INSIGHTS.variables, ...builtinIntervals({ rangeMs: RANGE_MS, stepMs: STEP_MS }) };
  for (const quantile of ['0.5', '0.99']) {
    const values: VariableValues = { ...defaultValues(INSIGHTS), quantile };
    for (const p of dashboardPanels(INSIGHTS)) {
      for (const q of panelQueries(p)) if (q.expr.includes('histogram_quantile')) await checkQuery(`${p.id}/${q.refId}`, interpolate(q.expr, values, opts));
    }
  }
  // The former fleet-wide TTFT P99 (buckets of vLLM and SGLang summed) against the truth of all
  // their requests over the same range.
  const range = `${RANGE_MS / 1000}s`;
  const [mixed] = await instant(`histogram_quantile(0.99, sum by (le) (increase(llm_time_to_first_token_seconds_bucket[${range}])))`);
  const all = [
    ...(await truthSamples('llm_time_to_first_token_seconds', 'ttft', { engine: 'vllm' }, RANGE_MS)),
    ...(await truthSamples('llm_time_to_first_token_seconds', 'ttft', { engine: 'sglang' }, RANGE_MS)),
  ];
  formerFleetP99 = {
    reported: Number(mixed.value[1]),
    truth: exactQuantile(0.99, all),
    vllm: await boundsOf('llm_time_to_first_token_seconds', { engine: 'vllm' }),
    sglang: await boundsOf('llm_time_to_first_token_seconds', { engine: 'sglang' }),
  };
}, 240_000);

afterAll(async () => {
  await fleet?.close();
});

/** A line per check, for the failure message. */
function report(cs: readonly Check[]): string {
  return cs
    .map((c) => {
      const k = bucketOf(c.reported, c.bounds);
      const edge = (i: number) => (i < 0 ? 0 : i >= c.bounds.length ? Infinity : c.bounds[i]);
      return `${c.query} ${JSON.stringify(c.source)}: reported ${c.reported.toFixed(4)} in (${edge(k - 1)}, ${edge(k)}], truth ${c.truth.toFixed(4)} over ${c.weight}`;
    })
    .join('\n');
}

describe('percentiles on the mixed demo fleet', () => {
  it('checks every percentile query, per engine and per front door', () => {
    const all = dashboardPanels(INSIGHTS).flatMap((p) => panelQueries(p).filter((q) => q.expr.includes('histogram_quantile')).map((q) => `${p.id}/${q.refId}`));
    expect([...covered].sort()).toEqual(all.sort());
    expect(all.length).toBeGreaterThanOrEqual(15);
    const engines = new Set(checks.map((c) => c.source.engine ?? c.source.job));
    expect([...engines].sort()).toEqual(['djl', 'sglang', 'sim-frontdoor', 'vllm']);
  });

  it('has every reported value within one bucket of the exact quantile, in its own layout', () => {
    const off = checks.filter((c) => {
      if (Number.isNaN(c.reported) || Number.isNaN(c.truth)) return true;
      return Math.abs(bucketOf(c.truth, c.bounds) - bucketOf(c.reported, c.bounds)) > 1;
    });
    expect(off.length, `outside the bucket resolution:\n${report(off)}\n\nall:\n${report(checks)}`).toBe(0);
    expect(checks.length).toBeGreaterThan(30);
  });

  it('shows per group the largest of its sources', () => {
    expect(composed.length).toBeGreaterThan(10);
    for (const c of composed) expect(c.panel, `${c.query} ${c.group} of ${c.sources} sources`).toBe(0);
    // On an instance that runs vLLM and SGLang the hex cell has two sources to choose from.
    expect(composed.some((c) => c.query.startsWith('fleet-hexgrid') && c.sources === 2)).toBe(true);
  });

  it('the former fleet-wide TTFT P99, buckets of two layouts summed, misses the truth by more than a bucket', () => {
    const f = formerFleetP99!;
    const far = (bounds: number[]) => Math.abs(bucketOf(f.truth, bounds) - bucketOf(f.reported, bounds)) > 1;
    expect(far(f.vllm) && far(f.sglang), JSON.stringify(f)).toBe(true);
  });
});

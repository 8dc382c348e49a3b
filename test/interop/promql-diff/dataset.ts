/**
 * The data set of the PromQL differential test: a slice of the benchmark fleet (bench/tsdb/
 * fleet-dataset.ts: vLLM + DCGM instances, 15 s scrapes) plus hand-made `job="edge"` series for
 * the cases a healthy fleet does not produce (counter resets, negative and tiny values, sparse and
 * dense scrapes, series that stop or start mid-range, odd label values, classic histograms with
 * different and broken bucket layouts, an info metric to join on).
 *
 * Timing rule (see the comment in queries.ts): every sample's timestamp modulo 15 s stays away
 * from 0 s and 3 s, the residues where query times, range/lookback window boundaries and subquery
 * steps fall, because Prometheus 2.42 closes windows on the left (`[t-r, t]`) and 3.x opens them
 * (`(t-r, t]`). Fleet samples sit at 7.000–7.703 s (±1 ms jitter), edge samples at 1.5, 6.5, 9.5,
 * 11 and 11.5 s.
 */
import { Labels } from '../../../src/model/index.js';
import { instance, requestsPerScrape, rng, scrapeTimeMs } from '../../../bench/tsdb/fleet-dataset.js';
import { BENCH_START_MS } from '../../../bench/tsdb/fleet-writer.js';

/** One series and its samples, timestamps (ms) strictly increasing. */
export interface DiffSeries {
  readonly labels: Labels;
  readonly t: number[];
  readonly v: number[];
}

/** The whole data set and the time it spans. */
export interface DiffDataset {
  readonly series: DiffSeries[];
  /** A multiple of 15 s (and of 1 h): the origin of the timing rule. */
  readonly baseMs: number;
  /** The newest sample. */
  readonly maxTMs: number;
  readonly samples: number;
}

/** The fleet families kept (the rest of the ~283 series per instance would only add bulk). */
const FLEET_KEEP = new Set([
  'vllm:time_to_first_token_seconds_bucket',
  'vllm:time_to_first_token_seconds_sum',
  'vllm:time_to_first_token_seconds_count',
  'vllm:generation_tokens_total',
  'vllm:prompt_tokens_total',
  'vllm:request_success_total',
  'vllm:num_preemptions_total',
  'vllm:num_requests_running',
  'vllm:kv_cache_usage_perc',
  'DCGM_FI_DEV_GPU_UTIL',
  'DCGM_FI_DEV_POWER_USAGE',
  'DCGM_FI_DEV_FB_USED',
  'DCGM_FI_DEV_GPU_TEMP',
  'DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION',
  'DCGM_FI_PROF_SM_ACTIVE',
]);

/** Size of the data set; the defaults give ~900 series × 90 min (~330k samples). */
export interface DatasetOptions {
  instances?: number;
  scrapes?: number;
}

/** Builds the data set; deterministic for given options. */
export function buildDataset(o: DatasetOptions = {}): DiffDataset {
  const instances = o.instances ?? 20;
  const scrapes = o.scrapes ?? 360;
  const baseMs = BENCH_START_MS;
  const series = [...fleetSeries(baseMs + 7000, instances, scrapes), ...edgeSeries(baseMs, scrapes * 15_000, instances)];
  let maxTMs = 0;
  let samples = 0;
  for (const s of series) {
    maxTMs = Math.max(maxTMs, s.t[s.t.length - 1]);
    samples += s.t.length;
  }
  return { series, baseMs, maxTMs, samples };
}

/** The fleet slice: the generator is run in full (its draws are shared), a subset is kept. */
function fleetSeries(startMs: number, instances: number, scrapes: number): DiffSeries[] {
  const r = rng(1);
  const fleet = Array.from({ length: instances }, (_, i) => instance(i, r));
  const keep = fleet.map((f) =>
    f.series.map((s) => FLEET_KEEP.has(s.labels.metricName) && (!s.labels.has('gpu') || Number(s.labels.get('gpu')) < 2)),
  );
  const out = fleet.map((f, i) => f.series.map((s, j) => (keep[i][j] ? { labels: s.labels, t: [] as number[], v: [] as number[] } : null)));
  for (let k = 0; k < scrapes; k++) {
    for (let i = 0; i < instances; i++) {
      const f = fleet[i];
      const n = requestsPerScrape(f.rate, r);
      const vals = f.series.map((s) => s.next(n, r));
      const t = scrapeTimeMs(startMs, i, k, r);
      out[i].forEach((s, j) => {
        if (s !== null) {
          s.t.push(t);
          s.v.push(vals[j]);
        }
      });
    }
  }
  return out.flat().filter((s): s is DiffSeries => s !== null);
}

/** A series sampled every `everyMs` at `offsetMs` past `baseMs`, while `fromMs <= t - baseMs < toMs`. */
function sampled(labels: Record<string, string>, baseMs: number, offsetMs: number, everyMs: number, fromMs: number, toMs: number, value: (k: number) => number): DiffSeries {
  const s: DiffSeries = { labels: Labels.from(labels), t: [], v: [] };
  for (let k = 0; offsetMs + k * everyMs < toMs; k++) {
    const rel = offsetMs + k * everyMs;
    if (rel < fromMs) continue;
    s.t.push(baseMs + rel);
    s.v.push(value(k));
  }
  return s;
}

/** Hand-made series, all `job="edge"` except the info metric, which joins the fleet instances. */
function edgeSeries(baseMs: number, spanMs: number, instances: number): DiffSeries[] {
  const r = rng(7);
  const out: DiffSeries[] = [];
  const edge = (name: string, extra: Record<string, string> = {}): Record<string, string> => ({ __name__: name, job: 'edge', instance: 'edge-0:9100', ...extra });
  // Counters with resets (to 0, to a small value, twice), and one that barely moves.
  for (const [path, resets] of [['/api/v1/query', [100, 250]], ['/api/v1/write', [180]], ['/metrics', []]] as const) {
    for (const code of ['200', '500']) {
      let v = 0;
      const steps = Array.from({ length: spanMs / 15_000 }, () => Math.floor(r() * (code === '200' ? 40 : 2)));
      out.push(
        sampled(edge('edge_requests_total', { path, code }), baseMs, 9_500, 15_000, 0, spanMs, (k) => {
          v = (resets as readonly number[]).includes(k) ? (k === 100 ? 0 : 3) : v + steps[k];
          return v;
        }),
      );
    }
  }
  // Gauges: negative and fractional (5 s scrapes), sparse (60 s), stopping, starting late, constant, extreme magnitudes.
  for (const [room, phase] of [['lab', 0], ['cellar', 1], ['roof', 2]] as const) {
    out.push(sampled(edge('edge_temperature_celsius', { room }), baseMs, 1_500, 5_000, 0, spanMs, (k) => Math.round((-2 + 9 * Math.sin(k / 40 + phase) + r()) * 100) / 100));
  }
  out.push(sampled(edge('edge_sparse_gauge'), baseMs, 11_000, 60_000, 0, spanMs, (k) => (k * 7) % 13));
  out.push(sampled(edge('edge_stopped_gauge'), baseMs, 9_500, 15_000, 0, spanMs * 0.55, (k) => 100 + k));
  out.push(sampled(edge('edge_late_gauge'), baseMs, 9_500, 15_000, spanMs * 0.6, spanMs, (k) => k % 5));
  out.push(sampled(edge('edge_const'), baseMs, 9_500, 15_000, 0, spanMs, () => 42));
  out.push(sampled(edge('edge_magnitude', { kind: 'huge' }), baseMs, 9_500, 15_000, 0, spanMs, (k) => 1e15 + k * 1e9 + Math.floor(r() * 1e6)));
  out.push(sampled(edge('edge_magnitude', { kind: 'tiny' }), baseMs, 9_500, 15_000, 0, spanMs, (k) => (1 + (k % 17)) * 1e-6));
  out.push(sampled(edge('edge_magnitude', { kind: 'tinier' }), baseMs, 9_500, 15_000, 0, spanMs, (k) => (1 + (k % 5)) * 3e-8));
  out.push(sampled(edge('edge_magnitude', { kind: 'negative' }), baseMs, 9_500, 15_000, 0, spanMs, (k) => -1e6 + k * 123.25));
  // Label values that need escaping or are not ASCII (no newlines: 3.x regex `.` matches them).
  for (const text of ['quote"inside', 'back\\slash', 'héllo wörld', 'with space', 'a.b.c', 'x-y_z']) {
    out.push(sampled(edge('edge_labels_gauge', { text }), baseMs, 6_500, 15_000, 0, spanMs, (k) => text.length + (k % 3)));
  }
  // Classic histograms: two services with different bucket layouts, and one broken (non-monotonic) raw histogram.
  for (const [service, bounds, lo, hi] of [['api', [0.05, 0.1, 0.25, 0.5, 1, 2.5], 0.02, 3], ['db', [0.01, 0.1, 1, 10], 0.002, 20]] as const) {
    out.push(...histogram(edge('edge_request_duration_seconds', { service }), baseMs, spanMs, bounds, lo, hi, r));
  }
  const broken = [3, 1, 5, 4, 9]; // cumulative counts that go down twice
  ['0.1', '0.5', '1', '5', '+Inf'].forEach((le, b) => {
    out.push(sampled(edge('edge_broken_bucket', { le }), baseMs, 9_500, 15_000, 0, spanMs, (k) => broken[b] * (1 + (k % 4))));
  });
  // An info metric: one series per fleet instance, for on()/group_left()/group_right() joins.
  for (let i = 0; i < instances; i++) {
    const inst = `ip-10-0-${i >> 8}-${i & 255}:8000`;
    out.push(sampled({ __name__: 'edge_build_info', job: 'info', instance: inst, version: i % 3 === 0 ? 'v2' : 'v1' }, baseMs, 11_500, 15_000, 0, spanMs, () => 1));
  }
  return out;
}

/** `_bucket`/`_sum`/`_count` series of a classic histogram fed log-uniform observations every 15 s. */
function histogram(labels: Record<string, string>, baseMs: number, spanMs: number, bounds: readonly number[], lo: number, hi: number, r: () => number): DiffSeries[] {
  const scrapes = spanMs / 15_000;
  const name = labels.__name__;
  const les = [...bounds.map(String), '+Inf'];
  const counts = les.map(() => [] as number[]);
  const sums: number[] = [];
  const cum = new Array<number>(les.length).fill(0);
  let sum = 0;
  for (let k = 0; k < scrapes; k++) {
    const n = Math.floor(r() * 6);
    for (let o = 0; o < n; o++) {
      const v = lo * Math.pow(hi / lo, r());
      sum += v;
      les.forEach((_, b) => (cum[b] += b === bounds.length || v <= bounds[b] ? 1 : 0));
    }
    les.forEach((_, b) => counts[b].push(cum[b]));
    sums.push(Math.round(sum * 1e6) / 1e6);
  }
  const series = les.map((le, b) => sampled({ ...labels, __name__: `${name}_bucket`, le }, baseMs, 9_500, 15_000, 0, spanMs, (k) => counts[b][k]));
  series.push(sampled({ ...labels, __name__: `${name}_sum` }, baseMs, 9_500, 15_000, 0, spanMs, (k) => sums[k]));
  series.push(sampled({ ...labels, __name__: `${name}_count` }, baseMs, 9_500, 15_000, 0, spanMs, (k) => counts[bounds.length][k]));
  return series;
}

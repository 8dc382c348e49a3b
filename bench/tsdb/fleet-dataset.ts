/**
 * A deterministic, realistic data set for TSDB benchmarks: a vLLM + DCGM fleet of LLM
 * inference instances, ~300 series each, scraped every 15 s.
 *
 * Values come from a small load model, not from independent noise, because compression depends
 * on how real series move: each instance has a request rate (a tenth of the fleet idles); every
 * scrape draws the requests served since the last one, and the vLLM histograms (`_bucket`,
 * `_sum`, `_count`) count those requests' latencies and token counts, so buckets below the
 * fastest request and above the slowest stay flat; token and request counters grow with the
 * load; scheduler gauges follow it. DCGM exposes 4 GPUs (ml.g6.12xlarge) or 8 (ml.p4d.24xlarge)
 * per instance: utilization and power follow the load, framebuffer use is flat once the model is
 * loaded, temperatures drift by a degree, clocks and error counters are constant. Timestamps are
 * 15 s apart with a millisecond of jitter on 2% of scrapes (Prometheus aligns smaller jitter).
 */
import { Labels, mulberry32 } from '../../src/model/index.js';

/** A small, fast, seeded PRNG (mulberry32) returning floats in [0, 1). */
export function rng(seed: number): () => number {
  return mulberry32(seed);
}

const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80, Infinity];
const TOKEN_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, Infinity];
const AZS = ['us-east-1a', 'us-east-1b', 'us-east-1c'];

/** How one series' value evolves per scrape, given the requests `n` served since the last one. */
type Update = (n: number, r: () => number) => number;

/** One series of the data set and the function that advances it. */
export interface DatasetSeries {
  labels: Labels;
  next: Update;
}

/** A histogram fed with observations drawn log-uniformly between `lo` and `hi`. */
function histogram(out: DatasetSeries[], name: string, labels: Record<string, string>, bounds: number[], lo: number, hi: number): void {
  const counts = new Float64Array(bounds.length);
  let sum = 0;
  let count = 0;
  let pending = -1; // the scrape whose observations were drawn
  let scrape = 0;
  const observe = (n: number, r: () => number): void => {
    if (pending === scrape) return;
    pending = scrape;
    for (let i = 0; i < n; i++) {
      const v = lo * Math.pow(hi / lo, r());
      sum += v;
      count++;
      for (let b = 0; b < bounds.length; b++) if (v <= bounds[b]) counts[b]++;
    }
  };
  bounds.forEach((le, b) =>
    out.push({
      labels: Labels.from({ __name__: `${name}_bucket`, ...labels, le: le === Infinity ? '+Inf' : String(le) }),
      next: (n, r) => (observe(n, r), counts[b]),
    }),
  );
  out.push({ labels: Labels.from({ __name__: `${name}_sum`, ...labels }), next: (n, r) => (observe(n, r), sum) });
  out.push({
    labels: Labels.from({ __name__: `${name}_count`, ...labels }),
    next: (n, r) => {
      observe(n, r);
      scrape++; // _count is the family's last series: the next call belongs to the next scrape
      return count;
    },
  });
}

function counter(out: DatasetSeries[], name: string, labels: Record<string, string>, perRequest: number): void {
  let v = 0;
  out.push({ labels: Labels.from({ __name__: name, ...labels }), next: (n, r) => (v += Math.round(n * perRequest * (0.5 + r()))) });
}

function gauge(out: DatasetSeries[], name: string, labels: Record<string, string>, next: Update): void {
  out.push({ labels: Labels.from({ __name__: name, ...labels }), next });
}

/** One simulated instance: its series and its request rate. */
export interface DatasetInstance {
  series: DatasetSeries[];
  /** Mean requests per second (0 for idle instances). */
  rate: number;
}

/** Builds instance `i` of the fleet. */
export function instance(i: number, r: () => number): DatasetInstance {
  const big = i % 2 === 1;
  const base = { instance: `ip-10-0-${i >> 8}-${i & 255}:8000`, az: AZS[i % 3], instance_type: big ? 'ml.p4d.24xlarge' : 'ml.g6.12xlarge' };
  const vllm = { ...base, job: 'vllm', model_name: big ? 'gpt-oss-20b' : 'Qwen2.5-7B-Instruct', engine: '0' };
  const rate = r() < 0.1 ? 0 : 0.2 + r() * 2.8;
  const s: DatasetSeries[] = [];
  histogram(s, 'vllm:time_to_first_token_seconds', vllm, LATENCY_BUCKETS, 0.05, 3);
  histogram(s, 'vllm:inter_token_latency_seconds', vllm, LATENCY_BUCKETS, 0.008, 0.06);
  histogram(s, 'vllm:e2e_request_latency_seconds', vllm, LATENCY_BUCKETS, 0.5, 40);
  histogram(s, 'vllm:request_queue_time_seconds', vllm, LATENCY_BUCKETS, 0.001, 2);
  histogram(s, 'vllm:request_prefill_time_seconds', vllm, LATENCY_BUCKETS, 0.02, 1);
  histogram(s, 'vllm:request_decode_time_seconds', vllm, LATENCY_BUCKETS, 0.4, 35);
  histogram(s, 'vllm:request_inference_time_seconds', vllm, LATENCY_BUCKETS, 0.5, 38);
  histogram(s, 'vllm:request_prompt_tokens', vllm, TOKEN_BUCKETS, 20, 8000);
  histogram(s, 'vllm:request_generation_tokens', vllm, TOKEN_BUCKETS, 5, 2000);
  counter(s, 'vllm:prompt_tokens_total', vllm, 900);
  counter(s, 'vllm:generation_tokens_total', vllm, 300);
  counter(s, 'vllm:prefix_cache_queries_total', vllm, 900);
  counter(s, 'vllm:prefix_cache_hits_total', vllm, 300);
  counter(s, 'vllm:num_preemptions_total', vllm, 0.01);
  for (const [reason, share] of [['stop', 0.9], ['length', 0.09], ['abort', 0.01]] as const) {
    counter(s, 'vllm:request_success_total', { ...vllm, finished_reason: reason }, share);
  }
  gauge(s, 'vllm:num_requests_running', vllm, (n) => Math.round(n / 2));
  gauge(s, 'vllm:num_requests_waiting', vllm, (n, rr) => (n > 30 && rr() < 0.3 ? Math.round(n / 10) : 0));
  gauge(s, 'vllm:kv_cache_usage_perc', vllm, (n, rr) => (n === 0 ? 0 : Math.min(1, n / 60 + rr() * 0.05)));
  const gpus = big ? 8 : 4;
  for (let g = 0; g < gpus; g++) {
    const l = { ...base, job: 'dcgm', gpu: String(g), UUID: `GPU-${(i * 8 + g).toString(16).padStart(8, '0')}-7c1e-4a55`, modelName: big ? 'NVIDIA A100-SXM4-40GB' : 'NVIDIA L4', Hostname: base.instance.split(':')[0] };
    let temp = 40 + Math.floor(r() * 15);
    let energy = Math.floor(r() * 1e9);
    const fb = big ? 36_000 + Math.floor(r() * 2000) : 19_000 + Math.floor(r() * 1000);
    const total = big ? 40_960 : 23_034;
    gauge(s, 'DCGM_FI_DEV_GPU_UTIL', l, (n, rr) => (n === 0 ? 0 : Math.min(100, Math.round(n * 3 + rr() * 10))));
    gauge(s, 'DCGM_FI_DEV_MEM_COPY_UTIL', l, (n, rr) => (n === 0 ? 0 : Math.min(100, Math.round(n + rr() * 5))));
    gauge(s, 'DCGM_FI_DEV_FB_USED', l, () => fb);
    gauge(s, 'DCGM_FI_DEV_FB_FREE', l, () => total - fb);
    gauge(s, 'DCGM_FI_DEV_GPU_TEMP', l, (n, rr) => (temp += rr() < 0.1 ? (n > 10 ? 1 : -1) * (temp > 45 && temp < 80 ? 1 : 0) : 0));
    gauge(s, 'DCGM_FI_DEV_MEMORY_TEMP', l, () => temp + 3);
    gauge(s, 'DCGM_FI_DEV_POWER_USAGE', l, (n, rr) => Math.round((big ? 90 : 30) + n * 4 + rr() * 3) + Math.round(rr() * 1000) / 1000);
    gauge(s, 'DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION', l, (n) => (energy += 15 * ((big ? 90 : 30) + n * 4) * 1000));
    gauge(s, 'DCGM_FI_DEV_SM_CLOCK', l, () => (big ? 1410 : 2040));
    gauge(s, 'DCGM_FI_DEV_MEM_CLOCK', l, () => (big ? 1215 : 6251));
    gauge(s, 'DCGM_FI_DEV_PCIE_REPLAY_COUNTER', l, () => 0);
    gauge(s, 'DCGM_FI_DEV_XID_ERRORS', l, () => 0);
    gauge(s, 'DCGM_FI_PROF_GR_ENGINE_ACTIVE', l, (n, rr) => (n === 0 ? 0 : Math.min(1, Math.round((n / 40 + rr() * 0.05) * 1e6) / 1e6)));
    gauge(s, 'DCGM_FI_PROF_SM_ACTIVE', l, (n, rr) => (n === 0 ? 0 : Math.min(1, Math.round((n / 45 + rr() * 0.05) * 1e6) / 1e6)));
  }
  return { series: s, rate };
}

/** Draws the requests an instance served during one 15 s scrape interval (Poisson). */
export function requestsPerScrape(rate: number, r: () => number): number {
  const mean = rate * 15;
  if (mean === 0) return 0;
  let n = 0;
  let p = Math.exp(-mean);
  let cdf = p;
  const u = r();
  while (u > cdf && n < 1000) {
    n++;
    p *= mean / n;
    cdf += p;
  }
  return n;
}

/** The scrape timestamp of scrape `k` of instance `i`: 15 s steps, a per-target offset, rare 1 ms jitter. */
export function scrapeTimeMs(startMs: number, i: number, k: number, r: () => number): number {
  return startMs + ((i * 37) % 15_000) + k * 15_000 + (r() < 0.02 ? (r() < 0.5 ? -1 : 1) : 0);
}

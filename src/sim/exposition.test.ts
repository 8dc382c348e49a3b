import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOG, IDENTITY_LABELS, mappingTable, type SourceId } from '../semconv/index.js';
import { scenarioByName } from './scenarios.js';
import { Simulation } from './simulation.js';
import { TargetRegistry, fileSdGroups } from './targets.js';
import { scrape, type Scrape } from './testing/scrape.js';

const tsvUrl = new URL('../../../shared/reference/engine-metrics.tsv', import.meta.url);
const tsvPresent = existsSync(tsvUrl);
const inCi = process.env.CI === 'true';

/** TSV source and semconv source of each engine target's `job`. */
const SOURCE: Readonly<Record<string, { tsv: string; semconv: SourceId }>> = {
  vllm: { tsv: 'vllm', semconv: 'vllm' },
  sglang: { tsv: 'sglang', semconv: 'sglang' },
  'djl-lmi': { tsv: 'djl-serving', semconv: 'djl' },
  'dcgm-exporter': { tsv: 'dcgm-exporter', semconv: 'dcgm' },
};

interface Row {
  metric: string;
  type: string;
  labels: Set<string>;
  buckets: string;
  text: string;
}

function readTsv(): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const line of readFileSync(tsvUrl, 'utf8').split('\n').slice(1)) {
    const [source, metric, type, , labels, buckets] = line.split('\t');
    if (metric === undefined) continue;
    const rows = out.get(source) ?? [];
    out.set(source, rows);
    rows.push({ metric, type, labels: new Set(labels.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []), buckets, text: line });
  }
  return out;
}

/** The TSV row a family belongs to: exact name, or the name without prometheus_client's `_total`. */
function rowOf(rows: Row[], family: string): Row | undefined {
  const bare = family.replace(/_total$/, '');
  return rows.find((r) => r.metric === family || r.metric === bare) ?? rows.find((r) => new RegExp(`\\b${bare}\\b`).test(r.text));
}

/** Bucket bounds the TSV states as a plain list (1-2-5 series and named defaults included). */
function tsvBuckets(row: Row, maxModelLen: number): number[] | undefined {
  if (row.buckets.startsWith('1-2-5 series')) {
    const out: number[] = [];
    for (let e = 1; ; e *= 10) for (const m of [1, 2, 5]) if (m * e <= maxModelLen) out.push(m * e); else return out;
  }
  const list = row.buckets.replace(/\(.*\)$/, '').trim();
  if (!/^[0-9.,\s]+$/.test(list)) return undefined;
  return list.split(',').map(Number);
}

const sim = new Simulation({ scenario: scenarioByName('steady'), seed: 3, startMs: Date.UTC(2025, 0, 6) });
sim.advanceTo(sim.startMs + 5 * 60_000);
const registry = new TargetRegistry(sim);
const targets = registry.list().filter((t) => t.available());
const scrapes: [string, Scrape][] = targets.map((t) => [t.id, scrape(t)!]);

describe('expositions', () => {
  it('every target parses as text 0.0.4 and, where offered, as OpenMetrics with the same samples', () => {
    expect(targets.length).toBeGreaterThan(20);
    for (const t of targets) {
      const text = scrape(t)!;
      expect(text.samples.length).toBeGreaterThan(0);
      if (!t.openMetrics) continue;
      const om = scrape(t, true)!;
      expect(om.samples.map((s) => `${s.name}${s.labels.toString()}`)).toEqual(text.samples.map((s) => `${s.name}${s.labels.toString()}`));
    }
  });

  it('engines carry no identity labels: those come from the file_sd target labels', () => {
    const identity = ['endpoint', 'component', 'replica', 'instance', 'instance_type', 'az'];
    for (const [, s] of scrapes) {
      if (s.target.kind !== 'engine' && s.target.kind !== 'dcgm') continue;
      for (const x of s.samples) for (const l of identity) expect(x.labels.has(l)).toBe(false);
    }
    const groups = fileSdGroups(registry.list(), '127.0.0.1:9400');
    for (const g of groups.filter((x) => ['vllm', 'sglang', 'djl-lmi'].includes(x.labels.job))) {
      expect(Object.keys(g.labels).sort()).toEqual(['__metrics_path__', 'az', 'component', 'endpoint', 'gpu', 'instance', 'instance_type', 'job', 'model', 'replica']);
    }
    expect(new Set(groups.map((g) => g.labels.job))).toEqual(new Set(['vllm', 'sglang', 'djl-lmi', 'dcgm-exporter', 'sim-frontdoor', 'sim-platform', 'sim-quality']));
  });

  const tsvTitle = 'engine and DCGM targets use the native names, labels and buckets of engine-metrics.tsv';
  it.skipIf(!tsvPresent && !inCi)(tsvPresent ? tsvTitle : `${tsvTitle} (skipped: ../shared/reference/engine-metrics.tsv is absent)`, () => {
    const tsv = readTsv();
    const seenJobs = new Set<string>();
    for (const [, s] of scrapes) {
      const src = SOURCE[s.target.labels.job];
      if (src === undefined) continue;
      seenJobs.add(s.target.labels.job);
      const rows = tsv.get(src.tsv)!;
      for (const f of s.families) {
        const row = rowOf(rows, f.name);
        expect(row, `${s.target.labels.job}: ${f.name} is not in engine-metrics.tsv`).toBeDefined();
        const allowed = new Set([...row!.labels, 'le', ...(src.tsv === 'djl-serving' ? ['Model'] : [])]);
        const mine = s.samples.filter((x) => x.name === f.name || x.name.startsWith(`${f.name}_`));
        for (const x of mine) x.labels.forEach((n) => n === '__name__' || expect(allowed, `${f.name} label ${n}`).toContain(n));
        if (f.type !== 'histogram') continue;
        const want = tsvBuckets(row!, s.target.component?.spec.maxModelLen ?? 0);
        if (want === undefined) continue;
        const first = mine.find((x) => x.name === `${f.name}_bucket`)!;
        const les = mine.filter((x) => x.name === `${f.name}_bucket` && x.labels.without('le').equals(first.labels.without('le'))).map((x) => x.labels.get('le'));
        expect(les.slice(0, -1).map(Number), f.name).toEqual(want);
        expect(les[les.length - 1]).toBe('+Inf');
      }
    }
    expect(seenJobs.size).toBe(4);
  });

  it('the catalog metrics that matter are reachable from each engine', () => {
    const need: Readonly<Record<string, string[]>> = {
      vllm: ['llm_time_to_first_token_seconds', 'llm_inter_token_latency_seconds', 'llm_kv_cache_usage_ratio', 'llm_requests_running', 'llm_requests_waiting', 'llm_prompt_tokens_total', 'llm_generation_tokens_total', 'llm_preemptions_total', 'llm_e2e_request_latency_seconds', 'llm_request_queue_time_seconds', 'llm_requests_finished_total'],
      sglang: ['llm_time_to_first_token_seconds', 'llm_inter_token_latency_seconds', 'llm_kv_cache_usage_ratio', 'llm_requests_running', 'llm_requests_waiting', 'llm_prompt_tokens_total', 'llm_generation_tokens_total', 'llm_preemptions_total', 'llm_e2e_request_latency_seconds', 'llm_request_queue_time_seconds', 'llm_model_load_duration_seconds'],
      'djl-lmi': ['llm_request_queue_time_seconds', 'llm_e2e_request_latency_seconds', 'llm_http_responses_total', 'llm_model_load_duration_seconds', 'llm_model_download_duration_seconds', 'llm_time_per_output_token_seconds'],
      'dcgm-exporter': ['gpu_utilization_ratio', 'gpu_memory_used_bytes', 'gpu_memory_free_bytes', 'gpu_power_usage_watts', 'gpu_temperature_celsius', 'gpu_sm_active_ratio', 'gpu_tensor_pipe_active_ratio', 'gpu_energy_consumption_joules_total'],
    };
    for (const [job, metrics] of Object.entries(need)) {
      const s = scrapes.find(([, x]) => x.target.labels.job === job)![1];
      const names = new Set(s.samples.map((x) => x.name));
      const reached = new Set(mappingTable(SOURCE[job].semconv).filter((r) => names.has(r.from)).map((r) => r.metric.name));
      for (const m of metrics) expect(reached, `${job} → ${m}`).toContain(m);
    }
  });

  it("the simulator's own exporters use catalog names and labels", () => {
    const byName = new Map(CATALOG.map((m) => [m.name, m]));
    for (const [, s] of scrapes) {
      if (!['frontdoor', 'platform', 'quality'].includes(s.target.kind)) continue;
      for (const f of s.families) {
        const m = byName.get(f.name);
        expect(m, f.name).toBeDefined();
        // Identity labels are allowed on every metric (a per-replica gauge names its replica and instance).
        const allowed = new Set<string>([...m!.labels, ...IDENTITY_LABELS, 'le']);
        for (const x of s.samples) if (x.name.startsWith(f.name)) x.labels.forEach((n) => n === '__name__' || expect(allowed, `${f.name} ${n}`).toContain(n));
      }
    }
  });
});



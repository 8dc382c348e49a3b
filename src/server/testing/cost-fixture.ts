/**
 * A small cost module for the tests of the server's cost wiring, the cost routes and the Cost
 * page, until src/cost's own is bound: it implements the `CostEvaluator` contract honestly (reads
 * the fleet through the query client at each tick, writes real `llm_*` cost series through the
 * sink, answers the summary from them) with deliberately simple math (every replica holds one GPU
 * at its instance type's GPU price). It tests the wiring, not the cost math. Its catalogs are tiny
 * YAML files (`instances: {<type>: <price per hour>}`, `benchmarks: [<model>, …]`) whose errors
 * name `path:line:column`, as src/cost's do.
 */
import { ConfigError, parseYamlDocument } from '../../config/index.js';
import type { BenchmarkEntry, CostEvaluator, CostSummary, InstancePrice, PriceCatalog } from '../../cost/index.js';
import type { DurationMs, SeriesSample, UnixMs } from '../../model/index.js';
import { parseSampleValue, type InstantSample } from '../../query/index.js';
import type { CostBenchmarkCatalog, CostEvaluatorPorts, CostModule } from '../cost-wiring.js';

/** The fixture's default prices: the diagnosis fixture's `g5.xlarge`. */
export const FIXTURE_PRICES_YAML = 'instances:\n  g5.xlarge: 1.006\n';

/** A reason with markup in it: the page must show it as text. */
export const FIXTURE_REASON = 'DRAM 80% busy against tensor 10% <b>decode-heavy</b>, memory-bound';

/** `path:line:column: message` for the node on `line` (the column of its first character). */
function at(text: string, path: string, line: number, message: string): ConfigError {
  const col = (text.split('\n')[line - 1] ?? '').search(/\S/) + 1;
  return new ConfigError(`${path}:${line}:${Math.max(1, col)}: ${message}`);
}

function instancePrice(instanceType: string, perHour: number): InstancePrice {
  return { instanceType, provider: 'custom', onDemandPerHourUsd: perHour, effectivePerHourUsd: perHour, discount: 0, pricing: 'on-demand', gpuCount: 1, gpuModel: 'NVIDIA A10G', gpuMemoryGiB: 24 };
}

/** Parses the fixture's price format; a non-positive price or an unknown top-level field is an error. */
export function parseFixturePrices(text: string, path: string): PriceCatalog {
  const root = parseYamlDocument(text);
  const instances = new Map<string, InstancePrice>();
  for (const [key, node] of root.entries()) {
    if (key !== 'instances') throw at(text, path, node.line, `field ${key} not found in the price catalog`);
    for (const [type, v] of node.entries()) {
      const price = (v.node as { value?: unknown }).value;
      if (typeof price !== 'number' || !(price > 0)) throw at(text, path, v.line, `${type}: price must be a positive number`);
      instances.set(type, instancePrice(type, price));
    }
  }
  return { takenOn: '2026-11-01', region: 'us-east-1', instances };
}

/** Parses the fixture's benchmark format: a list of model names, each benchmarked on `g5.xlarge` with vLLM. */
export function parseFixtureBenchmarks(text: string, path: string): CostBenchmarkCatalog {
  const root = parseYamlDocument(text);
  const entries: BenchmarkEntry[] = [];
  for (const [key, node] of root.entries()) {
    if (key !== 'benchmarks') throw at(text, path, node.line, `field ${key} not found in the benchmark catalog`);
    for (const m of node.list()) {
      entries.push({ model: m.string(), instanceType: 'g5.xlarge', engine: 'vllm', gpusPerReplica: 1, points: [{ concurrency: 8, outputTpsPerSequence: 40, outputTpsAggregate: 320 }], source: 'test fixture' });
    }
  }
  return { entries, lookup: (model, instanceType, engine) => entries.find((e) => e.model === model && e.instanceType === instanceType && e.engine === engine) };
}

const vector = (r: { data: { resultType: string; result: unknown } }): InstantSample[] => (r.data.resultType === 'vector' ? (r.data.result as InstantSample[]) : []);

/** The fixture's evaluator (see the file's comment). */
export function fixtureCostEvaluator(p: CostEvaluatorPorts): CostEvaluator {
  const intervalMs: DurationMs = p.intervalMs ?? 15_000;
  const totals = new Map<string, number>();
  const tick = async (tMs: UnixMs, signal?: AbortSignal): Promise<SeriesSample[]> => {
    const held = vector(await p.client.instant('count by (endpoint, component, model, instance_type) (up{replica!=""})', tMs, { signal }));
    const out: SeriesSample[] = [];
    for (const s of held) {
      const { endpoint = '', component = '', model = '', instance_type: type = '' } = s.metric;
      const gpus = parseSampleValue(s.value[1]);
      const price = p.prices().instances.get(type);
      const perHour = price === undefined ? 0 : (gpus * price.effectivePerHourUsd) / price.gpuCount;
      const id = { endpoint, component, model };
      const key = JSON.stringify(id);
      const total = (totals.get(key) ?? 0) + (perHour * intervalMs) / 3_600_000;
      totals.set(key, total);
      out.push({ labels: { __name__: 'llm_component_gpus', ...id }, tMs, value: gpus });
      out.push({ labels: { __name__: 'llm_cost_dollars_per_hour', ...id }, tMs, value: perHour });
      out.push({ labels: { __name__: 'llm_cost_dollars_total', ...id }, tMs, value: total });
    }
    return out;
  };
  return {
    intervalMs,
    evaluate: async (tMs, signal) => p.sink.write(await tick(tMs, signal)),
    replay: async (fromMs, toMs, signal) => {
      let n = 0;
      for (let t = fromMs; t <= toMs; t += intervalMs, n++) await p.sink.write(await tick(t, signal));
      return n;
    },
    summary: async (tMs, signal): Promise<CostSummary> => {
      const rows = vector(await p.client.instant('llm_cost_dollars_per_hour', tMs, { signal }));
      const gpus = vector(await p.client.instant('llm_component_gpus', tMs, { signal }));
      const prices = p.prices();
      return {
        timeMs: tMs,
        catalog: { takenOn: prices.takenOn, region: prices.region, instanceTypes: prices.instances.size },
        components: rows.map((r) => ({
          endpoint: r.metric.endpoint ?? '',
          component: r.metric.component ?? '',
          model: r.metric.model ?? '',
          dollarsPerHour: parseSampleValue(r.value[1]),
          gpus: parseSampleValue(gpus.find((g) => g.metric.component === r.metric.component)?.value[1] ?? '0'),
          dollarsPerMillionInputTokens: null,
          dollarsPerMillionOutputTokens: Number.NaN,
          benchmarkEfficiency: p.benchmarks().entries.some((e) => e.model === r.metric.model) ? 0.5 : null,
        })),
        idle: { gpus: 0, dollarsPerHour: 0 },
        verdicts: rows.map((r) => ({
          replica: `${r.metric.component ?? ''}-0`,
          instance: `i-${r.metric.component ?? ''}`,
          component: r.metric.component ?? '',
          model: r.metric.model ?? '',
          bound: 'memory',
          inputs: { smActive: 0.3, tensorActive: 0.1, dramActive: 0.8, memCopyUtil: 0.6, mfu: null, mbu: null },
          reason: FIXTURE_REASON,
        })),
        findings: rows.slice(0, 1).map((r) => ({
          kind: 'over-provisioned',
          scope: { endpoint: r.metric.endpoint ?? '', component: r.metric.component ?? '' },
          text: `${r.metric.component ?? ''}: 1 of 1 GPUs <i>idle</i> for 6 h, $24 a day`,
          dollarsPerDay: 24,
          sinceMs: tMs - 6 * 3_600_000,
          query: `llm_cost_dollars_per_hour{component="${r.metric.component ?? ''}"}`,
        })),
      };
    },
  };
}

/** The fixture's cost module, for `ServeOptions.cost.module`. */
export const FIXTURE_COST_MODULE: CostModule = {
  createEvaluator: fixtureCostEvaluator,
  parsePrices: parseFixturePrices,
  parseBenchmarks: parseFixtureBenchmarks,
  defaultPrices: () => parseFixturePrices(FIXTURE_PRICES_YAML, '<defaults>'),
  defaultBenchmarks: () => parseFixtureBenchmarks('benchmarks: [llama-a]\n', '<defaults>'),
};

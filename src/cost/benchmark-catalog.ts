/**
 * The benchmark catalog: model × instance type × engine → what one replica generates at given
 * concurrencies (output TPS per sequence and aggregate, TTFT at a prompt length), with the source of
 * the numbers. Efficiency is measured against it at the concurrency a replica actually runs, so a
 * replica at low demand is compared with the benchmark at low concurrency (and reads about 1), while a
 * misconfigured engine reads far below at any concurrency. Format: docs/cost.md.
 */
import { DEFAULT_BENCHMARK_CATALOG_YAML } from './data/benchmarks.js';
import type { BenchmarkEntry, BenchmarkPoint } from './types.js';
import { CatalogFile } from './yaml-fields.js';

/** The benchmark catalog in force: its entries and a look-up by model, instance type and engine. */
export interface BenchmarkCatalog {
  readonly entries: readonly BenchmarkEntry[];
  /** The entry for a model on an instance type with an engine; undefined when none is stored. */
  lookup(model: string, instanceType: string, engine: string): BenchmarkEntry | undefined;
}

const TOP_FIELDS = ['benchmarks'];
const ENTRY_FIELDS = ['model', 'instance_type', 'engine', 'gpus_per_replica', 'source', 'prompt_tokens', 'points'];
const POINT_FIELDS = ['concurrency', 'output_tps_per_sequence', 'output_tps', 'ttft_s', 'prompt_tokens'];

const key = (model: string, instanceType: string, engine: string): string => `${model}\u0000${instanceType}\u0000${engine}`;

/** Builds a catalog from entries (the last one of a key wins, which is how an override replaces). */
export function benchmarkCatalog(entries: readonly BenchmarkEntry[]): BenchmarkCatalog {
  const byKey = new Map<string, BenchmarkEntry>();
  for (const e of entries) byKey.set(key(e.model, e.instanceType, e.engine), e);
  const list = [...byKey.values()];
  return { entries: list, lookup: (m, t, e) => byKey.get(key(m, t, e)) };
}

let defaults: BenchmarkCatalog | undefined;

/** The shipped default catalog, parsed once. */
export function defaultBenchmarkCatalog(): BenchmarkCatalog {
  defaults ??= parseBenchmarkCatalog(DEFAULT_BENCHMARK_CATALOG_YAML, '<default benchmarks>', benchmarkCatalog([]));
  return defaults;
}

/**
 * Parses a benchmark catalog file over `base` (the parsed defaults when absent): an entry of the
 * same model, instance type and engine replaces the base's, a new one is added. Every entry states
 * its `source`; its points are sorted by concurrency with no concurrency twice. Throws a
 * `ConfigError` `path:line:column: …` on the first mistake.
 */
export function parseBenchmarkCatalog(text: string, path: string, base: BenchmarkCatalog = defaultBenchmarkCatalog()): BenchmarkCatalog {
  const f: CatalogFile = new CatalogFile(text, path);
  const top = f.fields(f.root(), 'the benchmark catalog', TOP_FIELDS);
  const seen = new Set<string>();
  const added: BenchmarkEntry[] = [];
  for (const item of top.benchmarks === undefined ? [] : f.list(top.benchmarks, 'benchmarks')) {
    const x = f.fields(item, 'a benchmark', ENTRY_FIELDS);
    for (const need of ['model', 'instance_type', 'engine', 'source', 'points']) if (x[need] === undefined) f.fail(item, `a benchmark needs ${need}`);
    const model = f.string(x.model!, 'model');
    const instanceType = f.string(x.instance_type!, 'instance_type');
    const engine = f.string(x.engine!, 'engine');
    const k = key(model, instanceType, engine);
    if (seen.has(k)) f.fail(item, `duplicate benchmark for ${model} on ${instanceType} with ${engine}`);
    seen.add(k);
    const promptTokens = x.prompt_tokens === undefined ? undefined : f.number(x.prompt_tokens, 'prompt_tokens', { min: 1, integer: true });
    const points: BenchmarkPoint[] = [];
    for (const pn of f.list(x.points!, 'points')) {
      const p = f.fields(pn, 'a benchmark point', POINT_FIELDS);
      for (const need of ['concurrency', 'output_tps_per_sequence', 'output_tps']) if (p[need] === undefined) f.fail(pn, `a benchmark point needs ${need}`);
      const concurrency = f.number(p.concurrency!, 'concurrency', { min: 1 });
      if (points.length > 0 && concurrency <= points[points.length - 1].concurrency) f.fail(p.concurrency!, 'points must be sorted by concurrency, each concurrency once');
      const ttft = p.ttft_s === undefined ? undefined : f.number(p.ttft_s, 'ttft_s', { min: 0 });
      const pt = p.prompt_tokens === undefined ? promptTokens : f.number(p.prompt_tokens, 'prompt_tokens', { min: 1, integer: true });
      points.push({
        concurrency,
        outputTpsPerSequence: f.number(p.output_tps_per_sequence!, 'output_tps_per_sequence', { min: 0 }),
        outputTpsAggregate: f.number(p.output_tps!, 'output_tps', { min: 0 }),
        ...(ttft === undefined ? {} : { ttftS: ttft }),
        ...(pt === undefined ? {} : { promptTokens: pt }),
      });
    }
    if (points.length === 0) f.fail(x.points!, 'a benchmark needs at least one point');
    const gpus = x.gpus_per_replica === undefined ? 1 : f.number(x.gpus_per_replica, 'gpus_per_replica', { min: 1, integer: true });
    added.push({ model, instanceType, engine, gpusPerReplica: gpus, points, source: f.string(x.source!, 'source') });
  }
  return benchmarkCatalog([...base.entries, ...added]);
}

/**
 * The aggregate output TPS one replica is expected to reach at `concurrency` running sequences:
 * linear interpolation of `outputTpsAggregate` between the two points around it; below the first
 * point, the first point's per-sequence rate times the concurrency (a replica running 0.5 sequences
 * on average generates half of what one sequence does); beyond the last point, the last point's
 * aggregate (clamped: a benchmark says nothing past its largest batch, and a replica cannot run
 * more than its engine allows anyway).
 */
export function expectedOutputTps(entry: BenchmarkEntry, concurrency: number): number {
  const ps = entry.points;
  if (!(concurrency > 0)) return 0;
  const first = ps[0];
  if (concurrency <= first.concurrency) return first.outputTpsPerSequence * concurrency;
  for (let i = 1; i < ps.length; i++) {
    const b = ps[i];
    if (concurrency <= b.concurrency) {
      const a = ps[i - 1];
      const w = (concurrency - a.concurrency) / (b.concurrency - a.concurrency);
      return a.outputTpsAggregate + w * (b.outputTpsAggregate - a.outputTpsAggregate);
    }
  }
  return ps[ps.length - 1].outputTpsAggregate;
}

/** The benchmark's reference throughput: the aggregate at its largest measured concurrency. */
export function peakOutputTps(entry: BenchmarkEntry): number {
  return entry.points[entry.points.length - 1].outputTpsAggregate;
}

/**
 * One tick of the cost view, computed in JS from the tick's `Readings` and the catalogs: what each
 * component holds and costs, each instance's idle GPUs, each replica's efficiency against its
 * benchmark and its bound verdict. Pure: the evaluator keeps what spans ticks (accumulated cost,
 * windows, since-when) and turns the result into series.
 */
import { expectedOutputTps, type BenchmarkCatalog } from './benchmark-catalog.js';
import { boundOf, utilizations } from './bound.js';
import { heldByInstance, heldReplicas, liveInstances, type HeldReplica } from './gpu-holdings.js';
import { gpuPricePerHour } from './price-catalog.js';
import type { Reading, Readings } from './queries.js';
import type { BenchmarkEntry, BoundVerdict, InstancePrice, PriceCatalog } from './types.js';

/** How a component's cost is split between its input and its output tokens: an output token weighs this many input tokens. */
export const OUTPUT_TOKEN_WEIGHT = 4;
/** Below this many running sequences on average, a replica's efficiency is not judged (too little to measure). */
export const MIN_JUDGED_CONCURRENCY = 0.5;

/** Options of `computeTick`. */
export interface TickOptions {
  /** A held GPU whose utilization stayed below this over the idle window is underused (0–1). */
  readonly utilizationBelow: number;
  /**
   * Multiplies the benchmarks' rates: virtual seconds per wall-clock second of a simulated fleet at
   * `--speed N` (its scraped rates are per wall-clock second, docs/design/virtual-time.md); 1 otherwise.
   */
  readonly rateScale?: number;
}

/** One replica at a tick. */
export interface ReplicaTick extends HeldReplica {
  readonly engine: string;
  /** Null where the engine exposes no generated-token counter (DJL/LMI): no efficiency then. */
  readonly outputTps: number | null;
  readonly running: number;
  readonly benchmark: BenchmarkEntry | undefined;
  /** Expected output TPS at `running` and observed over expected (null when not judged). */
  readonly expectedTps: number | null;
  readonly efficiency: number | null;
  readonly verdict: BoundVerdict;
  readonly gpuPricePerHour: number | null;
}

/** One component at a tick. */
export interface ComponentTick {
  readonly endpoint: string;
  readonly component: string;
  readonly model: string;
  readonly gpus: number;
  readonly replicas: number;
  readonly dollarsPerHour: number;
  readonly inputTps: number;
  readonly outputTps: number;
  readonly running: number;
  readonly dollarsPerMillionInputTokens: number | null;
  readonly dollarsPerMillionOutputTokens: number | null;
  readonly efficiency: number | null;
  /** The benchmark its replicas run against (the first replica's), for capacity. */
  readonly benchmark: BenchmarkEntry | undefined;
  /** The GPU price of its replicas' instances (the first priced one), for findings in $ a day. */
  readonly gpuPricePerHour: number | null;
  readonly gpusPerReplica: number;
}

/** One live instance at a tick. */
export interface InstanceTick {
  readonly endpoint: string;
  readonly instance: string;
  readonly instanceType: string;
  readonly price: InstancePrice | undefined;
  readonly gpus: number;
  readonly unallocated: readonly string[];
  readonly underused: readonly string[];
  readonly idleDollarsPerHour: number;
}

/** Everything one tick computed. */
export interface TickResult {
  readonly replicas: readonly ReplicaTick[];
  readonly components: readonly ComponentTick[];
  readonly instances: readonly InstanceTick[];
  /** Instance types with no price in the catalog (their cost is not counted). */
  readonly unpriced: readonly string[];
}

/** Values of a per-key query: `key(metric)` → value. */
function index(rows: readonly Reading[], key: (m: Readonly<Record<string, string>>) => string): Map<string, Reading> {
  const out = new Map<string, Reading>();
  for (const r of rows) out.set(key(r.metric), r);
  return out;
}

const byReplica = (m: Readonly<Record<string, string>>): string => m.replica ?? '';
const byGpu = (m: Readonly<Record<string, string>>): string => `${m.instance ?? ''}/${m.gpu ?? ''}`;
const byComponent = (m: Readonly<Record<string, string>>): string => `${m.endpoint ?? ''}/${m.component ?? ''}`;

/** The mean of `gpus`' values in `m` (null when none has one). */
function meanOver(m: ReadonlyMap<string, Reading>, instance: string, gpus: readonly string[]): number | null {
  let sum = 0;
  let n = 0;
  for (const g of gpus) {
    const r = m.get(`${instance}/${g}`);
    if (r !== undefined) {
      sum += r.value;
      n++;
    }
  }
  return n === 0 ? null : sum / n;
}

/** Computes one tick. */
export function computeTick(rd: Readings, prices: PriceCatalog, benchmarks: BenchmarkCatalog, o: TickOptions): TickResult {
  const held = heldReplicas(rd.replicas);
  const out = index(rd.replicaOutputTps, byReplica);
  const running = index(rd.replicaRunning, byReplica);
  const flops = index(rd.replicaFlops, byReplica);
  const bytes = index(rd.replicaBytes, byReplica);
  const act = { sm: index(rd.sm, byGpu), tensor: index(rd.tensor, byGpu), dram: index(rd.dram, byGpu), memCopy: index(rd.memCopy, byGpu) };
  const unpriced = new Set<string>();
  const priceOf = (t: string): InstancePrice | undefined => {
    const p = prices.instances.get(t);
    if (p === undefined && t !== '') unpriced.add(t);
    return p;
  };

  const replicas: ReplicaTick[] = held.map((h) => {
    const o1 = out.get(h.replica);
    const r1 = running.get(h.replica);
    const engine = o1?.metric.engine ?? r1?.metric.engine ?? '';
    const outputTps = o1 === undefined ? null : o1.value;
    const conc = r1?.value ?? 0;
    const price = priceOf(h.instanceType);
    const benchmark = benchmarks.lookup(h.model, h.instanceType, engine);
    const expected = benchmark !== undefined && outputTps !== null && conc >= MIN_JUDGED_CONCURRENCY ? expectedOutputTps(benchmark, conc) * (o.rateScale ?? 1) : null;
    const u = utilizations(flops.get(h.replica)?.value, bytes.get(h.replica)?.value, price?.gpuModel, h.gpus.length);
    const inputs = {
      smActive: meanOver(act.sm, h.instance, h.gpus),
      tensorActive: meanOver(act.tensor, h.instance, h.gpus),
      dramActive: meanOver(act.dram, h.instance, h.gpus),
      memCopyUtil: meanOver(act.memCopy, h.instance, h.gpus),
      mfu: u.mfu,
      mbu: u.mbu,
    };
    const serving = h.up > 0 && ((outputTps ?? 0) > 0 || conc > 0.01);
    const { bound, reason } = boundOf(inputs, serving);
    return {
      ...h,
      engine,
      outputTps,
      running: conc,
      benchmark,
      expectedTps: expected,
      efficiency: expected !== null && expected > 0 && outputTps !== null ? outputTps / expected : null,
      verdict: { replica: h.replica, instance: h.instance, component: h.component, model: h.model, bound, inputs, reason },
      gpuPricePerHour: price === undefined ? null : gpuPricePerHour(price),
    };
  });

  const inTps = index(rd.inputTps, byComponent);
  const outTps = index(rd.outputTps, byComponent);
  const groups = new Map<string, ReplicaTick[]>();
  for (const r of replicas) groups.set(`${r.endpoint}/${r.component}`, [...(groups.get(`${r.endpoint}/${r.component}`) ?? []), r]);
  const components: ComponentTick[] = [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, rs]) => {
      const dollarsPerHour = rs.reduce((s, r) => s + r.gpus.length * (r.gpuPricePerHour ?? 0), 0);
      const i = inTps.get(k)?.value ?? 0;
      const op = outTps.get(k)?.value ?? 0;
      // Cost per token: the hour's cost over the hour's tokens at the current rates, an output token
      // weighing OUTPUT_TOKEN_WEIGHT input tokens, so that input and output cost add up to the whole.
      const units = i + OUTPUT_TOKEN_WEIGHT * op;
      const perInputToken = units > 0 ? dollarsPerHour / 3600 / units : null;
      const judged = rs.filter((r) => r.efficiency !== null);
      const expected = judged.reduce((s, r) => s + r.expectedTps!, 0);
      return {
        endpoint: rs[0].endpoint,
        component: rs[0].component,
        model: rs[0].model,
        gpus: rs.reduce((s, r) => s + r.gpus.length, 0),
        replicas: rs.length,
        dollarsPerHour,
        inputTps: i,
        outputTps: op,
        running: rs.reduce((s, r) => s + r.running, 0),
        dollarsPerMillionInputTokens: perInputToken === null || i <= 0 ? null : perInputToken * 1e6,
        dollarsPerMillionOutputTokens: perInputToken === null || op <= 0 ? null : perInputToken * OUTPUT_TOKEN_WEIGHT * 1e6,
        efficiency: judged.length === 0 || expected <= 0 ? null : judged.reduce((s, r) => s + (r.outputTps ?? 0), 0) / expected,
        benchmark: rs.find((r) => r.benchmark !== undefined)?.benchmark,
        gpuPricePerHour: rs.find((r) => r.gpuPricePerHour !== null)?.gpuPricePerHour ?? null,
        gpusPerReplica: rs[0].gpus.length,
      };
    });

  const holders = heldByInstance(held);
  const maxUtil = index(rd.gpuMaxUtil, byGpu);
  const steady = index(rd.replicaSteady, byReplica);
  const instances: InstanceTick[] = liveInstances(rd.gpus).map((li) => {
    const price = priceOf(li.instanceType);
    const h = holders.get(li.instance);
    const unallocated = li.gpus.filter((g) => h?.get(g) === undefined);
    const underused = li.gpus.filter((g) => {
      const r = h?.get(g);
      if (r === undefined || (steady.get(r.replica)?.value ?? 0) < 1) return false;
      const m = maxUtil.get(`${li.instance}/${g}`);
      return m !== undefined && m.value < o.utilizationBelow;
    });
    const per = price === undefined ? 0 : gpuPricePerHour(price);
    return { ...li, price, gpus: li.gpus.length, unallocated, underused, idleDollarsPerHour: (unallocated.length + underused.length) * per };
  });
  return { replicas, components, instances, unpriced: [...unpriced].sort() };
}

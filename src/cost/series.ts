/**
 * The cost series of one tick, under the catalog's names (src/semconv/catalog-cost.ts). A series
 * written at the previous tick and not at this one (a replica gone, an instance terminated) gets a
 * stale marker, so a gauge ends when its subject does instead of lingering for the lookback.
 */
import { STALE_NAN, type SeriesSample, type UnixMs } from '../model/index.js';
import { METRIC } from '../semconv/index.js';
import type { BoundKind } from './types.js';
import type { TickResult } from './tick.js';

const BOUND_KINDS: readonly BoundKind[] = ['compute', 'memory', 'idle', 'unknown'];

/** What the evaluator adds to a tick's result: accumulated cost and over-provisioning per component key (`endpoint/component`). */
export interface TickExtras {
  readonly costTotal: ReadonlyMap<string, number>;
  readonly overprovisioning: ReadonlyMap<string, number>;
}

/** Builds each tick's samples and remembers what it wrote, for stale markers. */
export class CostSeries {
  private previous = new Map<string, Readonly<Record<string, string>>>();

  /** The samples of the tick at `tMs`. */
  samples(tMs: UnixMs, t: TickResult, x: TickExtras): SeriesSample[] {
    const out: SeriesSample[] = [];
    const now = new Map<string, Readonly<Record<string, string>>>();
    const put = (name: string, labels: Record<string, string>, value: number | null): void => {
      if (value === null || !Number.isFinite(value)) return;
      const l = { __name__: name, ...labels };
      const key = JSON.stringify(l);
      if (now.has(key)) return;
      now.set(key, l);
      out.push({ labels: l, tMs, value });
    };
    for (const i of t.instances) {
      const id = { endpoint: i.endpoint, instance: i.instance, instance_type: i.instanceType };
      if (i.price !== undefined) {
        put(METRIC.LLM_INSTANCE_PRICE_DOLLARS_PER_HOUR, { ...id, pricing: i.price.pricing }, i.price.effectivePerHourUsd);
        put(METRIC.LLM_GPU_PRICE_DOLLARS_PER_HOUR, id, i.price.effectivePerHourUsd / i.price.gpuCount);
        put(METRIC.LLM_IDLE_COST_DOLLARS_PER_HOUR, id, i.idleDollarsPerHour);
      }
      put(METRIC.LLM_IDLE_GPUS, { ...id, reason: 'unallocated' }, i.unallocated.length);
      put(METRIC.LLM_IDLE_GPUS, { ...id, reason: 'underused' }, i.underused.length);
    }
    for (const c of t.components) {
      const id = { endpoint: c.endpoint, component: c.component, model: c.model };
      const k = `${c.endpoint}/${c.component}`;
      put(METRIC.LLM_COMPONENT_GPUS, id, c.gpus);
      put(METRIC.LLM_COST_DOLLARS_PER_HOUR, id, c.dollarsPerHour);
      put(METRIC.LLM_COST_DOLLARS_TOTAL, id, x.costTotal.get(k) ?? null);
      put(METRIC.LLM_COST_PER_MILLION_TOKENS_DOLLARS, { ...id, token_type: 'input' }, c.dollarsPerMillionInputTokens);
      put(METRIC.LLM_COST_PER_MILLION_TOKENS_DOLLARS, { ...id, token_type: 'output' }, c.dollarsPerMillionOutputTokens);
      put(METRIC.LLM_OVERPROVISIONING_RATIO, id, x.overprovisioning.get(k) ?? null);
    }
    for (const r of t.replicas) {
      const id = { endpoint: r.endpoint, component: r.component, model: r.model, replica: r.replica, instance: r.instance, instance_type: r.instanceType };
      for (const b of BOUND_KINDS) put(METRIC.LLM_REPLICA_BOUND_STATE, { ...id, bound: b }, r.verdict.bound === b ? 1 : 0);
      put(METRIC.LLM_REPLICA_MFU_RATIO, id, r.verdict.inputs.mfu);
      put(METRIC.LLM_REPLICA_MBU_RATIO, id, r.verdict.inputs.mbu);
      put(METRIC.LLM_BENCHMARK_EFFICIENCY_RATIO, id, r.efficiency);
      if (r.benchmark !== undefined) {
        const b = r.benchmark;
        put(METRIC.LLM_BENCHMARK_OUTPUT_TOKENS_PER_SECOND, { model: b.model, instance_type: b.instanceType, engine: b.engine }, b.points[b.points.length - 1].outputTpsAggregate);
      }
    }
    // A gone subject's series end (the accumulated cost too: if its component comes back, the
    // counter continues from the value the evaluator kept).
    for (const [key, labels] of this.previous) if (!now.has(key)) out.push({ labels, tMs, value: STALE_NAN });
    this.previous = now;
    return out;
  }
}

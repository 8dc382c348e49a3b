/**
 * Who holds which GPU: replicas from the engine targets' identity (`gpu` = the indices a replica
 * holds, "0,1"), instances and their GPUs from the DCGM exporter (which lists every GPU of an
 * instance, held or not). A component's cost is the GPUs its replicas hold times their instance's
 * GPU price, so one shared instance is split by GPUs held, as SageMaker bills inference components.
 */
import type { Reading } from './queries.js';

/** One replica and the GPUs it holds. */
export interface HeldReplica {
  readonly endpoint: string;
  readonly component: string;
  readonly model: string;
  readonly replica: string;
  readonly instance: string;
  readonly instanceType: string;
  /** GPU indices on its instance. */
  readonly gpus: readonly string[];
  /** 1 when its engine is scraped up, 0 while it starts. */
  readonly up: number;
}

/** One live instance and its GPU indices as DCGM lists them. */
export interface LiveInstance {
  readonly endpoint: string;
  readonly instance: string;
  readonly instanceType: string;
  readonly gpus: readonly string[];
}

/** The GPU indices of a `gpu` label ("0,1" → ["0", "1"]); one unnamed GPU when the label is absent. */
export function gpuIndices(label: string | undefined): string[] {
  if (label === undefined || label.trim() === '') return ['?'];
  return label
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The replicas of the `replicas` query. */
export function heldReplicas(rows: readonly Reading[]): HeldReplica[] {
  return rows.map((r) => ({
    endpoint: r.metric.endpoint ?? '',
    component: r.metric.component ?? '',
    model: r.metric.model ?? '',
    replica: r.metric.replica ?? '',
    instance: r.metric.instance ?? '',
    instanceType: r.metric.instance_type ?? '',
    gpus: gpuIndices(r.metric.gpu),
    up: r.value,
  }));
}

/** The instances of the `gpus` query, GPUs sorted. */
export function liveInstances(rows: readonly Reading[]): LiveInstance[] {
  const by = new Map<string, { endpoint: string; instance: string; instanceType: string; gpus: string[] }>();
  for (const r of rows) {
    const id = r.metric.instance ?? '';
    const x = by.get(id) ?? { endpoint: r.metric.endpoint ?? '', instance: id, instanceType: r.metric.instance_type ?? '', gpus: [] };
    x.gpus.push(r.metric.gpu ?? '0');
    by.set(id, x);
  }
  for (const x of by.values()) x.gpus.sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
  return [...by.values()].sort((a, b) => a.instance.localeCompare(b.instance));
}

/** Per instance, the GPU indices some replica holds. */
export function heldByInstance(replicas: readonly HeldReplica[]): Map<string, Map<string, HeldReplica>> {
  const out = new Map<string, Map<string, HeldReplica>>();
  for (const r of replicas) {
    const m = out.get(r.instance) ?? new Map<string, HeldReplica>();
    for (const g of r.gpus) m.set(g, r);
    out.set(r.instance, m);
  }
  return out;
}

/**
 * Right-sizing findings in words and dollars a day, from a tick's result and what the evaluator
 * remembers across ticks (since when a GPU has been idle or a component below its benchmark, the
 * demand window): idle GPUs per endpoint, over-provisioned components, components below benchmark.
 */
import { formatDuration, type DurationMs, type UnixMs } from '../model/index.js';
import { latencyCapacity } from './capacity.js';
import type { TickResult } from './tick.js';
import type { CostFinding } from './types.js';

/** Below this efficiency a component is below its benchmark (a healthy engine reads about 1). */
export const BELOW_BENCHMARK = 0.7;
/** How long it must stay below before it is a finding. */
export const BELOW_FOR_MS: DurationMs = 5 * 60_000;
/** Capacity over peak demand at which a component is over-provisioned (and can drop a replica). */
export const OVERPROVISIONED_AT = 2;
/** Headroom kept over the peak when counting the replicas a component needs. */
export const HEADROOM = 1.25;

/** What the evaluator remembers for findings. */
export interface FindingState {
  /** `instance/gpu` → since when it has been idle. */
  readonly idleSince: ReadonlyMap<string, UnixMs>;
  /** `endpoint/component` → since when it has been below its benchmark. */
  readonly belowSince: ReadonlyMap<string, UnixMs>;
  /** `endpoint/component` → peak running sequences and output TPS over the window, and the window's start. */
  readonly peaks: ReadonlyMap<string, { readonly running: number; readonly outputTps: number; readonly sinceMs: UnixMs }>;
  readonly overprovisioning: ReadonlyMap<string, number>;
  readonly windowMs: DurationMs;
}

const money = (x: number): string => (x >= 100 ? `$${Math.round(x).toLocaleString('en-US')}` : `$${x.toFixed(2)}`);
const sel = (l: Readonly<Record<string, string>>): string =>
  Object.entries(l)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(', ');
const span = (ms: number): string => formatDuration(Math.max(60_000, Math.round(ms / 60_000) * 60_000));

/** The findings at `tMs`, costliest first. */
export function costFindings(tMs: UnixMs, t: TickResult, s: FindingState): CostFinding[] {
  const out: CostFinding[] = [];
  const endpoints = new Map<string, { gpus: number; unallocated: number; underused: number; perHour: number; since: UnixMs }>();
  for (const i of t.instances) {
    const e = endpoints.get(i.endpoint) ?? { gpus: 0, unallocated: 0, underused: 0, perHour: 0, since: tMs };
    e.gpus += i.gpus;
    e.unallocated += i.unallocated.length;
    e.underused += i.underused.length;
    e.perHour += i.idleDollarsPerHour;
    for (const g of [...i.unallocated, ...i.underused]) e.since = Math.min(e.since, s.idleSince.get(`${i.instance}/${g}`) ?? tMs);
    endpoints.set(i.endpoint, e);
  }
  for (const [endpoint, e] of endpoints) {
    const idle = e.unallocated + e.underused;
    if (idle === 0) continue;
    const why = [e.unallocated > 0 ? `${e.unallocated} held by no replica` : '', e.underused > 0 ? `${e.underused} held but unused` : ''].filter((x) => x !== '').join(', ');
    out.push({
      kind: 'idle-gpus',
      scope: { endpoint },
      text: `${endpoint}: ${idle} of ${e.gpus} GPUs idle (${why}) for ${span(tMs - e.since)}, ${money(e.perHour * 24)} a day`,
      dollarsPerDay: e.perHour * 24,
      sinceMs: e.since,
      query: `sum by (endpoint, instance, reason) (llm_idle_gpus{${sel({ endpoint })}})`,
    });
  }
  for (const c of t.components) {
    const k = `${c.endpoint}/${c.component}`;
    const scope = { endpoint: c.endpoint, component: c.component };
    const ratio = s.overprovisioning.get(k);
    const peak = s.peaks.get(k);
    if (ratio !== undefined && peak !== undefined && ratio >= OVERPROVISIONED_AT && c.replicas >= 2 && tMs - peak.sinceMs >= s.windowMs * 0.9) {
      const need = Math.max(1, Math.ceil((c.replicas / ratio) * HEADROOM));
      const excess = c.replicas - need;
      if (excess >= 1) {
        const perDay = excess * c.gpusPerReplica * (c.gpuPricePerHour ?? 0) * 24;
        out.push({
          kind: 'over-provisioned',
          scope,
          text: `${c.component}: capacity ${ratio.toFixed(1)}× its peak demand over the last ${span(s.windowMs)} (${peak.running.toFixed(1)} sequences running, ${Math.round(peak.outputTps)} output tokens/s); ${need} of its ${c.replicas} replicas would carry it, ${money(perDay)} a day`,
          dollarsPerDay: perDay,
          sinceMs: peak.sinceMs,
          query: `llm_overprovisioning_ratio{${sel(scope)}}`,
        });
      }
    }
    const since = s.belowSince.get(k);
    if (c.efficiency !== null && c.efficiency < BELOW_BENCHMARK && since !== undefined && tMs - since >= BELOW_FOR_MS) {
      const perDay = (1 - c.efficiency) * c.dollarsPerHour * 24;
      const cap = c.benchmark === undefined ? null : latencyCapacity(c.benchmark);
      out.push({
        kind: 'below-benchmark',
        scope,
        text: `${c.component}: generates ${Math.round(c.efficiency * 100)}% of its benchmark at the concurrency it runs (${(c.running / Math.max(1, c.replicas)).toFixed(1)} sequences per replica${cap === null ? '' : `; the benchmark holds ${Math.round(cap.concurrency)}`}) for ${span(tMs - since)}: check max_num_seqs and CUDA graphs (no --enforce-eager); ${money(perDay)} a day of GPU time lost`,
        dollarsPerDay: perDay,
        sinceMs: since,
        query: `llm_benchmark_efficiency_ratio{${sel(scope)}}`,
      });
    }
  }
  return out.sort((a, b) => b.dollarsPerDay - a.dollarsPerDay || a.text.localeCompare(b.text));
}

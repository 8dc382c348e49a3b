/**
 * Faults: the timeline of a scenario plus faults injected while it runs, applied to the fleet every
 * tick, and the ground truth (kind, scope, start, end) that tests and diagnosis score themselves
 * against. Each kind's parameters and defaults are listed in `FAULT_DEFAULTS`.
 */
import type { UnixMs } from '../model/index.js';
import { neutralEffects, type ComponentRuntime, type Fleet, type Instance } from './fleet.js';
import type { Replica } from './replica.js';
import type { FaultKind, FaultScope, FaultSpec } from './spec.js';

/** Each fault kind's parameters with their defaults, and what the kind does. */
export const FAULT_DEFAULTS: Readonly<Record<FaultKind, { readonly params: Readonly<Record<string, number>>; readonly effect: string }>> = {
  'kv-cache-pressure': { params: { promptScale: 2.5, outputScale: 3 }, effect: 'much longer prompts and outputs on a component: KV usage climbs, then preemptions' },
  'az-traffic-skew': { params: {}, effect: 'the router sends nothing to scope.az and its share to params.toAz (default: the next AZ)' },
  'cold-start-storm': { params: { rateMultiplier: 4, downloadMBps: 20 }, effect: 'a burst triggers scale-out while model downloads are slow' },
  'gpu-memory-saturation': { params: { kvShare: 0.85, rampMs: 60_000 }, effect: 'a foreign allocation fills GPU memory: CUDA OOM crash, restart with a smaller KV cache' },
  'prompt-length-shift': { params: { promptScale: 3 }, effect: 'prompts of a component get longer' },
  'slow-instance': { params: { slowdown: 2.5 }, effect: "an instance's GPUs throttle (hot, slow clocks): TTFT and output TPS outliers" },
  'rate-limit-burst': { params: { rateMultiplier: 5, rateLimitPerSec: 0 }, effect: 'a burst above the front-door rate limit: 429s (rateLimitPerSec 0: 1.5× the base rate)' },
  'engine-errors': { params: { http500: 0.04, http503: 0.02, midStreamAbort: 0.04 }, effect: 'engine failures: 500s, 503s and streams aborted mid-way' },
  'throughput-below-benchmark': { params: { maxNumSeqs: 4, slowdown: 1.6 }, effect: 'a misconfigured engine (tiny batch, no CUDA graphs) far below benchmark TPS' },
  'quality-drift': { params: { drop: 0.35, safetyDrop: 0 }, effect: "a component's judged relevance and tone fall (`drop`), and its safety score with `safetyDrop`, while latency stays normal" },
};

/** One fault with absolute times, as recorded in the ground truth. */
export interface GroundTruthEntry {
  readonly id: number;
  readonly kind: FaultKind;
  readonly scope: FaultScope;
  readonly params: Readonly<Record<string, number | string>>;
  /** Wall-clock times (what a scraper stamps samples with) and the simulator's virtual times. */
  readonly startMs: UnixMs;
  readonly endMs: UnixMs;
  readonly virtualStartMs: UnixMs;
  readonly virtualEndMs: UnixMs;
  readonly source: 'scenario' | 'injected';
  readonly effect: string;
}

interface ActiveFault {
  readonly id: number;
  readonly spec: FaultSpec;
  readonly startMs: number;
  /** Moved earlier when the fault is cleared (`clear`). */
  endMs: number;
  readonly source: 'scenario' | 'injected';
  started: boolean;
  ended: boolean;
  foreignTargetMiB: number;
}

const num = (f: ActiveFault, name: string): number => {
  const v = f.spec.params?.[name];
  return typeof v === 'number' ? v : (FAULT_DEFAULTS[f.spec.kind].params[name] ?? 0);
};

/** True when `c` is inside `s` (instance-level fields are ignored for components). */
export function componentInScope(c: ComponentRuntime, s: FaultScope): boolean {
  return (s.endpoint === undefined || s.endpoint === c.endpoint.spec.name) && (s.component === undefined || s.component === c.spec.name);
}

/** True when `i` is inside `s` (component-level fields are ignored for instances). */
export function instanceInScope(i: Instance, s: FaultScope): boolean {
  return (
    (s.endpoint === undefined || s.endpoint === i.endpoint.spec.name) &&
    (s.instance === undefined || s.instance === i.id) &&
    (s.az === undefined || s.az === i.az) &&
    (s.instanceType === undefined || s.instanceType === i.type.name)
  );
}

/** True when `r` is inside `s`. */
export function replicaInScope(r: Replica, s: FaultScope): boolean {
  return componentInScope(r.component, s) && instanceInScope(r.instance, s) && (s.replica === undefined || s.replica === r.id);
}

/** The faults of a run and their effect on the fleet. */
export class FaultTimeline {
  private readonly faults: ActiveFault[] = [];
  private nextId = 1;

  /** `toWallMs` maps virtual time to the wall clock (identity when the run is not accelerated). */
  constructor(private readonly toWallMs: (virtualMs: number) => UnixMs) {}

  /** Adds a fault whose `startMs`/`endMs` are offsets from `baseMs` (virtual). */
  add(spec: FaultSpec, baseMs: number, source: 'scenario' | 'injected'): GroundTruthEntry {
    const f: ActiveFault = { id: this.nextId++, spec, startMs: baseMs + spec.startMs, endMs: baseMs + spec.endMs, source, started: false, ended: false, foreignTargetMiB: 0 };
    this.faults.push(f);
    return this.entry(f);
  }

  /**
   * Ends fault `id` at virtual time `tMs` (a fault already over keeps its end; one not started yet
   * ends where it would have started: it never takes effect). Its effects stop at the next `apply`
   * and its ground-truth end becomes the clearing time. Undefined when no fault has that id.
   */
  clear(id: number, tMs: number): GroundTruthEntry | undefined {
    const f = this.faults.find((x) => x.id === id);
    if (f === undefined) return undefined;
    f.endMs = Math.max(f.startMs, Math.min(f.endMs, tMs));
    return this.entry(f);
  }

  /** Every fault so far, in the order added. */
  groundTruth(): GroundTruthEntry[] {
    return this.faults.map((f) => this.entry(f));
  }

  private entry(f: ActiveFault): GroundTruthEntry {
    const params = { ...FAULT_DEFAULTS[f.spec.kind].params, ...f.spec.params };
    return {
      id: f.id,
      kind: f.spec.kind,
      scope: f.spec.scope,
      params,
      startMs: Math.round(this.toWallMs(f.startMs)),
      endMs: Math.round(this.toWallMs(f.endMs)),
      virtualStartMs: Math.round(f.startMs),
      virtualEndMs: Math.round(f.endMs),
      source: f.source,
      effect: FAULT_DEFAULTS[f.spec.kind].effect,
    };
  }

  /** Resets every effect and applies the faults active at `tMs`. */
  apply(fleet: Fleet, tMs: number): void {
    for (const c of fleet.components) c.fx = neutralEffects();
    for (const ep of fleet.endpoints) ep.azFactor.clear();
    for (const i of fleet.instances) {
      i.slowdown = 1;
      i.throttled = false;
      i.foreignMiBPerGpu = 0;
    }
    const replicaFx = new Map<Replica, { maxNumSeqs?: number; slowdown: number; http500: number; http503: number; abort: number }>();
    const rfx = (r: Replica) => {
      let x = replicaFx.get(r);
      if (x === undefined) replicaFx.set(r, (x = { slowdown: 1, http500: 0, http503: 0, abort: 0 }));
      return x;
    };
    for (const f of this.faults) {
      const active = tMs >= f.startMs && tMs < f.endMs;
      if (!active) {
        if (f.started && !f.ended && tMs >= f.endMs) this.finish(f, fleet, tMs);
        continue;
      }
      if (!f.started) this.begin(f, fleet);
      const s = f.spec.scope;
      const comps = fleet.components.filter((c) => componentInScope(c, s));
      const insts = fleet.instances.filter((i) => instanceInScope(i, s));
      const progress = Math.min(1, (tMs - f.startMs) / Math.max(1, f.endMs - f.startMs));
      switch (f.spec.kind) {
        case 'kv-cache-pressure':
        case 'prompt-length-shift':
          for (const c of comps) {
            c.fx.promptScale *= num(f, 'promptScale');
            c.fx.outputScale *= f.spec.kind === 'kv-cache-pressure' ? num(f, 'outputScale') : 1;
          }
          break;
        case 'az-traffic-skew':
          for (const ep of fleet.endpoints.filter((e) => s.endpoint === undefined || e.spec.name === s.endpoint)) {
            const cold = s.az ?? ep.spec.azs[0];
            const to = typeof f.spec.params?.toAz === 'string' ? f.spec.params.toAz : ep.spec.azs[(ep.spec.azs.indexOf(cold) + 1) % ep.spec.azs.length];
            const n = (az: string) => ep.instances.filter((i) => i.az === az).length;
            ep.azFactor.set(cold, 0);
            ep.azFactor.set(to, 1 + n(cold) / Math.max(1, n(to)));
          }
          break;
        case 'cold-start-storm':
        case 'rate-limit-burst':
          for (const c of comps) {
            c.fx.rateMultiplier *= num(f, 'rateMultiplier');
            if (f.spec.kind === 'cold-start-storm') c.fx.downloadMBps = num(f, 'downloadMBps');
            else c.fx.rateLimitPerSec = c.spec.router?.rateLimitPerSec ?? (num(f, 'rateLimitPerSec') || 1.5 * c.spec.load.ratePerSec);
          }
          break;
        case 'gpu-memory-saturation':
          for (const i of insts) i.foreignMiBPerGpu = Math.max(i.foreignMiBPerGpu, f.foreignTargetMiB * Math.min(1, (tMs - f.startMs) / num(f, 'rampMs')));
          break;
        case 'slow-instance':
          for (const i of insts) {
            i.slowdown = Math.max(i.slowdown, num(f, 'slowdown'));
            i.throttled = true;
          }
          break;
        case 'engine-errors':
          for (const r of fleet.replicas.filter((x) => replicaInScope(x, s))) {
            const x = rfx(r);
            x.http500 += num(f, 'http500');
            x.http503 += num(f, 'http503');
            x.abort += num(f, 'midStreamAbort');
          }
          break;
        case 'throughput-below-benchmark':
          for (const r of fleet.replicas.filter((x) => replicaInScope(x, s))) {
            const x = rfx(r);
            x.maxNumSeqs = Math.min(x.maxNumSeqs ?? Number.POSITIVE_INFINITY, num(f, 'maxNumSeqs'));
            x.slowdown *= num(f, 'slowdown');
          }
          break;
        case 'quality-drift':
          for (const c of comps) {
            c.fx.qualityDrop = Math.max(c.fx.qualityDrop, num(f, 'drop') * Math.min(1, progress * 2));
            c.fx.safetyDrop = Math.max(c.fx.safetyDrop, num(f, 'safetyDrop') * Math.min(1, progress * 2));
          }
          break;
      }
    }
    for (const r of fleet.replicas) {
      const x = replicaFx.get(r);
      r.limits.slowdown = r.instance.slowdown * (x?.slowdown ?? 1);
      r.limits.maxNumSeqs = Math.min(r.perf?.maxNumSeqs ?? 0, x?.maxNumSeqs ?? Number.POSITIVE_INFINITY);
      r.errors.http500 = x?.http500 ?? 0;
      r.errors.http503 = x?.http503 ?? 0;
      r.errors.midStreamAbort = x?.abort ?? 0;
    }
  }

  private begin(f: ActiveFault, fleet: Fleet): void {
    f.started = true;
    if (f.spec.kind !== 'gpu-memory-saturation') return;
    // The foreign allocation takes the headroom outside the engines' share plus kvShare of the
    // smallest KV cache on the instance.
    let target = Number.POSITIVE_INFINITY;
    for (const i of fleet.instances.filter((x) => instanceInScope(x, f.spec.scope))) {
      for (const r of i.replicas()) {
        const p = r.perf;
        if (p !== undefined) target = Math.min(target, i.type.gpu.memoryMiB * 0.98 - p.reservedMiBPerGpu + num(f, 'kvShare') * p.kvMiBPerGpu);
      }
    }
    f.foreignTargetMiB = Number.isFinite(target) ? target : 0;
  }

  private finish(f: ActiveFault, fleet: Fleet, tMs: number): void {
    f.ended = true;
    if (f.spec.kind !== 'gpu-memory-saturation') return;
    // The leaking process is killed; the health check restarts the engine to get its memory back.
    for (const i of fleet.instances.filter((x) => instanceInScope(x, f.spec.scope))) {
      for (const r of i.replicas()) if (r.ready) r.crash(tMs, 'restarted to reclaim GPU memory');
    }
  }
}

/**
 * The fleet at run time: endpoints, their instances across AZs, and the inference components whose
 * replicas sit on the instances' GPUs. Placement spreads a component's copies over AZs; a scale-out
 * that finds no free GPU launches an instance (up to the endpoint's maximum, else it counts an
 * insufficient-capacity error); instances left empty above the endpoint's minimum are terminated.
 */
import { LIFECYCLE_DURATION } from './buckets.js';
import { instanceType, type InstanceTypeSpec } from './data/instance-types.js';
import { modelSpec, type ModelSpec } from './data/models.js';
import { FrontDoor } from './frontdoor.js';
import { GpuState } from './gpu.js';
import { Histogram } from './histogram.js';
import { QualityState } from './quality.js';
import { LatencyTruth } from './latency-truth.js';
import { Replica } from './replica.js';
import type { Rng } from './rng.js';
import type { ComponentSpec, EndpointSpec, FleetSpec } from './spec.js';

/** What replicas ask of the fleet. */
export interface FleetContext {
  readonly containerStartMs: number;
  downloadMBps(r: Replica): number;
  replicaReady(r: Replica, tMs: number): void;
  replicaStopped(r: Replica, tMs: number): void;
  replicaFirstServed(r: Replica, tMs: number): void;
}

/** Fault effects on a component, reset and re-applied every tick. */
export interface ComponentEffects {
  rateMultiplier: number;
  promptScale: number;
  outputScale: number;
  http500: number;
  http503: number;
  midStreamAbort: number;
  qualityDrop: number;
  /** How far the judged safety score falls (0..1). */
  safetyDrop: number;
  downloadMBps: number | undefined;
  rateLimitPerSec: number | undefined;
}

/** No fault. */
export function neutralEffects(): ComponentEffects {
  return { rateMultiplier: 1, promptScale: 1, outputScale: 1, http500: 0, http503: 0, midStreamAbort: 0, qualityDrop: 0, safetyDrop: 0, downloadMBps: undefined, rateLimitPerSec: undefined };
}

/** The start durations the platform measured for one replica. */
export class ReplicaStartStats {
  readonly coldStart = new Histogram(LIFECYCLE_DURATION);
  readonly containerStart = new Histogram(LIFECYCLE_DURATION);
}

/**
 * Scaling and cold-start counts of one component (the platform exporter shows them). Start
 * durations are kept per replica for each replica created after the simulation began (the initial
 * fleet had no cold start in view), from its creation (so its histograms read 0 before its first
 * start ends and `increase()` sees the start) until it stops; `coldStart` and `containerStart`
 * are the component's totals over the run, stopped replicas included.
 */
export class PlatformStats {
  scaleOut = 0;
  scaleIn = 0;
  insufficientCapacity = 0;
  readonly scaleOutDuration = new Histogram(LIFECYCLE_DURATION);
  readonly scaleInDuration = new Histogram(LIFECYCLE_DURATION);
  readonly coldStart = new Histogram(LIFECYCLE_DURATION);
  readonly containerStart = new Histogram(LIFECYCLE_DURATION);
  /** Per replica, in creation order. */
  readonly starts = new Map<Replica, ReplicaStartStats>();
  /** Bumped when a replica is added to or removed from `starts` (the exposition is rebuilt). */
  version = 0;
}

/** One endpoint at run time. */
export class EndpointRuntime {
  readonly type: InstanceTypeSpec;
  readonly instances: Instance[] = [];
  readonly components: ComponentRuntime[] = [];
  nextInstanceNo = 1;
  /** Router weight factor per AZ (az-traffic-skew sets one to 0). */
  readonly azFactor = new Map<string, number>();

  /** Wraps an endpoint spec. */
  constructor(readonly spec: EndpointSpec) {
    this.type = instanceType(spec.instanceType);
  }
}

/** One instance: GPUs, the replicas on them, and what faults do to it. */
export class Instance {
  readonly gpus: GpuState[];
  readonly slots: (Replica | undefined)[];
  readonly cachedModels = new Set<string>();
  foreignMiBPerGpu = 0;
  slowdown = 1;
  throttled = false;
  terminated = false;

  /** An instance that becomes usable at `readyMs`. */
  constructor(
    readonly id: string,
    readonly endpoint: EndpointRuntime,
    readonly az: string,
    readonly hostname: string,
    readonly launchedMs: number,
    readonly readyMs: number,
    rng: Rng,
  ) {
    const t = endpoint.type;
    this.gpus = Array.from({ length: t.gpuCount }, (_, i) => {
      const u = rng.hex(32);
      const uuid = `GPU-${u.slice(0, 8)}-${u.slice(8, 12)}-${u.slice(12, 16)}-${u.slice(16, 20)}-${u.slice(20, 32)}`;
      return new GpuState(t.gpu, i, uuid, `00000000:${(0x10 + i).toString(16).toUpperCase().padStart(2, '0')}:00.0`);
    });
    this.slots = new Array<Replica | undefined>(t.gpuCount).fill(undefined);
  }

  /** The instance type. */
  get type(): InstanceTypeSpec {
    return this.endpoint.type;
  }

  /** `n` free GPU indices, or undefined. */
  freeGpus(n: number): number[] | undefined {
    const free: number[] = [];
    for (let i = 0; i < this.slots.length && free.length < n; i++) if (this.slots[i] === undefined) free.push(i);
    return free.length === n ? free : undefined;
  }

  /** The distinct replicas on this instance. */
  replicas(): Replica[] {
    return [...new Set(this.slots.filter((r): r is Replica => r !== undefined))];
  }
}

/** One inference component at run time. */
export class ComponentRuntime {
  readonly model: ModelSpec;
  readonly replicas: Replica[] = [];
  nextReplicaNo = 1;
  kvBudgetFactor = 1;
  fx: ComponentEffects = neutralEffects();
  readonly platform = new PlatformStats();
  readonly frontdoor: FrontDoor;
  /** The exact latencies behind its engines' and front door's histograms (tests' ground truth). */
  readonly truth = new LatencyTruth();
  readonly quality: QualityState;
  lastScaleOutMs = Number.NEGATIVE_INFINITY;
  lastScaleInMs = Number.NEGATIVE_INFINITY;

  /** Wraps a component spec. */
  constructor(
    readonly spec: ComponentSpec,
    readonly endpoint: EndpointRuntime,
    readonly ctx: FleetContext,
    rng: Rng,
  ) {
    this.model = modelSpec(spec.model);
    this.frontdoor = new FrontDoor(0.008 + rng.next() * 0.01, this.truth);
    this.quality = new QualityState(rng.fork('quality'));
  }

  /** Replicas not draining or stopped (ready or on their way). */
  get active(): Replica[] {
    return this.replicas.filter((r) => r.phase !== 'draining' && r.phase !== 'stopped');
  }
}

/** The fleet: building it, placing and removing replicas, lifecycle callbacks. */
export class Fleet implements FleetContext {
  readonly endpoints: EndpointRuntime[] = [];
  readonly components: ComponentRuntime[] = [];
  readonly containerStartMs: number;
  private readonly launchMs: number;
  private readonly downloadDefault: number;
  /** Bumped whenever targets appear or disappear (file_sd must be rewritten). */
  version = 0;

  /** Builds the fleet as it stands at `startMs`: instances up, initial replicas warm. */
  constructor(
    spec: FleetSpec,
    private readonly rng: Rng,
    startMs: number,
  ) {
    this.containerStartMs = spec.containerStartMs ?? 20_000;
    this.launchMs = spec.instanceLaunchMs ?? 240_000;
    this.downloadDefault = spec.downloadMBps ?? 150;
    for (const es of spec.endpoints) {
      const ep = new EndpointRuntime(es);
      this.endpoints.push(ep);
      for (let i = 0; i < es.instances.initial; i++) this.launch(ep, es.azs[i % es.azs.length], startMs, startMs);
      for (const cs of es.components) {
        const c = new ComponentRuntime(cs, ep, this, rng.fork(`component/${cs.name}`));
        ep.components.push(c);
        this.components.push(c);
        for (let i = 0; i < cs.copies.initial; i++) this.addReplica(c, startMs, true)?.bootReady(startMs);
      }
    }
  }

  /** Every instance not terminated. */
  get instances(): Instance[] {
    return this.endpoints.flatMap((e) => e.instances);
  }

  /** Every replica not stopped. */
  get replicas(): Replica[] {
    return this.components.flatMap((c) => c.replicas);
  }

  private launch(ep: EndpointRuntime, az: string, nowMs: number, readyMs: number): Instance {
    const n = ep.nextInstanceNo++;
    const azNo = Math.max(0, ep.spec.azs.indexOf(az));
    const host = `ip-10-${azNo}-${(n >> 8) & 255}-${n & 255}`;
    const inst = new Instance(`${ep.spec.name}-i${n}`, ep, az, host, nowMs, readyMs, this.rng.fork(`instance/${ep.spec.name}/${n}`));
    ep.instances.push(inst);
    this.version++;
    return inst;
  }

  /** Places a new replica of `c` (launching an instance if needed); undefined when no capacity. */
  addReplica(c: ComponentRuntime, tMs: number, initial = false): Replica | undefined {
    const ep = c.endpoint;
    const perAz = new Map<string, number>(ep.spec.azs.map((az) => [az, 0]));
    for (const r of c.active) perAz.set(r.instance.az, (perAz.get(r.instance.az) ?? 0) + 1);
    const azs = [...ep.spec.azs].sort((a, b) => perAz.get(a)! - perAz.get(b)! || ep.spec.azs.indexOf(a) - ep.spec.azs.indexOf(b));
    let inst: Instance | undefined;
    let gpus: number[] | undefined;
    for (const az of azs) {
      for (const i of ep.instances) {
        if (i.az !== az) continue;
        gpus = i.freeGpus(c.spec.gpusPerCopy);
        if (gpus !== undefined) {
          inst = i;
          break;
        }
      }
      if (inst !== undefined) break;
    }
    if (inst === undefined) {
      if (ep.instances.length >= ep.spec.instances.max || c.spec.gpusPerCopy > ep.type.gpuCount) {
        c.platform.insufficientCapacity++;
        return undefined;
      }
      inst = this.launch(ep, azs[0], tMs, initial ? tMs : tMs + this.launchMs);
      gpus = inst.freeGpus(c.spec.gpusPerCopy)!;
    }
    const n = c.nextReplicaNo++;
    const r = new Replica(`${c.spec.name}-r${n}`, c, inst, gpus!, tMs, this.rng.fork(`replica/${c.spec.name}/${n}`));
    r.initial = initial;
    if (!initial) {
      c.platform.starts.set(r, new ReplicaStartStats());
      c.platform.version++;
    }
    for (const g of gpus!) inst.slots[g] = r;
    c.replicas.push(r);
    this.version++;
    return r;
  }

  /** Drains one replica of `c` (one still on its first start, else the newest); false when none. */
  removeReplica(c: ComponentRuntime, tMs: number): boolean {
    const act = c.active;
    const victim = act.find((r) => r.readyMs < 0) ?? act[act.length - 1];
    if (victim === undefined) return false;
    victim.scaleInDecisionMs = tMs;
    victim.drain(tMs);
    return true;
  }

  /** Implements `FleetContext`. */
  downloadMBps(r: Replica): number {
    return r.component.fx.downloadMBps ?? this.downloadDefault;
  }

  /** Implements `FleetContext`. */
  replicaReady(r: Replica, tMs: number): void {
    if (r.initial) return;
    const p = r.component.platform;
    const s = (tMs - r.containerStartMs) / 1000;
    p.containerStart.observe(s);
    p.starts.get(r)?.containerStart.observe(s);
    if (r.scaleOutDecisionMs >= 0) p.scaleOutDuration.observe((tMs - r.scaleOutDecisionMs) / 1000);
  }

  /** Implements `FleetContext`. */
  replicaFirstServed(r: Replica, tMs: number): void {
    if (r.initial) return;
    const p = r.component.platform;
    const s = (tMs - r.createdMs) / 1000;
    p.coldStart.observe(s);
    p.starts.get(r)?.coldStart.observe(s);
  }

  /** Implements `FleetContext`: frees the GPUs, terminates the instance when empty and above the minimum. */
  replicaStopped(r: Replica, tMs: number): void {
    const c = r.component;
    if (r.scaleInDecisionMs >= 0) c.platform.scaleInDuration.observe((tMs - r.scaleInDecisionMs) / 1000);
    if (c.platform.starts.delete(r)) c.platform.version++;
    c.frontdoor.retire(r);
    c.replicas.splice(c.replicas.indexOf(r), 1);
    const inst = r.instance;
    for (let i = 0; i < inst.slots.length; i++) if (inst.slots[i] === r) inst.slots[i] = undefined;
    const ep = inst.endpoint;
    if (inst.slots.every((s) => s === undefined) && ep.instances.length > ep.spec.instances.initial) {
      inst.terminated = true;
      ep.instances.splice(ep.instances.indexOf(inst), 1);
    }
    this.version++;
  }
}

/**
 * The simulation loop in virtual time. Every tick applies the faults, lets the autoscalers act,
 * generates each component's arrivals and routes them, advances every replica's lifecycle and
 * engine, and moves the GPUs and quality exporters. Nothing here reads the wall clock: the caller
 * advances time (`advanceTo`), as fast as it likes (tests) or paced by real time (start.ts).
 */
import type { UnixMs } from '../model/index.js';
import { Autoscaler } from './autoscaler.js';
import { FaultTimeline, type GroundTruthEntry } from './faults.js';
import { Fleet, type ComponentRuntime, type Instance } from './fleet.js';
import type { GpuWork } from './gpu.js';
import { LoadGenerator, drawLength, type Arrival } from './load.js';
import type { Replica } from './replica.js';
import { SimRequest, type RequestListener } from './request.js';
import { Rng } from './rng.js';
import { Router } from './router.js';
import type { FaultSpec, ScenarioSpec } from './spec.js';

/** Options of `new Simulation`. */
export interface SimulationOptions {
  readonly scenario: ScenarioSpec;
  readonly seed: number;
  /** Virtual time at the start (also the base of the scenario's fault offsets). */
  readonly startMs: UnixMs;
  /** Tick length in virtual ms (default 1000). */
  readonly tickMs?: number;
  /** Maps virtual time to wall-clock time for the ground truth (default identity). */
  readonly toWallMs?: (virtualMs: number) => UnixMs;
}

/** What a caller asks of one request (the OpenAI-compatible handlers). */
export interface RequestParams {
  readonly promptTokens: number;
  readonly maxTokens: number;
  /** Tokens the model will produce before it stops; drawn from the component's distribution when omitted. */
  readonly outputTokens?: number;
}

/** Per replica: the engine counters already attributed to GPU ticks, and busy time still to attribute. */
interface GpuAccount {
  stats: unknown;
  busyS: number;
  computeS: number;
  memoryS: number;
  carryS: number;
  /** Compute-bound share of the busy time still being attributed. */
  computeShare: number;
}

/** A running simulated fleet. */
export class Simulation {
  readonly fleet: Fleet;
  readonly faults: FaultTimeline;
  readonly startMs: UnixMs;
  /**
   * Tick length in virtual ms. A history replay runs whole-second ticks and the live run that
   * continues it may shorten them (start.ts `goLive`); a tick already run is never split.
   */
  tickMs: number;
  /**
   * Virtual seconds per wall-clock second right now: 1 in manual mode and during a history
   * replay, the run's `speed` once it is live. Exporters that state a rate for comparison with
   * scraped rates (the benchmark throughput gauge) scale by it, because a scraper stamps samples
   * with wall-clock time: at speed N every scraped rate is N times the rate per simulated second.
   */
  speed = 1;
  /** The virtual time all ticks have reached. */
  nowMs: number;
  /**
   * Takes generated arrivals away from the simulated front door: when it returns true, the arrival
   * is not routed internally (`infersight demo` sends a share of them through the real gateway as
   * HTTP requests, which reach the replicas' own endpoints).
   */
  divertArrival: ((c: ComponentRuntime, a: Arrival) => boolean) | undefined;
  private readonly loads = new Map<ComponentRuntime, LoadGenerator>();
  private readonly routers = new Map<ComponentRuntime, Router>();
  private readonly autoscalers: Autoscaler[] = [];
  private readonly accounts = new WeakMap<Replica, GpuAccount>();
  private readonly rng: Rng;
  private nextRequestId = 1;
  private readonly work: GpuWork = { busyS: 0, computeS: 0, memoryS: 0, engineMiB: 0, foreignMiB: 0, loadingWeights: false, tensorParallel: false, throttled: false };

  /** Builds the fleet of `scenario` at `startMs` and schedules its faults. */
  constructor(readonly opts: SimulationOptions) {
    this.rng = new Rng(opts.seed);
    this.startMs = opts.startMs;
    this.nowMs = opts.startMs;
    this.tickMs = opts.tickMs ?? 1000;
    this.fleet = new Fleet(opts.scenario.fleet, this.rng.fork('fleet'), opts.startMs);
    this.faults = new FaultTimeline(opts.toWallMs ?? ((t) => t));
    for (const f of opts.scenario.faults) this.faults.add(f, opts.startMs, 'scenario');
    for (const c of this.fleet.components) {
      this.loads.set(c, new LoadGenerator(c.spec.load, this.rng.fork(`load/${c.spec.name}`), opts.startMs));
      this.routers.set(c, new Router(c, this.rng.fork(`router/${c.spec.name}`), opts.startMs));
      if (c.spec.autoscaling !== undefined) this.autoscalers.push(new Autoscaler(c, c.spec.autoscaling, opts.startMs));
    }
  }

  /** Runs ticks until virtual time reaches `tMs` (whole ticks only; the remainder waits for the next call). */
  advanceTo(tMs: number): void {
    while (this.nowMs + this.tickMs <= tMs) this.tick(this.nowMs, this.nowMs + this.tickMs);
  }

  /** Adds a fault that starts `spec.startMs` after now (virtual) and returns its ground-truth entry. */
  injectFault(spec: FaultSpec): GroundTruthEntry {
    return this.faults.add(spec, this.nowMs, 'injected');
  }

  /**
   * Clears fault `id` now (scenario or injected) and re-applies the timeline at once, so that its
   * effects are gone before the next tick; undefined when there is no such fault.
   */
  clearFault(id: number): GroundTruthEntry | undefined {
    const entry = this.faults.clear(id, this.nowMs);
    if (entry !== undefined) this.faults.apply(this.fleet, this.nowMs);
    return entry;
  }

  /** Every fault of the run: kind, scope, start and end. */
  groundTruth(): GroundTruthEntry[] {
    return this.faults.groundTruth();
  }

  /** Finds a component by name. */
  component(name: string): ComponentRuntime | undefined {
    return this.fleet.components.find((c) => c.spec.name === name || c.model.name === name);
  }

  /**
   * Sends a request through a component's front door and router (`replicaId` given: straight to
   * that replica, as a client or gateway calling the container would, bypassing the simulated
   * front door, which then neither counts nor limits it). Arrives at the current virtual time;
   * the listener hears its tokens and end as the simulation advances. Refusals end it at once.
   */
  submit(component: ComponentRuntime, p: RequestParams, listener: RequestListener | undefined, replicaId?: string): SimRequest {
    const rng = this.rng;
    const outputTokens = Math.min(p.maxTokens, p.outputTokens ?? drawLength(component.spec.load.output, rng));
    const r = new SimRequest(this.nextRequestId++, this.nowMs, p.promptTokens, 0, outputTokens, p.maxTokens);
    r.listener = listener;
    const fd = component.frontdoor;
    const target = replicaId === undefined ? this.routers.get(component)!.route(this.nowMs) : component.replicas.find((x) => x.id === replicaId);
    if (typeof target === 'number' || target === undefined) {
      const status = target ?? 503;
      fd.refused(status);
      listener?.onEnd({ kind: 'rejected', status, message: status === 429 ? 'Too many requests' : 'No replica is ready' }, this.nowMs);
      return r;
    }
    if (replicaId === undefined) fd.admitted(r, target);
    target.accept(r);
    return r;
  }

  private tick(t0: number, t1: number): void {
    const fleet = this.fleet;
    this.faults.apply(fleet, t0);
    for (const inst of fleet.instances) if (inst.foreignMiBPerGpu > 0) this.checkMemory(inst, t0);
    for (const a of this.autoscalers) a.tick(t0, fleet);
    for (const c of fleet.components) this.arrivals(c, t0, t1);
    for (const r of [...fleet.replicas]) r.advance(t1);
    const dtS = (t1 - t0) / 1000;
    for (const inst of fleet.instances) this.updateGpus(inst, t1, dtS);
    for (const c of fleet.components) c.quality.update(dtS, c.frontdoor.takeCompleted(), c.fx.qualityDrop, c.fx.safetyDrop);
    this.nowMs = t1;
  }

  private arrivals(c: ComponentRuntime, t0: number, t1: number): void {
    const fx = c.fx;
    const list = this.loads.get(c)!.generate(t0, t1, fx);
    if (list.length === 0) return;
    const router = this.routers.get(c)!;
    const fd = c.frontdoor;
    for (const a of list) {
      if (this.divertArrival?.(c, a) === true) continue;
      const target = router.route(a.arrivalMs);
      if (typeof target === 'number') {
        fd.refused(target);
        continue;
      }
      const r = new SimRequest(this.nextRequestId++, a.arrivalMs, a.promptTokens, a.cachedTokens, a.outputTokens, a.maxTokens);
      fd.admitted(r, target);
      target.accept(r);
    }
  }

  /** CUDA OOM: an engine whose memory no longer fits beside a foreign allocation crashes. */
  private checkMemory(inst: Instance, tMs: number): void {
    const usable = inst.type.gpu.memoryMiB * 0.98;
    // Engines started beside the allocation sized themselves to fit; only growth beyond that crashes them.
    for (const r of inst.replicas()) {
      if (r.ready && r.fbUsedMiB(tMs) + inst.foreignMiBPerGpu > usable) r.crash(tMs, 'CUDA error: out of memory');
    }
  }

  private updateGpus(inst: Instance, tMs: number, dtS: number): void {
    const w = this.work;
    for (const gpu of inst.gpus) {
      const r = inst.slots[gpu.index];
      w.busyS = w.computeS = w.memoryS = w.engineMiB = 0;
      w.loadingWeights = false;
      w.tensorParallel = false;
      if (r !== undefined) {
        const s = r.stats;
        let acc = this.accounts.get(r);
        if (acc === undefined) this.accounts.set(r, (acc = { stats: undefined, busyS: 0, computeS: 0, memoryS: 0, carryS: 0, computeShare: 0 }));
        if (acc.stats !== s) Object.assign(acc, { stats: s, busyS: 0, computeS: 0, memoryS: 0, carryS: 0, computeShare: 0 });
        if (s !== undefined) {
          // A step longer than a tick (a big prefill) keeps the GPU busy into the next ticks.
          const busy = s.busyS - acc.busyS + acc.carryS;
          w.busyS = Math.min(dtS, busy);
          const dc = s.computeS - acc.computeS;
          const dm = s.memoryS - acc.memoryS;
          const computeShare = dc + dm > 0 ? dc / (dc + dm) : acc.computeShare;
          w.computeS = w.busyS * computeShare;
          w.memoryS = w.busyS - w.computeS;
          if (gpu.index === r.gpuIndices[r.gpuIndices.length - 1]) Object.assign(acc, { busyS: s.busyS, computeS: s.computeS, memoryS: s.memoryS, carryS: busy - w.busyS, computeShare });
        }
        w.engineMiB = r.fbUsedMiB(tMs);
        w.loadingWeights = r.loadingWeights(tMs);
        w.tensorParallel = r.gpuIndices.length > 1;
      }
      w.foreignMiB = inst.foreignMiBPerGpu;
      w.throttled = inst.throttled;
      gpu.update(dtS, w);
    }
  }
}

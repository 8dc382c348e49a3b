/**
 * The scrape targets of a simulated fleet: one per replica (its engine's native exposition), one
 * DCGM exporter per instance, and a front door, platform and quality exporter per component. All
 * share one HTTP listener, each under `/targets/<id>/metrics`; identity (endpoint, component,
 * model, replica, instance, instance_type, az, gpu, job) travels as file_sd target labels, as a
 * real deployment's service discovery would attach it, never inside the engine's metrics.
 *
 * There is no `engine` target label: vLLM exposes its own `engine` label (the data-parallel rank),
 * which a target label would push aside as `exported_engine`. The `job` (`vllm`, `sglang`,
 * `djl-lmi`, `dcgm-exporter`) names the engine, which is also the normalizer's hint for DJL's
 * generic names; the normalizer then sets `engine` on the unified series.
 *
 * The front door and the platform exporter are different: one target per component that speaks
 * for the replicas behind it, so a series about one replica (a routed request, a replica's start)
 * carries that replica's identity itself (expose-aux.ts). Scraped with `honor_labels: true`
 * (`HONOR_LABELS_JOBS`), those exposed labels win; without it the target's `instance` would push
 * the replica's aside as `exported_instance`. Every component target sets `instance` to its own id
 * (`frontdoor-<component>`), so the component-level series name their exporter, not `host:port`.
 */
import { djlFamilies } from './expose-djl.js';
import { dcgmFamilies } from './expose-dcgm.js';
import { frontdoorFamilies, platformFamilies, qualityFamilies } from './expose-aux.js';
import { sglangFamilies } from './expose-sglang.js';
import { vllmFamilies } from './expose-vllm.js';
import type { FamilySet } from './families.js';
import type { ComponentRuntime, Instance } from './fleet.js';
import type { Replica } from './replica.js';
import type { Simulation } from './simulation.js';
import type { EngineKind } from './spec.js';

/** What a target is. */
export type TargetKind = 'engine' | 'dcgm' | 'frontdoor' | 'platform' | 'quality';

/** One scrape target of the simulated fleet. */
export interface SimTarget {
  readonly id: string;
  readonly kind: TargetKind;
  /** Target labels for file_sd (`job` included; `__metrics_path__` is added by `fileSdGroups`). */
  readonly labels: Readonly<Record<string, string>>;
  /** Whether the exporter negotiates OpenMetrics (DCGM's exporter does not). */
  readonly openMetrics: boolean;
  /** False while the process is not serving (scrapes get 503). */
  available(): boolean;
  /** The exposition; call only when `available()`. */
  families(): FamilySet;
  /** The replica behind an engine target. */
  readonly replica?: Replica;
  readonly component?: ComponentRuntime;
}

/**
 * The jobs whose series carry the identity of the replica they are about, to be scraped with
 * `honor_labels: true` (a Prometheus job of their own: `demoScrapeConfig` in src/server/demo.ts,
 * docs/sim.md); every other target is scraped without it.
 */
export const HONOR_LABELS_JOBS: readonly string[] = ['sim-frontdoor', 'sim-platform'];

const JOB: Readonly<Record<EngineKind, string>> = { vllm: 'vllm', sglang: 'sglang', djl: 'djl-lmi' };

function replicaTarget(r: Replica, sim: Simulation): SimTarget {
  const c = r.component;
  let built: { stats: unknown; fs: FamilySet } | undefined;
  return {
    id: `replica-${r.id}`,
    kind: 'engine',
    replica: r,
    component: c,
    openMetrics: true,
    labels: {
      job: JOB[c.spec.engine],
      endpoint: c.endpoint.spec.name,
      component: c.spec.name,
      model: c.model.name,
      replica: r.id,
      instance: r.instance.id,
      instance_type: r.instance.type.name,
      az: r.instance.az,
      gpu: r.gpuIndices.join(','),
    },
    available: () => r.up && r.stats !== undefined,
    families: () => {
      // A restarted process has new counters and maybe a new KV size: rebuild.
      if (built === undefined || built.stats !== r.stats) {
        const e = c.spec.engine;
        built = { stats: r.stats, fs: e === 'vllm' ? vllmFamilies(r) : e === 'sglang' ? sglangFamilies(r, () => sim.nowMs) : djlFamilies(r) };
      }
      return built.fs;
    },
  };
}

function instanceTarget(i: Instance, sim: Simulation): SimTarget {
  const fs = dcgmFamilies(i);
  return {
    id: `dcgm-${i.id}`,
    kind: 'dcgm',
    openMetrics: false,
    labels: { job: 'dcgm-exporter', endpoint: i.endpoint.spec.name, instance: i.id, instance_type: i.type.name, az: i.az },
    available: () => !i.terminated && i.readyMs <= sim.nowMs,
    families: () => fs,
  };
}

function componentTarget(c: ComponentRuntime, kind: 'frontdoor' | 'platform' | 'quality', sim: Simulation): SimTarget {
  const id = `${kind}-${c.spec.name}`;
  const build = (): FamilySet => (kind === 'frontdoor' ? frontdoorFamilies(c) : kind === 'platform' ? platformFamilies(c, () => sim.nowMs) : qualityFamilies(c));
  // The front door's routes and the platform's started replicas come and go: rebuild on a change.
  const version = (): number => (kind === 'frontdoor' ? c.frontdoor.version : kind === 'platform' ? c.platform.version : 0);
  let built = { version: version(), fs: build() };
  return {
    id,
    kind,
    component: c,
    openMetrics: true,
    // `instance` names the exporter itself (not `host:port`, and never a fleet instance: the series
    // about one replica carry its instance themselves). The platform's benchmark gauge is keyed by
    // model and instance type, so its target names the type.
    labels: {
      job: `sim-${kind}`,
      instance: id,
      endpoint: c.endpoint.spec.name,
      component: c.spec.name,
      model: c.model.name,
      ...(kind === 'platform' ? { instance_type: c.endpoint.type.name } : {}),
    },
    available: () => true,
    families: () => {
      if (built.version !== version()) built = { version: version(), fs: build() };
      return built.fs;
    },
  };
}

/** The live set of targets, kept in step with the fleet. */
export class TargetRegistry {
  private readonly byId = new Map<string, SimTarget>();
  private readonly byObject = new Map<object, SimTarget[]>();
  private seenVersion = -1;
  /** Bumped when targets are added or removed. */
  version = 0;

  /** Targets of `sim`'s fleet; call `sync` after the fleet changes. */
  constructor(private readonly sim: Simulation) {
    for (const c of sim.fleet.components) this.put(c, [componentTarget(c, 'frontdoor', sim), componentTarget(c, 'platform', sim), componentTarget(c, 'quality', sim)]);
    this.sync();
  }

  private put(owner: object, ts: SimTarget[]): void {
    this.byObject.set(owner, ts);
    for (const t of ts) this.byId.set(t.id, t);
    this.version++;
  }

  /** Adds targets for new replicas and instances, drops those of stopped ones. */
  sync(): void {
    const fleet = this.sim.fleet;
    if (fleet.version === this.seenVersion) return;
    this.seenVersion = fleet.version;
    const live = new Set<object>([...fleet.components, ...fleet.replicas, ...fleet.instances]);
    for (const [owner, ts] of this.byObject) {
      if (live.has(owner)) continue;
      this.byObject.delete(owner);
      for (const t of ts) this.byId.delete(t.id);
      this.version++;
    }
    for (const i of fleet.instances) if (!this.byObject.has(i)) this.put(i, [instanceTarget(i, this.sim)]);
    for (const r of fleet.replicas) if (!this.byObject.has(r)) this.put(r, [replicaTarget(r, this.sim)]);
  }

  /** A target by id. */
  get(id: string): SimTarget | undefined {
    return this.byId.get(id);
  }

  /** Every target, sorted by id. */
  list(): SimTarget[] {
    return [...this.byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}

/** A Prometheus file_sd target group. */
export interface FileSdGroup {
  targets: string[];
  labels: Record<string, string>;
}

/** The file_sd target groups for `targets` served at `address` (`host:port`), one group per target. */
export function fileSdGroups(targets: readonly SimTarget[], address: string): FileSdGroup[] {
  return targets.map((t) => ({ targets: [address], labels: { __metrics_path__: `/targets/${t.id}/metrics`, ...t.labels } }));
}

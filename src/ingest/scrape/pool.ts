import type { ScrapeConfig } from './config.js';
import type { TargetGroup } from '../../config/index.js';
import { ScrapeLoop, type ScrapeLoopDeps } from './loop.js';
import { targetsFromGroup, type Target } from './target.js';

/**
 * The targets and scrape loops of one job (Prometheus' `scrapePool`). Service discovery hands it
 * target groups per provider; every change recomputes the targets, starts loops for new ones and
 * stops the loops of vanished ones (with end-of-run staleness markers).
 */
export class ScrapePool {
  private readonly loops = new Map<bigint, ScrapeLoop>();
  /** Stopped loops still waiting to write their end-of-run staleness markers. */
  private readonly retiring = new Set<ScrapeLoop>();
  private readonly started = new WeakSet<ScrapeLoop>();
  private dropped: Target[] = [];
  private readonly groups = new Map<string, readonly TargetGroup[]>();

  constructor(
    private cfg: ScrapeConfig,
    private readonly deps: ScrapeLoopDeps,
  ) {}

  /** The job's current configuration. */
  get config(): ScrapeConfig {
    return this.cfg;
  }

  /** Replaces the groups of provider `providerId` and syncs the loops. */
  setGroups(providerId: string, groups: readonly TargetGroup[]): void {
    this.groups.set(providerId, groups);
    this.sync();
  }

  /**
   * Applies a changed job configuration with the complete new set of groups: every loop restarts
   * with the new settings; a target that stays hands its staleness state to its new loop, so no
   * markers are written for it and vanished series are still marked stale.
   */
  reload(cfg: ScrapeConfig, groups: ReadonlyMap<string, readonly TargetGroup[]>): void {
    this.cfg = cfg;
    this.groups.clear();
    for (const [id, g] of groups) this.groups.set(id, g);
    const { targets, dropped } = this.computeTargets();
    this.dropped = dropped;
    for (const [hash, old] of this.loops) {
      if (targets.has(hash)) {
        old.stop(false);
        old.cache.resetLabels();
        this.loops.set(hash, new ScrapeLoop(targets.get(hash) as Target, cfg, this.deps, old.cache));
      } else {
        this.retire(hash, old);
      }
    }
    this.startNew(targets);
  }

  private retire(hash: bigint, loop: ScrapeLoop): void {
    loop.stop(true);
    this.loops.delete(hash);
    for (const r of this.retiring) if (!r.staleMarkersPending) this.retiring.delete(r);
    if (loop.staleMarkersPending) this.retiring.add(loop);
  }

  private computeTargets(): { targets: Map<bigint, Target>; dropped: Target[] } {
    const targets = new Map<bigint, Target>();
    const dropped: Target[] = [];
    for (const groups of this.groups.values()) {
      for (const g of groups) {
        const r = targetsFromGroup(g, this.cfg);
        for (const err of r.errors) this.deps.logger.error('creating target failed', { scrape_pool: this.cfg.jobName, err });
        for (const t of r.targets) if (!targets.has(t.hash())) targets.set(t.hash(), t);
        dropped.push(...r.dropped);
      }
    }
    return { targets, dropped };
  }

  private startNew(targets: Map<bigint, Target>): void {
    for (const [hash, t] of targets) {
      if (this.loops.has(hash)) continue;
      const loop = new ScrapeLoop(t, this.cfg, this.deps);
      this.loops.set(hash, loop);
    }
    const limit = this.cfg.targetLimit;
    const forced = limit > 0 && this.loops.size > limit ? `target_limit exceeded (number of targets: ${this.loops.size}, limit: ${limit})` : undefined;
    for (const loop of this.loops.values()) loop.forcedError = forced;
    for (const loop of this.loops.values()) {
      if (this.started.has(loop)) continue;
      this.started.add(loop);
      loop.start();
    }
  }

  private sync(): void {
    const { targets, dropped } = this.computeTargets();
    this.dropped = dropped;
    for (const [hash, loop] of this.loops) {
      if (!targets.has(hash)) this.retire(hash, loop);
    }
    this.startNew(targets);
  }

  /** Stops every loop: with end-of-run staleness when the job goes away, without at shutdown. */
  stop(staleness: boolean): void {
    for (const [hash, loop] of this.loops) {
      if (staleness) this.retire(hash, loop);
      else loop.stop(false);
    }
    this.loops.clear();
    if (!staleness) {
      for (const r of this.retiring) r.cancelStaleness();
      this.retiring.clear();
    }
  }

  /** True while a stopped loop still waits to write its end-of-run staleness markers. */
  get staleMarkersPending(): boolean {
    for (const r of this.retiring) if (r.staleMarkersPending) return true;
    return false;
  }

  /** The active targets, sorted by their labels. */
  activeTargets(): Target[] {
    return [...this.loops.values()].map((l) => l.target).sort((a, b) => a.labels.compare(b.labels));
  }

  /** Targets that relabeling dropped. */
  droppedTargets(): readonly Target[] {
    return this.dropped;
  }

  /** The loops, for tests and for waiting on scrapes in flight. */
  scrapeLoops(): ScrapeLoop[] {
    return [...this.loops.values()];
  }
}

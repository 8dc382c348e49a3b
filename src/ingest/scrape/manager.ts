import fsp from 'node:fs/promises';
import { Labels, systemClock, type Clock, type Logger } from '../../model/index.js';
import type { Appendable } from '../../storage/index.js';
import type { ScrapeConfig, ScrapeConfigFile } from './config.js';
import { type FileSdFs, FileSdProvider, nodeFileSdFs, nodeWatchDirs, type ReadTextFile, type TargetGroup, type WatchDirs } from '../../config/index.js';
import type { ScrapeLoopDeps } from './loop.js';
import { ScrapePool } from './pool.js';
import { httpScrapeFetch, type ScrapeFetch } from './scrape-http.js';
import { fnv64a } from './target.js';
import { systemTimers, type Timers } from './timers.js';

/** What a `ScrapeManager` is built from; everything but the appendable and logger has a production default. */
export interface ScrapeManagerOptions {
  readonly appendable: Appendable;
  readonly logger: Logger;
  readonly clock?: Clock;
  readonly timers?: Timers;
  readonly fetch?: ScrapeFetch;
  /** Reads credential and TLS files. */
  readonly readFile?: ReadTextFile;
  readonly fileSdFs?: FileSdFs;
  readonly watchDirs?: WatchDirs;
  /** With the external labels, seeds the per-target scrape phase (Prometheus' jitter seed). */
  readonly hostname?: string;
  readonly userAgent?: string;
  /** A turn of the event loop between pieces of a body (`ScrapeLoopDeps.yieldTurn`). */
  readonly yieldTurn?: () => Promise<void>;
}

interface Job {
  pool: ScrapePool;
  providers: FileSdProvider[];
  fingerprint: string;
}

/** A stable text of a job's configuration, to tell whether a reload changed it. */
function configFingerprint(cfg: ScrapeConfig): string {
  return JSON.stringify(cfg, (_k, v: unknown) => (v instanceof Labels ? v.flat() : v instanceof RegExp ? v.source : v));
}

/**
 * Runs the scrape pools of a configuration (Prometheus' scrape and discovery managers in one):
 * `applyConfig` starts, restarts (only jobs whose configuration changed) and stops jobs; static
 * targets and file_sd files feed each job's pool.
 */
export class ScrapeManager {
  private readonly jobs = new Map<string, Job>();
  /** Pools of removed jobs, until shutdown cancels their pending staleness markers. */
  private readonly retired = new Set<ScrapePool>();
  private current: ScrapeConfigFile | undefined;
  private readonly deps: Omit<ScrapeLoopDeps, 'jitterSeed'> & { jitterSeed: bigint };
  private chain: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly o: ScrapeManagerOptions) {
    this.deps = {
      appendable: o.appendable,
      fetch: o.fetch ?? httpScrapeFetch,
      timers: o.timers ?? systemTimers,
      clock: o.clock ?? systemClock,
      logger: o.logger,
      readFile: o.readFile ?? ((f) => fsp.readFile(f, 'utf8')),
      jitterSeed: 0n,
      userAgent: o.userAgent ?? 'Infersight',
      yieldTurn: o.yieldTurn,
    };
  }

  /** The configuration applied last; undefined before the first. */
  get config(): ScrapeConfigFile | undefined {
    return this.current;
  }

  /** Applies a (validated) configuration; calls are serialized. Resolves once every job has its first targets. */
  applyConfig(cfg: ScrapeConfigFile): Promise<void> {
    const next = this.chain.then(() => this.apply(cfg));
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async apply(cfg: ScrapeConfigFile): Promise<void> {
    if (this.stopped) return;
    this.deps.jitterSeed = fnv64a(`${this.o.hostname ?? ''}${cfg.global.externalLabels.key()}`);
    const wanted = new Set(cfg.scrapeConfigs.map((s) => s.jobName));
    for (const [name, job] of this.jobs) {
      if (wanted.has(name)) continue;
      for (const p of job.providers) p.stop();
      job.pool.stop(true);
      for (const p of this.retired) if (!p.staleMarkersPending) this.retired.delete(p);
      this.retired.add(job.pool);
      this.jobs.delete(name);
    }
    for (const sc of cfg.scrapeConfigs) {
      const fp = configFingerprint(sc);
      const old = this.jobs.get(sc.jobName);
      if (old !== undefined && old.fingerprint === fp) continue;
      const providers = sc.fileSdConfigs.map(
        (f) => new FileSdProvider(f, { fs: this.o.fileSdFs ?? nodeFileSdFs, timers: this.deps.timers, logger: this.o.logger, watch: this.o.watchDirs ?? nodeWatchDirs }),
      );
      const groups = new Map<string, readonly TargetGroup[]>([['static', sc.staticConfigs]]);
      const initial = await Promise.all(providers.map((p) => p.refresh()));
      initial.forEach((g, i) => groups.set(`file_sd/${i}`, g));
      if (this.stopped) return;
      let pool: ScrapePool;
      if (old !== undefined) {
        for (const p of old.providers) p.stop();
        old.pool.reload(sc, groups);
        pool = old.pool;
      } else {
        pool = new ScrapePool(sc, this.deps);
        for (const [id, g] of groups) pool.setGroups(id, g);
      }
      providers.forEach((p, i) => p.start(initial[i], (g) => pool.setGroups(`file_sd/${i}`, g)));
      this.jobs.set(sc.jobName, { pool, providers, fingerprint: fp });
    }
    this.current = cfg;
  }

  /** The scrape pools by job name, sorted by name. */
  pools(): [string, ScrapePool][] {
    return [...this.jobs].map(([name, j]): [string, ScrapePool] => [name, j.pool]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  /** Resolves when no scrape is in flight (tests; a clean shutdown). */
  async settled(): Promise<void> {
    await this.chain;
    for (const [, pool] of this.pools()) for (const loop of pool.scrapeLoops()) await loop.settled();
  }

  /**
   * Stops everything without writing staleness markers (shutdown: the next start carries on);
   * resolves once scrapes that were already committing have finished.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    const loops = [...this.jobs.values()].flatMap((j) => j.pool.scrapeLoops());
    for (const job of this.jobs.values()) {
      for (const p of job.providers) p.stop();
      job.pool.stop(false);
    }
    this.jobs.clear();
    for (const pool of this.retired) pool.stop(false);
    this.retired.clear();
    for (const loop of loops) await loop.settled();
  }
}

import path from 'node:path';
import { Labels, type Logger, type Timers } from '../../model/index.js';
import { FileSdProvider, checkTargetAddress, relabel, type FileSdFs, type TargetGroup, type WatchDirs } from '../../config/index.js';
import type { AlertmanagerConfig } from './config.js';

/** The label that carries an Alertmanager's push path through relabeling (Prometheus' `__alerts_path__`). */
export const ALERTS_PATH_LABEL = '__alerts_path__';

/** The push endpoint under a path prefix: `/api/v2/alerts`, `/am/api/v2/alerts`. */
export function alertsPath(prefix: string): string {
  return path.posix.join('/', prefix, '/api/v2/alerts');
}

/** The Alertmanagers one configuration entry yields from its target groups. */
export interface DiscoveredAlertmanagers {
  /** Push URLs after relabeling, deduplicated, in discovery order. */
  readonly active: readonly string[];
  /** URLs (from the labels before relabeling) of targets that relabeling dropped. */
  readonly dropped: readonly string[];
}

/** Go's `url.URL{Scheme, Host, Path}.String()` for the three labels. */
function urlOf(l: Labels): string {
  return `${l.get('__scheme__')}://${l.get('__address__')}${l.get(ALERTS_PATH_LABEL)}`;
}

/**
 * Turns target groups into Alertmanager URLs as Prometheus' `AlertmanagerFromGroup` and
 * `alertmanagerSet.sync` do: each target gets `__scheme__` and `__alerts_path__` from the
 * configuration and its group's labels (its own win), `relabel_configs` may change or drop it, and
 * a target whose address after relabeling is a URL fails its whole group (logged, skipped).
 */
export function alertmanagersFromGroups(cfg: AlertmanagerConfig, groups: readonly TargetGroup[], logger: Logger): DiscoveredAlertmanagers {
  const active: string[] = [];
  const dropped: string[] = [];
  const seen = new Set<string>();
  for (const g of groups) {
    const groupActive: string[] = [];
    const groupDropped: string[] = [];
    let failed: string | undefined;
    for (const t of g.targets) {
      const rec: Record<string, string> = { __scheme__: cfg.scheme, [ALERTS_PATH_LABEL]: alertsPath(cfg.pathPrefix) };
      g.labels.forEach((n, v) => (rec[n] = v));
      t.forEach((n, v) => (rec[n] = v));
      const before = Labels.from(rec);
      const after = relabel(before, cfg.relabelConfigs);
      if (after === null) {
        groupDropped.push(urlOf(before));
        continue;
      }
      failed = checkTargetAddress(after.get('__address__'));
      if (failed !== undefined) break;
      groupActive.push(urlOf(after));
    }
    if (failed !== undefined) {
      logger.error('notifier: creating discovered Alertmanagers failed', { source: g.source, err: failed });
      continue;
    }
    dropped.push(...groupDropped);
    for (const u of groupActive) {
      if (seen.has(u)) continue;
      seen.add(u);
      active.push(u);
    }
  }
  return { active, dropped };
}

/** The file system and timer ports that file_sd needs. */
export interface DiscoveryDeps {
  readonly fs: FileSdFs;
  readonly watch: WatchDirs;
  readonly timers: Timers;
  readonly logger: Logger;
}

/**
 * The live Alertmanager set of one configuration entry: its static groups plus every file_sd
 * provider's, turned into URLs by `alertmanagersFromGroups` at start and again whenever a file_sd
 * file changes.
 */
export class AlertmanagerDiscovery {
  private readonly providers: FileSdProvider[];
  private readonly fileGroups: TargetGroup[][];
  private current: DiscoveredAlertmanagers = { active: [], dropped: [] };
  private stopped = false;

  constructor(
    private readonly cfg: AlertmanagerConfig,
    private readonly deps: DiscoveryDeps,
  ) {
    this.providers = cfg.fileSdConfigs.map((c) => new FileSdProvider(c, { fs: deps.fs, timers: deps.timers, logger: deps.logger, watch: deps.watch }));
    this.fileGroups = cfg.fileSdConfigs.map(() => []);
  }

  /** The URLs now. */
  get alertmanagers(): DiscoveredAlertmanagers {
    return this.current;
  }

  private recompute(): DiscoveredAlertmanagers {
    this.current = alertmanagersFromGroups(this.cfg, [...this.cfg.staticConfigs, ...this.fileGroups.flat()], this.deps.logger);
    return this.current;
  }

  /** Reads every file_sd file once, then keeps watching; `onChange` gets each new set after the first (which this resolves with). */
  async start(onChange: (d: DiscoveredAlertmanagers) => void): Promise<DiscoveredAlertmanagers> {
    const initial = await Promise.all(this.providers.map((p) => p.refresh()));
    initial.forEach((groups, i) => (this.fileGroups[i] = groups));
    if (this.stopped) return this.current;
    this.providers.forEach((p, i) =>
      p.start(initial[i], (groups) => {
        if (this.stopped) return;
        this.fileGroups[i] = groups;
        onChange(this.recompute());
      }),
    );
    return this.recompute();
  }

  /** Stops every file_sd provider. */
  stop(): void {
    this.stopped = true;
    for (const p of this.providers) p.stop();
  }
}

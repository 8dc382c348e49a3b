import fsp from 'node:fs/promises';
import { Labels, mulberry32, systemClock, systemTimers, type Clock, type Logger, type Timers } from '../../model/index.js';
import { LabelsBuilder, nodeFileSdFs, nodeWatchDirs, relabelBuilder, type FileSdFs, type ReadTextFile, type RelabelConfig, type WatchDirs } from '../../config/index.js';
import type { Alert, NotifySink } from '../types.js';
import { EMPTY_ALERTING_CONFIG, type AlertingConfig, type AlertmanagerConfig } from './config.js';
import { AlertmanagerDiscovery, type DiscoveredAlertmanagers } from './discovery.js';
import { httpNotifyPost, type NotifyPost } from './http-post.js';
import { alertmanagerV2Body, webhookBody } from './payload.js';
import { DEFAULT_BACKOFF, SendLoop, type BackoffOptions, type DestinationSpec, type DestinationStats, type SendLoopDeps } from './send-loop.js';

/** Prometheus' `--alertmanager.notification-queue-capacity` default. */
export const DEFAULT_QUEUE_CAPACITY = 10_000;
/** Prometheus 3.x's default batch size (2.42 sent at most 64). */
export const DEFAULT_MAX_BATCH_SIZE = 256;

/** What a `Notifier` is built from; everything but the logger has a production default. */
export interface NotifierOptions {
  readonly logger: Logger;
  readonly clock?: Clock;
  readonly timers?: Timers;
  readonly post?: NotifyPost;
  /** Reads credential and TLS files (for every request, so rotated secrets apply). */
  readonly readFile?: ReadTextFile;
  readonly fileSdFs?: FileSdFs;
  readonly watchDirs?: WatchDirs;
  /** The most alerts each destination holds (default 10,000); past it the oldest are dropped and counted. */
  readonly queueCapacity?: number;
  /** The most alerts in one request (`max_batch_size`, default 256). */
  readonly maxBatchSize?: number;
  readonly backoff?: BackoffOptions;
  /** Seeds the backoff jitter. */
  readonly seed?: number;
  /** The server's external URL, put in webhook notifications (`externalURL`). */
  readonly externalURL?: string;
  readonly userAgent?: string;
}

/** `/api/v1/alertmanagers`' `data` in Prometheus 2.42's shape. */
export interface AlertmanagersData {
  readonly activeAlertmanagers: readonly { readonly url: string }[];
  readonly droppedAlertmanagers: readonly { readonly url: string }[];
}

/** The notifier's numbers for the server to expose (Prometheus' `prometheus_notifications_*`). */
export interface NotifierStats {
  readonly queueCapacity: number;
  /** Active Alertmanagers across every configuration entry (`prometheus_notifications_alertmanagers_discovered`). */
  readonly alertmanagersDiscovered: number;
  /** Alerts that `alert_relabel_configs` dropped (Prometheus does not count these). */
  readonly relabelDropped: number;
  /** One entry per Alertmanager URL of each configuration entry, then per webhook. */
  readonly destinations: readonly DestinationStats[];
}

interface AmSet {
  readonly cfg: AlertmanagerConfig;
  readonly discovery: AlertmanagerDiscovery;
  current: DiscoveredAlertmanagers;
}

/** A stable text of a configuration, to tell whether a reload changed a destination. */
function fingerprint(v: unknown): string {
  return JSON.stringify(v, (k, x: unknown) => (k === 'compiled' ? undefined : x instanceof Labels ? x.flat() : x));
}

/**
 * Sends alerts to every Alertmanager of every `alertmanagers` entry and to every webhook
 * (Prometheus' `notifier.Manager`, `notifier.go`). `send` adds the external labels (an alert's own
 * label wins), applies `alert_relabel_configs` (an alert relabeled to nothing is not sent) and hands
 * the alerts to one `SendLoop` per destination, which batches, sends with the entry's timeout, and
 * retries transient failures with backoff. Discovery (static targets, file_sd files, relabeling)
 * keeps each entry's set of Alertmanagers current; a loop whose URL disappears is stopped, one
 * whose URL stays keeps its queue. Single-threaded; `send` never blocks or throws.
 */
export class Notifier implements NotifySink {
  private readonly deps: SendLoopDeps;
  private readonly capacity: number;
  private readonly maxBatchSize: number;
  private readonly backoff: BackoffOptions;
  private cfg: AlertingConfig = EMPTY_ALERTING_CONFIG;
  private externalLabels: Labels = Labels.EMPTY;
  private sets: AmSet[] = [];
  /** Send loops by destination key (`am/<entry>/<url>`, `webhook/<name>`), each with its configuration's fingerprint. */
  private loops = new Map<string, { loop: SendLoop; fp: string }>();
  private relabelDropped = 0;
  private generation = 0;
  private stopped = false;

  constructor(private readonly o: NotifierOptions) {
    if (o.maxBatchSize !== undefined && !(o.maxBatchSize >= 1)) throw new RangeError('max_batch_size must be at least 1');
    if (o.queueCapacity !== undefined && !(o.queueCapacity >= 1)) throw new RangeError('queue capacity must be at least 1');
    this.capacity = o.queueCapacity ?? DEFAULT_QUEUE_CAPACITY;
    this.maxBatchSize = o.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE;
    this.backoff = o.backoff ?? DEFAULT_BACKOFF;
    this.deps = {
      post: o.post ?? httpNotifyPost,
      timers: o.timers ?? systemTimers,
      clock: o.clock ?? systemClock,
      logger: o.logger,
      readFile: o.readFile ?? ((f) => fsp.readFile(f, 'utf8')),
      random: mulberry32(o.seed ?? 0),
      userAgent: o.userAgent ?? 'Infersight',
    };
  }

  /**
   * Applies an `alerting:` section and the global external labels. Resolves once every entry's
   * first set of Alertmanagers is known (file_sd files read once). Calls should not overlap; a
   * later call wins.
   */
  async applyConfig(cfg: AlertingConfig, externalLabels: Labels): Promise<void> {
    if (this.stopped) return;
    const gen = ++this.generation;
    for (const s of this.sets) s.discovery.stop();
    const discoveryDeps = { fs: this.o.fileSdFs ?? nodeFileSdFs, watch: this.o.watchDirs ?? nodeWatchDirs, timers: this.deps.timers, logger: this.o.logger };
    const sets: AmSet[] = cfg.alertmanagers.map((c) => ({ cfg: c, discovery: new AlertmanagerDiscovery(c, discoveryDeps), current: { active: [], dropped: [] } }));
    this.sets = sets;
    this.cfg = cfg;
    this.externalLabels = externalLabels;
    await Promise.all(
      sets.map(async (s) => {
        s.current = await s.discovery.start((d) => {
          s.current = d;
          if (gen === this.generation) this.syncLoops();
        });
      }),
    );
    if (gen === this.generation && !this.stopped) this.syncLoops();
    else for (const s of sets) s.discovery.stop();
  }

  /** Creates loops for new destinations, keeps unchanged ones and stops the rest. */
  private syncLoops(): void {
    const want = new Map<string, { spec: DestinationSpec; fp: string }>();
    const common = { capacity: this.capacity, maxBatchSize: this.maxBatchSize, backoff: this.backoff };
    this.sets.forEach((s, i) => {
      const fp = fingerprint(s.cfg);
      for (const url of s.current.active) {
        want.set(`am/${i}/${url}`, { fp, spec: { kind: 'alertmanager', name: url, url, timeoutMs: s.cfg.timeoutMs, http: s.cfg.http, encode: alertmanagerV2Body, ...common } });
      }
    });
    const externalURL = this.o.externalURL ?? '';
    for (const w of this.cfg.webhooks) {
      const encode = (alerts: readonly Alert[], nowMs: number) => webhookBody(alerts, w.name, externalURL, nowMs);
      want.set(`webhook/${w.name}`, { fp: fingerprint(w), spec: { kind: 'webhook', name: w.name, url: w.url, timeoutMs: w.timeoutMs, http: w.http, encode, ...common } });
    }
    for (const [key, have] of this.loops) {
      if (want.get(key)?.fp !== have.fp) {
        have.loop.stop();
        this.loops.delete(key);
      }
    }
    for (const [key, w] of want) {
      if (!this.loops.has(key)) this.loops.set(key, { loop: new SendLoop(w.spec, this.deps), fp: w.fp });
    }
  }

  /** Prepares alerts for sending: external labels, then `alert_relabel_configs`. */
  private prepare(alerts: readonly Alert[], relabelConfigs: readonly RelabelConfig[]): Alert[] {
    const out: Alert[] = [];
    for (const a of alerts) {
      const lb = new LabelsBuilder(a.labels);
      this.externalLabels.forEach((n, v) => {
        if (a.labels.get(n) === '') lb.set(n, v);
      });
      if (!relabelBuilder(lb, relabelConfigs)) {
        this.relabelDropped++;
        continue;
      }
      const labels = lb.labels();
      if (labels.size === 0) {
        this.relabelDropped++;
        continue;
      }
      out.push(labels.equals(a.labels) ? a : { ...a, labels });
    }
    return out;
  }

  /** Queues alerts for every destination (the `NotifySink` contract: fire and forget). */
  send(alerts: readonly Alert[]): void {
    if (this.stopped || alerts.length === 0) return;
    const prepared = this.prepare(alerts, this.cfg.alertRelabelConfigs);
    if (prepared.length === 0) return;
    for (const { loop } of this.loops.values()) loop.add(prepared);
  }

  /** The current Alertmanagers, for `GET /api/v1/alertmanagers`. */
  alertmanagers(): AlertmanagersData {
    return {
      activeAlertmanagers: this.sets.flatMap((s) => s.current.active.map((url) => ({ url }))),
      droppedAlertmanagers: this.sets.flatMap((s) => s.current.dropped.map((url) => ({ url }))),
    };
  }

  /** The counters of every destination now. */
  stats(): NotifierStats {
    return {
      queueCapacity: this.capacity,
      alertmanagersDiscovered: this.sets.reduce((n, s) => n + s.current.active.length, 0),
      relabelDropped: this.relabelDropped,
      destinations: [...this.loops.values()].map(({ loop }) => loop.stats()),
    };
  }

  /** True while every destination's queue is empty and no request is in flight. */
  get idle(): boolean {
    return [...this.loops.values()].every(({ loop }) => loop.idle);
  }

  /** Stops discovery and every send loop; queued alerts are dropped (and counted). Idempotent. */
  stop(): void {
    this.stopped = true;
    for (const s of this.sets) s.discovery.stop();
    for (const { loop } of this.loops.values()) loop.stop();
  }
}

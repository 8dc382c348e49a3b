/**
 * Replicas and the per-model pools that hold them: outstanding requests, passive ejection with
 * exponential backoff (connection errors, timeouts and 5xx answers), the active health-check
 * state, and the model's limits and metric scope. Time comes from the caller (`nowMs`).
 */
import type { UnixMs } from '../model/index.js';
import { REPLICA_LABELS, type GatewayConfig, type ModelConfig, type ReplicaConfig } from './config.js';
import { ScopeInstruments } from './instruments.js';
import { GATEWAY_JOB } from './buckets.js';
import { ModelLimits } from './limits.js';
import type { MetricsRegistry } from './metrics.js';

/** Why a replica was taken out of rotation. */
export type EjectionReason = 'connect_error' | 'reset' | 'timeout' | '5xx' | 'health_check';

/** One upstream replica. */
export class Replica {
  /** Requests sent to it and not finished. */
  outstanding = 0;
  consecutiveFailures = 0;
  /** Passive ejection: out of rotation until this time. */
  ejectedUntilMs: UnixMs = 0;
  /** Ejections in a row without a healthy spell: the backoff exponent. */
  ejections = 0;
  /** The active health check's verdict (healthy until a check says otherwise). */
  activeHealthy = true;
  hcFailures = 0;
  hcSuccesses = 0;
  /** Set when a reconfiguration dropped it; in-flight requests finish, nothing new is sent. */
  removed = false;
  readonly host: string;
  readonly port: number;
  /** The URL path before `/v1/...` ('' or `/targets/x`). */
  readonly pathPrefix: string;
  /** The identity labels, `model` included. */
  readonly labels: Readonly<Record<string, string>>;
  readonly az: string;

  /** A replica of `model` from its config; `metrics` is its scope. */
  constructor(
    readonly config: ReplicaConfig,
    model: string,
    readonly metrics: ScopeInstruments,
  ) {
    const u = new URL(config.url);
    this.host = u.hostname.replace(/^\[(.*)\]$/, '$1');
    this.port = u.port === '' ? 80 : Number(u.port);
    this.pathPrefix = u.pathname.replace(/\/+$/, '');
    this.labels = { ...config.labels, model };
    this.az = config.labels.az ?? '';
  }

  /** Whether requests may be sent to it at `nowMs`. */
  routable(nowMs: UnixMs): boolean {
    return !this.removed && this.activeHealthy && nowMs >= this.ejectedUntilMs;
  }
}

/** The replicas of one model, its limits, and the metric scope of requests that reached none. */
export class ModelPool {
  replicas: Replica[] = [];
  /** Rotates the starting point of the least-outstanding scan so that ties spread. */
  rotation = 0;
  readonly limits: ModelLimits;
  /** Labels shared by every replica (plus `model`): the scope of refusals. */
  scope: ScopeInstruments;

  /** A pool for `config`. */
  constructor(
    public config: ModelConfig,
    private readonly reg: MetricsRegistry,
    now: () => UnixMs,
  ) {
    this.limits = new ModelLimits(config.maxConcurrency, config.tokensPerMinute, now);
    this.scope = new ScopeInstruments(reg, commonLabels(config), false);
    this.update(config);
  }

  /**
   * Replaces the replica list: replicas whose URL and labels are unchanged keep their state (and
   * in-flight requests); new ones start healthy; dropped ones are marked `removed` and returned.
   */
  update(config: ModelConfig): Replica[] {
    const same = (r: Replica, rc: ReplicaConfig): boolean => r.config.url === rc.url && JSON.stringify(r.config.labels) === JSON.stringify(rc.labels) && config.name === this.config.name;
    const removed = this.replicas.filter((r) => !config.replicas.some((rc) => same(r, rc)));
    // Retire the leavers' series first: a newcomer with the same labels then starts afresh.
    for (const r of removed) {
      r.removed = true;
      retireExact(this.reg, r.metrics.labels);
    }
    const next: Replica[] = [];
    for (const rc of config.replicas) {
      const prev = this.replicas.find((r) => !r.removed && same(r, rc));
      next.push(prev ?? new Replica(rc, config.name, new ScopeInstruments(this.reg, { ...rc.labels, model: config.name }, true)));
    }
    this.replicas = next;
    this.config = config;
    this.limits.configure(config.maxConcurrency, config.tokensPerMinute);
    const common = commonLabels(config);
    if (JSON.stringify({ ...common, job: GATEWAY_JOB }) !== JSON.stringify(this.scope.labels)) {
      retireExact(this.reg, this.scope.labels);
      this.scope = new ScopeInstruments(this.reg, common, false);
    }
    return removed;
  }

  /** A success (any answer that is not 5xx) resets the failure streak; a healthy spell forgives an ejection. */
  recordSuccess(r: Replica, nowMs: UnixMs, policy: GatewayConfig['ejection']): void {
    r.consecutiveFailures = 0;
    if (r.ejections > 0 && nowMs >= r.ejectedUntilMs + policy.baseMs) r.ejections--;
  }

  /**
   * A failure; ejects the replica after `consecutiveFailures` in a row, for base·2^(n-1) (at most
   * max), unless that would take more than `maxEjectedPercent` of the pool out. Returns whether it
   * was ejected.
   */
  recordFailure(r: Replica, nowMs: UnixMs, policy: GatewayConfig['ejection']): boolean {
    r.consecutiveFailures++;
    if (r.consecutiveFailures < policy.consecutiveFailures || nowMs < r.ejectedUntilMs) return false;
    const ejected = this.replicas.filter((x) => x !== r && nowMs < x.ejectedUntilMs).length + 1;
    if ((ejected * 100) / this.replicas.length > policy.maxEjectedPercent) return false;
    r.ejections++;
    r.ejectedUntilMs = nowMs + Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(30, r.ejections - 1));
    r.consecutiveFailures = 0;
    return true;
  }
}

/** Retires every series carrying all of `labels` (a model that went away). */
export function retireScope(reg: MetricsRegistry, labels: Readonly<Record<string, string>>): void {
  const entries = Object.entries(labels);
  reg.retire((l) => entries.every(([k, v]) => l.get(k) === v));
}

const SCOPE_LABELS = ['job', 'model', ...REPLICA_LABELS];

/** Retires the series of exactly one scope: identity labels equal to `labels`, none more. */
export function retireExact(reg: MetricsRegistry, labels: Readonly<Record<string, string>>): void {
  reg.retire((l) => SCOPE_LABELS.every((k) => l.get(k) === (labels[k] ?? '')));
}

/** `model` plus the labels every replica of `config` agrees on. */
export function commonLabels(config: ModelConfig): Record<string, string> {
  const out: Record<string, string> = {};
  const [first, ...rest] = config.replicas;
  if (first !== undefined) {
    for (const [k, v] of Object.entries(first.labels)) if (v !== undefined && rest.every((r) => r.labels[k as keyof ReplicaConfig['labels']] === v)) out[k] = v;
  }
  delete out.replica;
  delete out.instance;
  out.model = config.name;
  return out;
}

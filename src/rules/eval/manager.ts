/**
 * The rule manager (Prometheus' `rules.Manager`): holds the running groups, swaps them on reload
 * keeping the state of unchanged rules, marks the series of removed ones stale, and answers the
 * snapshot the rules and alerts APIs show.
 */
import { noopLogger, type Clock, type DurationMs, type Logger, type Timers } from '../../model/index.js';
import type { QueryClient } from '../../query/index.js';
import type { Appendable } from '../../storage/index.js';
import type { NotifySink, RuleGroupSpec, TemplateExpander } from '../types.js';
import { RuleGroup, groupKey, type RuleGroupPorts } from './group.js';
import { snapshotGroups, type RulesSnapshot } from './snapshot.js';

/** A template expander that returns each template's text unchanged (the default until the real one is wired). */
export const literalExpander: TemplateExpander = { expand: (_name, text) => Promise.resolve(text) };

/** Prometheus' defaults for the manager's settings. */
export const RULE_DEFAULTS = {
  /** The global `evaluation_interval`. */
  evaluationIntervalMs: 60_000,
  /** `--rules.alert.resend-delay`. */
  resendDelayMs: 60_000,
  /** `--rules.alert.for-outage-tolerance`. */
  outageToleranceMs: 3_600_000,
  /** `--rules.alert.for-grace-period`. */
  forGracePeriodMs: 600_000,
} as const;

/** What the manager reads from, writes to and tells; everything but the first four has a default. */
export interface RuleManagerOptions {
  readonly query: QueryClient;
  readonly appendable: Appendable;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly logger?: Logger;
  /** Renders alert labels and annotations (default: the text as written). */
  readonly expander?: TemplateExpander;
  /** Where alerts go (default: nowhere). */
  readonly notify?: NotifySink;
  /** How an expression is printed in the API and queried: Prometheus prints the parsed expression. Default: as written. */
  readonly formatExpr?: (expr: string) => string;
  readonly evaluationIntervalMs?: DurationMs;
  /** The global `rule_query_offset` (Prometheus 3.x; 0). */
  readonly ruleQueryOffsetMs?: DurationMs;
  readonly externalLabels?: Readonly<Record<string, string>>;
  /** `--web.external-url`, for `generatorURL` and `$externalURL` (no trailing slash). */
  readonly externalURL?: string;
  readonly resendDelayMs?: DurationMs;
  readonly outageToleranceMs?: DurationMs;
  readonly forGracePeriodMs?: DurationMs;
}

/** Builds the ports every group of a manager or a replay shares. */
export function groupPorts(o: RuleManagerOptions): RuleGroupPorts {
  return {
    query: o.query,
    appendable: o.appendable,
    clock: o.clock,
    timers: o.timers,
    logger: o.logger ?? noopLogger,
    notify: o.notify,
    resendDelayMs: o.resendDelayMs ?? RULE_DEFAULTS.resendDelayMs,
    externalURL: o.externalURL ?? '',
    expander: o.expander ?? literalExpander,
    formatExpr: o.formatExpr ?? ((e) => e),
    externalLabels: o.externalLabels ?? {},
    restore: {
      outageToleranceMs: o.outageToleranceMs ?? RULE_DEFAULTS.outageToleranceMs,
      forGracePeriodMs: o.forGracePeriodMs ?? RULE_DEFAULTS.forGracePeriodMs,
    },
  };
}

/** Runs rule groups on the injected timers. `update` may be called any time; calls are serialized. */
export class RuleManager {
  private groups = new Map<string, RuleGroup>();
  private ports: RuleGroupPorts;
  private loadedOnce = false;
  private started = false;
  private readonly pendingStale = new Set<() => void>();
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly o: RuleManagerOptions) {
    this.ports = groupPorts(o);
  }

  /**
   * Replaces the rule set (a reload). Groups are keyed by file and name: an identical group keeps
   * running untouched; a changed one is stopped and its successor takes over the state of the
   * rules it kept (series, alerts); a removed one stops and its series are marked stale.
   * Alerting rules of the first load restore their `for` state; later loads start restored.
   */
  update(specs: readonly RuleGroupSpec[]): Promise<void> {
    const run = this.queue.then(() => this.doUpdate(specs));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async doUpdate(specs: readonly RuleGroupSpec[]): Promise<void> {
    const settings = {
      defaultIntervalMs: this.o.evaluationIntervalMs ?? RULE_DEFAULTS.evaluationIntervalMs,
      defaultQueryOffsetMs: this.o.ruleQueryOffsetMs ?? 0,
      restored: this.loadedOnce,
    };
    this.loadedOnce = true;
    const next = new Map<string, RuleGroup>();
    const old = new Map(this.groups);
    for (const spec of specs) {
      const key = groupKey(spec.file, spec.name);
      if (next.has(key)) {
        this.ports.logger.warn('duplicate rule group ignored', { file: spec.file, group: spec.name });
        continue;
      }
      const fresh = new RuleGroup(spec, settings, this.ports);
      const prev = old.get(key);
      old.delete(key);
      if (prev !== undefined && prev.equals(fresh)) {
        next.set(key, prev);
        continue;
      }
      if (prev !== undefined) {
        await prev.stop();
        fresh.copyState(prev);
      }
      next.set(key, fresh);
    }
    for (const g of old.values()) {
      const stale = await g.stop(true);
      if (stale !== undefined) this.pendingStale.add(stale.cancelStale);
    }
    this.groups = next;
    if (this.started) for (const g of next.values()) g.start();
  }

  /**
   * New external labels and external URL (a reload changed `global.external_labels` or the
   * server's URL). As in Prometheus, groups that the next `update` builds anew use them, and a
   * group that `update` finds unchanged keeps the ones it was built with.
   */
  setExternal(externalLabels: Readonly<Record<string, string>>, externalURL: string): void {
    this.ports = { ...this.ports, externalLabels, externalURL };
  }

  /** Starts every group's schedule (and those of later updates). */
  start(): void {
    this.started = true;
    for (const g of this.groups.values()) g.start();
  }

  /**
   * Stops every group and waits for running evaluations to end. As in Prometheus, stopping
   * writes no stale markers (a restart then restores `for` state from `ALERTS_FOR_STATE`) and
   * drops the stale markers still due for groups removed by a reload.
   */
  async stop(): Promise<void> {
    this.started = false;
    await this.queue;
    for (const cancel of this.pendingStale) cancel();
    this.pendingStale.clear();
    await Promise.all([...this.groups.values()].map((g) => g.stop()));
  }

  /** The running groups, sorted by file and name. */
  ruleGroups(): RuleGroup[] {
    return [...this.groups.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Everything `/api/v1/rules` and `/api/v1/alerts` show, and the groups' counters. */
  snapshot(): RulesSnapshot {
    return snapshotGroups(this.ruleGroups());
  }
}

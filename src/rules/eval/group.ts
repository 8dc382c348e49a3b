/**
 * A scheduled rule group (Prometheus' `rules.Group`): evaluated at its aligned ticks on the
 * injected `Timers`, one evaluation at a time, each with a deadline at the next tick.
 */
import type { Clock, DurationMs, Labels, Logger, Timers, UnixMs } from '../../model/index.js';
import type { RuleGroupSpec, TemplateExpander } from '../types.js';
import { AlertingRule } from './alerting-rule.js';
import { evaluateGroup, newGroupMetrics, writeStaleMarkers, type GroupEvalPorts, type GroupEvalState, type GroupMetrics, type Rule } from './group-eval.js';
import { RecordingRule } from './recording-rule.js';
import { restoreForState, type RestoreOptions } from './restore.js';
import { evalTimestampMs } from './schedule.js';

/** The key Prometheus identifies a group by across reloads: file and name. */
export function groupKey(file: string, name: string): string {
  return `${file};${name}`;
}

/** Everything a group needs to run. */
export interface RuleGroupPorts extends GroupEvalPorts {
  readonly clock: Clock;
  readonly timers: Timers;
  readonly logger: Logger;
  readonly expander: TemplateExpander;
  readonly formatExpr: (expr: string) => string;
  readonly externalLabels: Readonly<Record<string, string>>;
  readonly restore: Omit<RestoreOptions, 'query' | 'logger' | 'signal'>;
}

/** How a group is built from its spec. */
export interface RuleGroupSettings {
  /** The global `evaluation_interval`, for groups without their own. */
  readonly defaultIntervalMs: DurationMs;
  /** The global `rule_query_offset`, for groups without their own. */
  readonly defaultQueryOffsetMs: DurationMs;
  /** Whether alerting rules start restored (reloads, replays) or restore `for` state after the second evaluation (the first load). */
  readonly restored: boolean;
}

/** A rule group: its rules, their state, and its schedule. */
export class RuleGroup implements GroupEvalState {
  readonly name: string;
  readonly file: string;
  readonly intervalMs: DurationMs;
  readonly queryOffsetMs: DurationMs;
  readonly limit: number;
  readonly rules: Rule[];
  readonly seriesInPreviousEval: Map<string, Labels>[];
  staleSeries: Labels[] = [];
  metrics: GroupMetrics = newGroupMetrics();
  /** How long the last evaluation took, and when it started (the clock's time). */
  evaluationDurationMs: DurationMs = 0;
  lastEvaluationMs: UnixMs | undefined;
  private shouldRestore: boolean;
  private cancelTimer: (() => void) | undefined;
  private inFlight: { controller: AbortController; done: Promise<void> } | undefined;
  private running = false;
  private evaluationsSinceStart = 0;

  constructor(
    readonly spec: RuleGroupSpec,
    settings: RuleGroupSettings,
    private readonly ports: RuleGroupPorts,
  ) {
    this.name = spec.name;
    this.file = spec.file;
    // An interval of 0 means unset in Prometheus' rule files.
    this.intervalMs = spec.intervalMs !== undefined && spec.intervalMs > 0 ? spec.intervalMs : settings.defaultIntervalMs;
    this.queryOffsetMs = spec.queryOffsetMs ?? settings.defaultQueryOffsetMs;
    this.limit = spec.limit;
    this.rules = spec.rules.map((r) =>
      r.kind === 'recording'
        ? new RecordingRule(r, ports.formatExpr)
        : new AlertingRule(r, { expander: ports.expander, formatExpr: ports.formatExpr, externalLabels: ports.externalLabels, externalURL: ports.externalURL, logger: ports.logger }, settings.restored),
    );
    this.seriesInPreviousEval = this.rules.map(() => new Map<string, Labels>());
    this.shouldRestore = !settings.restored;
  }

  /** The group's key across reloads. */
  get key(): string {
    return groupKey(this.file, this.name);
  }

  /** Reports whether `other` is the same group (Prometheus' `Group.Equals`): then a reload keeps this one running untouched. */
  equals(other: RuleGroup): boolean {
    return (
      this.name === other.name &&
      this.file === other.file &&
      this.intervalMs === other.intervalMs &&
      this.queryOffsetMs === other.queryOffsetMs &&
      this.limit === other.limit &&
      this.rules.length === other.rules.length &&
      this.rules.every((r, i) => ruleIdentity(r, true) === ruleIdentity(other.rules[i], true))
    );
  }

  /**
   * Takes over the state of the group this one replaces on reload (Prometheus' `CopyState`):
   * rules matched by name and labels keep their last series and their alerts; the series of
   * old rules without a match are marked stale at this group's next evaluation.
   */
  copyState(from: RuleGroup): void {
    this.evaluationDurationMs = from.evaluationDurationMs;
    this.lastEvaluationMs = from.lastEvaluationMs;
    const byIdentity = new Map<string, number[]>();
    from.rules.forEach((r, i) => {
      const id = ruleIdentity(r, false);
      byIdentity.set(id, [...(byIdentity.get(id) ?? []), i]);
    });
    this.rules.forEach((rule, i) => {
      const id = ruleIdentity(rule, false);
      const indexes = byIdentity.get(id) ?? [];
      if (indexes.length === 0) return;
      const fi = indexes[0];
      byIdentity.set(id, indexes.slice(1));
      this.seriesInPreviousEval[i] = from.seriesInPreviousEval[fi];
      const old = from.rules[fi];
      if (rule.kind === 'alerting' && old.kind === 'alerting') for (const [k, a] of old.active) rule.active.set(k, a);
    });
    this.staleSeries = [...from.staleSeries];
    for (const indexes of byIdentity.values()) for (const fi of indexes) this.staleSeries.push(...from.seriesInPreviousEval[fi].values());
  }

  /** Every series the group wrote last time plus those still to be marked stale (for a group that goes away). */
  allSeries(): Labels[] {
    return [...this.staleSeries, ...this.seriesInPreviousEval.flatMap((m) => [...m.values()])];
  }

  /** Evaluates the group once at `evalTimeMs` (no schedule, no deadline unless `signal` has one). */
  async evaluate(evalTimeMs: UnixMs, signal: AbortSignal = new AbortController().signal): Promise<void> {
    const startMs = this.ports.clock();
    this.metrics.iterationsScheduled++;
    await evaluateGroup(this, evalTimeMs, signal, this.ports);
    this.evaluationDurationMs = this.ports.clock() - startMs;
    this.lastEvaluationMs = startMs;
  }

  /** Starts the schedule: the first evaluation at the first aligned tick after now. */
  start(): void {
    if (this.running) return;
    this.running = true;
    const first = evalTimestampMs(this.file, this.name, this.intervalMs, this.ports.clock()) + this.intervalMs;
    this.schedule(first);
  }

  private schedule(evalTimeMs: UnixMs): void {
    this.cancelTimer = this.ports.timers.setTimeout(() => {
      this.cancelTimer = undefined;
      this.iterate(evalTimeMs);
    }, evalTimeMs - this.ports.clock());
  }

  private iterate(evalTimeMs: UnixMs): void {
    if (!this.running) return;
    const controller = new AbortController();
    // The deadline: the next tick. An evaluation still running then is aborted, counted, and the group goes on.
    const cancelDeadline = this.ports.timers.setTimeout(() => {
      this.metrics.deadlineExceeded++;
      controller.abort(new Error(`evaluation of group ${JSON.stringify(this.name)} at ${evalTimeMs} passed its deadline (the next tick, ${this.intervalMs} ms later)`));
    }, evalTimeMs + this.intervalMs - this.ports.clock());
    const done = (async () => {
      try {
        await this.evaluate(evalTimeMs, controller.signal);
        if (this.shouldRestore && this.running && !controller.signal.aborted && this.restoreDue()) {
          this.shouldRestore = false;
          const now = this.ports.clock();
          for (const r of this.rules) if (r.kind === 'alerting') await restoreForState(r, now, { ...this.ports.restore, query: this.ports.query, logger: this.ports.logger, signal: controller.signal });
        }
      } catch (e) {
        this.ports.logger.error('rule group evaluation failed', { group: this.name, err: e instanceof Error ? e.message : String(e) });
      } finally {
        cancelDeadline();
      }
    })();
    this.inFlight = { controller, done };
    void done.then(() => {
      this.inFlight = undefined;
      if (!this.running) return;
      const now = this.ports.clock();
      let next = evalTimeMs + this.intervalMs;
      if (now >= next) {
        const missed = Math.floor((now - evalTimeMs) / this.intervalMs) - 1;
        if (missed > 0) {
          this.metrics.iterationsMissed += missed;
          this.metrics.iterationsScheduled += missed;
        }
        next = evalTimeMs + (missed + 1) * this.intervalMs;
      }
      this.schedule(next);
    });
  }

  /** Prometheus restores after the second evaluation, so that the first has filled the alerts to restore. */
  private restoreDue(): boolean {
    this.evaluationsSinceStart++;
    return this.evaluationsSinceStart >= 2;
  }

  /**
   * Stops the schedule and aborts a running evaluation; resolves once it has ended. With
   * `markStale` (the group went away on reload), every series it wrote is marked stale
   * `2 × interval` later, unless `cancelStale` (the manager stopping) comes first: the delay lets
   * a rule that moved to another group write first, so the marker (timestamped now) lands out of
   * order and is dropped, as in Prometheus.
   */
  async stop(markStale = false): Promise<{ cancelStale: () => void } | undefined> {
    this.running = false;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    const f = this.inFlight;
    if (f !== undefined) {
      f.controller.abort(new Error(`rule group ${JSON.stringify(this.name)} stopped`));
      await f.done;
    }
    if (!markStale) return undefined;
    const series = this.allSeries();
    const atMs = this.ports.clock() - this.queryOffsetMs;
    const cancel = this.ports.timers.setTimeout(() => {
      void writeStaleMarkers(this.ports.appendable, series, atMs, this.ports.logger, this.name);
    }, 2 * this.intervalMs);
    return { cancelStale: cancel };
  }
}

/** A rule's identity: across reloads by name and labels (Prometheus' `nameAndLabels`), for equality its whole spec. */
function ruleIdentity(r: Rule, whole: boolean): string {
  if (!whole) return r.name + r.labels.toString();
  const s = r.spec;
  return JSON.stringify(
    s.kind === 'recording'
      ? [s.kind, s.record, r.query, r.labels.toString()]
      : [s.kind, s.alert, r.query, s.forMs, s.keepFiringForMs, r.labels.toString(), (r as AlertingRule).annotations.toString()],
  );
}

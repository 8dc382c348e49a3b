/**
 * An alerting rule (Prometheus 2.42's rules/alerting.go): results become pending alerts, pending
 * alerts fire after `for`, firing ones keep firing for `keep_firing_for` once their result is
 * gone, resolved ones stay 15 min so they are resent as resolved, and every active alert is
 * written as `ALERTS` and `ALERTS_FOR_STATE`.
 */
import { Labels, METRIC_NAME_LABEL, noopLogger, type DurationMs, type Logger, type UnixMs } from '../../model/index.js';
import type { AlertingRuleSpec, TemplateExpander } from '../types.js';
import { queryVector, safeFormat, type RuleEvalContext, type RuleHealth, type RuleSample } from './rule.js';

/** An alert's state; a rule's state is the highest of its alerts' (`unknown` before the first evaluation). */
export type AlertState = 'inactive' | 'pending' | 'firing';

/** How long a resolved alert is kept (and resent as resolved), as Prometheus' `resolvedRetention`. */
export const RESOLVED_RETENTION_MS: DurationMs = 15 * 60_000;

/** The error of an alerting rule whose results collide once the rule's labels are applied. */
export const ERR_DUPLICATE_ALERT = 'vector contains metrics with the same labelset after applying alert labels';

/** One alert of a rule (Prometheus' `rules.Alert`); times are undefined where Go's are zero. */
export interface ActiveAlert {
  state: AlertState;
  readonly labels: Labels;
  annotations: Labels;
  value: number;
  activeAtMs: UnixMs;
  firedAtMs: UnixMs | undefined;
  resolvedAtMs: UnixMs | undefined;
  lastSentAtMs: UnixMs | undefined;
  validUntilMs: UnixMs | undefined;
  keepFiringSinceMs: UnixMs | undefined;
}

/** What an alerting rule needs besides its spec. */
export interface AlertingRuleDeps {
  readonly expander: TemplateExpander;
  readonly formatExpr: (expr: string) => string;
  readonly externalLabels: Readonly<Record<string, string>>;
  readonly externalURL: string;
  readonly logger?: Logger;
}

/** An alerting rule and its alerts. */
export class AlertingRule {
  readonly kind = 'alerting' as const;
  readonly query: string;
  readonly labels: Labels;
  readonly annotations: Labels;
  health: RuleHealth = 'unknown';
  lastError: string | undefined;
  lastEvaluationMs: UnixMs | undefined;
  evaluationDurationMs: DurationMs = 0;
  /**
   * Whether `for` state was restored (or needs no restoring); until then no `ALERTS` series are
   * written, as in Prometheus, so a restart does not record a spurious pending episode.
   */
  restored: boolean;
  /** The alerts by label-set key. */
  active = new Map<string, ActiveAlert>();
  private readonly logger: Logger;

  constructor(
    readonly spec: AlertingRuleSpec,
    private readonly deps: AlertingRuleDeps,
    restored: boolean,
  ) {
    this.query = safeFormat(deps.formatExpr, spec.expr);
    this.labels = Labels.from(spec.labels);
    this.annotations = Labels.from(spec.annotations);
    this.restored = restored;
    this.logger = deps.logger ?? noopLogger;
  }

  /** The rule's name (`alert`). */
  get name(): string {
    return this.spec.alert;
  }

  /** The highest state of the rule's alerts; `unknown` before its first evaluation. */
  state(): AlertState | 'unknown' {
    if (this.lastEvaluationMs === undefined) return 'unknown';
    let max: AlertState = 'inactive';
    for (const a of this.active.values()) if (a.state === 'firing' || (a.state === 'pending' && max === 'inactive')) max = a.state;
    return max;
  }

  /** The alerts that are not resolved, sorted by labels (Prometheus' `ActiveAlerts`, in a stable order). */
  activeAlerts(): ActiveAlert[] {
    return [...this.active.values()].filter((a) => a.resolvedAtMs === undefined).sort((a, b) => a.labels.compare(b.labels));
  }

  private async expandAll(s: RuleSample, evalTimeMs: UnixMs): Promise<{ labels: Labels; annotations: Labels }> {
    const data = { labels: s.labels.toRecord(), value: s.value, externalLabels: this.deps.externalLabels, externalURL: this.deps.externalURL };
    const tmplName = `__alert_${this.name}`;
    // The expander's contract is never to reject; one that does still must not fail the rule.
    const expand = (text: string): Promise<string> =>
      this.deps.expander.expand(tmplName, text, data, evalTimeMs).catch((e: unknown) => `<error expanding template: ${e instanceof Error ? e.message : String(e)}>`);
    const flat: string[] = [...s.labels.without(METRIC_NAME_LABEL).flat()];
    // The spec's labels, not `this.labels`: an empty value (or one expanding to '') removes the label.
    for (const name of Object.keys(this.spec.labels).sort()) {
      flat.push(name, await expand(this.spec.labels[name]));
    }
    flat.push('alertname', this.name);
    const ann: string[] = [];
    for (let i = 0; i < this.annotations.size; i++) {
      ann.push(this.annotations.nameAt(i), await expand(this.annotations.valueAt(i)));
    }
    return { labels: Labels.fromPairs(flat), annotations: Labels.fromPairs(ann) };
  }

  /** Evaluates the rule, updates its alerts and returns the `ALERTS` / `ALERTS_FOR_STATE` samples. */
  async eval(ctx: RuleEvalContext): Promise<RuleSample[]> {
    const ts = ctx.evalTimeMs;
    const outMs = ts - ctx.queryOffsetMs;
    const res = await queryVector(ctx.query, this.query, outMs, ctx.signal);
    const fresh = new Map<string, ActiveAlert>();
    for (const s of res) {
      const { labels, annotations } = await this.expandAll(s, ts);
      const key = labels.key();
      if (fresh.has(key)) throw new Error(ERR_DUPLICATE_ALERT);
      fresh.set(key, {
        state: 'pending',
        labels,
        annotations,
        value: s.value,
        activeAtMs: ts,
        firedAtMs: undefined,
        resolvedAtMs: undefined,
        lastSentAtMs: undefined,
        validUntilMs: undefined,
        keepFiringSinceMs: undefined,
      });
    }
    for (const [key, a] of fresh) {
      const old = this.active.get(key);
      if (old !== undefined && old.state !== 'inactive') {
        old.value = a.value;
        old.annotations = a.annotations;
        continue;
      }
      this.active.set(key, a);
    }

    const out: RuleSample[] = [];
    let numActivePending = 0;
    const forMs = this.spec.forMs;
    const keepForMs = this.spec.keepFiringForMs;
    for (const [key, a] of this.active) {
      if (!fresh.has(key)) {
        let keepFiring = false;
        if (a.state === 'firing' && keepForMs > 0) {
          a.keepFiringSinceMs ??= ts;
          keepFiring = ts - a.keepFiringSinceMs < keepForMs;
        }
        // Pending alerts vanish at once; resolved ones after the retention.
        if (a.state === 'pending' || (a.resolvedAtMs !== undefined && ts - a.resolvedAtMs > RESOLVED_RETENTION_MS)) this.active.delete(key);
        if (a.state !== 'inactive' && !keepFiring) {
          a.state = 'inactive';
          a.resolvedAtMs = ts;
        }
        if (!keepFiring) continue;
      } else {
        a.keepFiringSinceMs = undefined;
      }
      numActivePending++;
      if (a.state === 'pending' && ts - a.activeAtMs >= forMs) {
        a.state = 'firing';
        a.firedAtMs = ts;
      }
      if (this.restored) {
        out.push({ labels: this.seriesLabels(a, 'ALERTS', a.state), tMs: outMs, value: 1 });
        out.push({ labels: this.seriesLabels(a, 'ALERTS_FOR_STATE', undefined), tMs: outMs, value: Math.floor(a.activeAtMs / 1000) });
      }
    }
    if (ctx.limit > 0 && numActivePending > ctx.limit) {
      this.active = new Map();
      throw new Error(`exceeded limit of ${ctx.limit} with ${numActivePending} alerts`);
    }
    if (out.length === 0 && res.length > 0 && !this.restored) this.logger.debug('alerts not written until for state is restored', { alertname: this.name });
    return out;
  }

  /** The labels of the rule's `ALERTS` (with `alertstate`) or `ALERTS_FOR_STATE` series for `a`. */
  seriesLabels(a: { readonly labels: Labels }, metric: 'ALERTS' | 'ALERTS_FOR_STATE', alertState: AlertState | undefined): Labels {
    const flat = [...this.labels.flat(), ...a.labels.flat(), METRIC_NAME_LABEL, metric, 'alertname', this.name];
    if (alertState !== undefined) flat.push('alertstate', alertState);
    return Labels.fromPairs(flat);
  }

  /**
   * The alerts due to be sent at `ts` (Prometheus' `sendAlerts`): firing ones not sent for
   * longer than `resendDelayMs`, and resolved ones not yet sent since they resolved. Marks them
   * sent and sets how long each stays valid (4 × the larger of the resend delay and the interval).
   */
  alertsToSend(ts: UnixMs, resendDelayMs: DurationMs, intervalMs: DurationMs): ActiveAlert[] {
    const due: ActiveAlert[] = [];
    for (const a of this.active.values()) {
      if (!needsSending(a, ts, resendDelayMs)) continue;
      a.lastSentAtMs = ts;
      a.validUntilMs = ts + 4 * Math.max(resendDelayMs, intervalMs);
      due.push({ ...a });
    }
    return due.sort((x, y) => x.labels.compare(y.labels));
  }
}

/** Prometheus' `needsSending`: never pending alerts; resolved ones once after resolving; others every resend delay. */
export function needsSending(a: ActiveAlert, ts: UnixMs, resendDelayMs: DurationMs): boolean {
  if (a.state === 'pending') return false;
  if (a.resolvedAtMs !== undefined && (a.lastSentAtMs === undefined || a.resolvedAtMs > a.lastSentAtMs)) return true;
  return a.lastSentAtMs === undefined || a.lastSentAtMs + resendDelayMs < ts;
}

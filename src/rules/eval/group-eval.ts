/**
 * One evaluation of a rule group (Prometheus' `Group.Eval`): its rules in order, each queried,
 * its output appended and committed before the next rule runs (so a rule sees what the rules
 * before it wrote at the same instant, as in Prometheus), stale markers for the series a rule
 * wrote last time and not now, and alerts handed to the notify sink.
 */
import { STALE_NAN, type Labels, type Logger, type UnixMs } from '../../model/index.js';
import type { Appendable } from '../../storage/index.js';
import { isStorageError, StorageErrorCode } from '../../storage/index.js';
import type { QueryClient } from '../../query/index.js';
import type { Alert, NotifySink } from '../types.js';
import type { ActiveAlert, AlertingRule } from './alerting-rule.js';
import type { RecordingRule } from './recording-rule.js';
import { errorMessage, EvaluationAborted, type RuleEvalContext, type RuleVector } from './rule.js';

/** A rule of a group. */
export type Rule = RecordingRule | AlertingRule;

/** Counters of one group, as plain numbers the server exposes (Prometheus' `prometheus_rule_*`). */
export interface GroupMetrics {
  /** Ticks the group was due, missed ones included (`prometheus_rule_group_iterations_total`). */
  iterationsScheduled: number;
  /** Ticks skipped because an evaluation ran past them (`prometheus_rule_group_iterations_missed_total`). */
  iterationsMissed: number;
  /** Rule evaluations (`prometheus_rule_evaluations_total`). */
  evaluations: number;
  /** Rule evaluations that failed (`prometheus_rule_evaluation_failures_total`). */
  evaluationFailures: number;
  /** Group evaluations aborted because the next tick came first (Infersight's deadline; Prometheus has none). */
  deadlineExceeded: number;
  /** Samples the last evaluation produced (`prometheus_rule_group_last_evaluation_samples`). */
  lastSamples: number;
}

/** A fresh set of zeroed counters. */
export function newGroupMetrics(): GroupMetrics {
  return { iterationsScheduled: 0, iterationsMissed: 0, evaluations: 0, evaluationFailures: 0, deadlineExceeded: 0, lastSamples: 0 };
}

/** What an evaluation reads, writes and tells. */
export interface GroupEvalPorts {
  readonly query: QueryClient;
  readonly appendable: Appendable;
  readonly clock: () => UnixMs;
  readonly logger: Logger;
  readonly notify: NotifySink | undefined;
  readonly resendDelayMs: number;
  readonly externalURL: string;
}

/** The state one group evaluation reads and updates. */
export interface GroupEvalState {
  readonly name: string;
  readonly file: string;
  readonly intervalMs: number;
  readonly queryOffsetMs: number;
  readonly limit: number;
  readonly rules: readonly Rule[];
  /** Per rule: the series (by key) it wrote in its last successful evaluation. */
  readonly seriesInPreviousEval: Map<string, Labels>[];
  /** Series of rules that disappeared on reload, to be marked stale at the next evaluation. */
  staleSeries: Labels[];
  readonly metrics: GroupMetrics;
}

const IGNORED_APPEND_ERRORS: ReadonlySet<string> = new Set([
  StorageErrorCode.OUT_OF_ORDER_SAMPLE,
  StorageErrorCode.DUPLICATE_SAMPLE_FOR_TIMESTAMP,
  StorageErrorCode.TOO_OLD_SAMPLE,
]);

/** Reports whether an append error is one Prometheus only counts (out of order, duplicate, too old). */
function isExpectedAppendError(e: unknown): boolean {
  return isStorageError(e) && IGNORED_APPEND_ERRORS.has(e.code);
}

/** Go's `url.QueryEscape`: everything but letters, digits and `-_.~` percent-encoded, spaces as `+`. */
export function goQueryEscape(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** The link Prometheus puts in `generatorURL`: the expression in its graph page's table tab. */
export function generatorURL(externalURL: string, expr: string): string {
  return `${externalURL}/graph?g0.expr=${goQueryEscape(expr)}&g0.tab=1`;
}

/** Turns alerts due for sending into the notifier's shape (cmd/prometheus `sendAlerts`: startsAt is when it fired). */
export function toNotifierAlerts(alerts: readonly ActiveAlert[], url: string): Alert[] {
  return alerts.map((a) => ({
    labels: a.labels,
    annotations: a.annotations,
    startsAt: a.firedAtMs ?? a.activeAtMs,
    endsAt: a.resolvedAtMs ?? a.validUntilMs ?? a.activeAtMs,
    generatorURL: url,
  }));
}

/** Appends stale markers for `series` at `tMs` in one appender; expected append errors are ignored. Reports success. */
export async function writeStaleMarkers(appendable: Appendable, series: readonly Labels[], tMs: UnixMs, logger: Logger, group: string): Promise<boolean> {
  if (series.length === 0) return true;
  const app = appendable.appender();
  for (const s of series) {
    try {
      app.append(0, s, tMs, STALE_NAN);
    } catch (e) {
      if (!isExpectedAppendError(e)) logger.warn('adding stale sample for previous configuration failed', { group, sample: s.toString(), err: errorMessage(e) });
    }
  }
  try {
    await app.commit();
    return true;
  } catch (e) {
    logger.warn('stale sample appending for previous configuration failed', { group, err: errorMessage(e) });
    return false;
  }
}

/**
 * Evaluates every rule of the group at `evalTimeMs`, in order. Stops before the next rule once
 * `signal` aborts; the rule that was running records the abort as its error.
 */
export async function evaluateGroup(g: GroupEvalState, evalTimeMs: UnixMs, signal: AbortSignal, ports: GroupEvalPorts): Promise<void> {
  let samplesTotal = 0;
  const outMs = evalTimeMs - g.queryOffsetMs;
  const ctx: RuleEvalContext = { query: ports.query, evalTimeMs, queryOffsetMs: g.queryOffsetMs, limit: g.limit, signal };
  for (let i = 0; i < g.rules.length; i++) {
    if (signal.aborted) break;
    const rule = g.rules[i];
    const startMs = ports.clock();
    g.metrics.evaluations++;
    const fail = (msg: string): void => {
      rule.health = 'err';
      rule.lastError = msg;
      g.metrics.evaluationFailures++;
    };
    try {
      let vector: RuleVector;
      try {
        vector = await rule.eval(ctx);
      } catch (e) {
        fail(errorMessage(e));
        if (!(e instanceof EvaluationAborted)) ports.logger.warn('evaluating rule failed', { group: g.name, name: rule.name, index: i, err: errorMessage(e) });
        continue;
      }
      rule.health = 'ok';
      rule.lastError = undefined;
      samplesTotal += vector.length;
      if (rule.kind === 'alerting' && ports.notify !== undefined) {
        const due = rule.alertsToSend(evalTimeMs, ports.resendDelayMs, g.intervalMs);
        if (due.length > 0) ports.notify.send(toNotifierAlerts(due, generatorURL(ports.externalURL, rule.query)));
      }
      const app = ports.appendable.appender();
      const returned = new Map<string, Labels>();
      for (const s of vector) {
        try {
          app.append(0, s.labels, s.tMs, s.value);
          returned.set(s.labels.key(), s.labels);
        } catch (e) {
          rule.health = 'err';
          rule.lastError = errorMessage(e);
          if (!isExpectedAppendError(e)) ports.logger.warn('rule evaluation result discarded', { group: g.name, name: rule.name, err: errorMessage(e), sample: s.labels.toString() });
        }
      }
      for (const [key, labels] of g.seriesInPreviousEval[i]) {
        if (returned.has(key)) continue;
        try {
          app.append(0, labels, outMs, STALE_NAN);
        } catch (e) {
          if (!isExpectedAppendError(e)) ports.logger.warn('adding stale sample failed', { group: g.name, name: rule.name, sample: labels.toString(), err: errorMessage(e) });
        }
      }
      try {
        await app.commit();
        g.seriesInPreviousEval[i] = returned;
      } catch (e) {
        fail(errorMessage(e));
        ports.logger.warn('rule sample appending failed', { group: g.name, name: rule.name, err: errorMessage(e) });
      }
    } finally {
      rule.evaluationDurationMs = ports.clock() - startMs;
      rule.lastEvaluationMs = startMs;
    }
  }
  g.metrics.lastSamples = samplesTotal;
  if (g.staleSeries.length > 0 && (await writeStaleMarkers(ports.appendable, g.staleSeries, outMs, ports.logger, g.name))) g.staleSeries = [];
}

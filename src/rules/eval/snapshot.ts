/**
 * What `/api/v1/rules` and `/api/v1/alerts` of Prometheus 2.42 show, taken from the running
 * groups as plain data (times in Unix ms, durations in ms), and the functions that turn it into
 * Prometheus' JSON (`rulesApiData`, `alertsApiData`) for the server to answer with.
 */
import { formatGoFloatE, type DurationMs, type UnixMs } from '../../model/index.js';
import type { AlertState } from './alerting-rule.js';
import type { GroupMetrics } from './group-eval.js';
import type { RuleGroup } from './group.js';
import type { RuleHealth } from './rule.js';

/** One alert as `/api/v1/alerts` lists it. */
export interface AlertSnapshot {
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  readonly state: AlertState;
  readonly activeAtMs: UnixMs;
  /** Go's `strconv.FormatFloat(v, 'e', -1, 64)`, as Prometheus 2.42 writes it (`1e+00`). */
  readonly value: string;
  readonly keepFiringSinceMs: UnixMs | undefined;
}

/** What both rule kinds show. */
interface RuleSnapshotBase {
  readonly name: string;
  /** The expression as Prometheus prints it (the manager's `formatExpr`). */
  readonly query: string;
  readonly labels: Record<string, string>;
  readonly health: RuleHealth;
  readonly lastError: string | undefined;
  readonly evaluationTimeMs: DurationMs;
  /** Undefined before the first evaluation (Go's zero time on the wire). */
  readonly lastEvaluationMs: UnixMs | undefined;
}

/** A recording rule's entry. */
export interface RecordingRuleSnapshot extends RuleSnapshotBase {
  readonly type: 'recording';
}

/** An alerting rule's entry, with its active (not resolved) alerts. */
export interface AlertingRuleSnapshot extends RuleSnapshotBase {
  readonly type: 'alerting';
  readonly state: AlertState | 'unknown';
  readonly durationMs: DurationMs;
  readonly keepFiringForMs: DurationMs;
  readonly annotations: Record<string, string>;
  readonly alerts: readonly AlertSnapshot[];
}

/** A rule's entry. */
export type RuleSnapshot = RecordingRuleSnapshot | AlertingRuleSnapshot;

/** A group's entry, with the counters the server exposes as self-metrics. */
export interface GroupSnapshot {
  readonly name: string;
  readonly file: string;
  readonly intervalMs: DurationMs;
  readonly queryOffsetMs: DurationMs;
  readonly limit: number;
  readonly evaluationTimeMs: DurationMs;
  readonly lastEvaluationMs: UnixMs | undefined;
  readonly rules: readonly RuleSnapshot[];
  readonly metrics: Readonly<GroupMetrics>;
}

/** Every group, sorted by file then name as Prometheus lists them. */
export interface RulesSnapshot {
  readonly groups: readonly GroupSnapshot[];
}

/** Takes the snapshot of `groups`. */
export function snapshotGroups(groups: readonly RuleGroup[]): RulesSnapshot {
  const sorted = [...groups].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    groups: sorted.map((g) => ({
      name: g.name,
      file: g.file,
      intervalMs: g.intervalMs,
      queryOffsetMs: g.queryOffsetMs,
      limit: g.limit,
      evaluationTimeMs: g.evaluationDurationMs,
      lastEvaluationMs: g.lastEvaluationMs,
      metrics: { ...g.metrics },
      rules: g.rules.map((r): RuleSnapshot => {
        const base = {
          name: r.name,
          query: r.query,
          labels: r.labels.toRecord(),
          health: r.health,
          lastError: r.lastError,
          evaluationTimeMs: r.evaluationDurationMs,
          lastEvaluationMs: r.lastEvaluationMs,
        };
        if (r.kind === 'recording') return { type: 'recording', ...base };
        return {
          type: 'alerting',
          ...base,
          state: r.state(),
          durationMs: r.spec.forMs,
          keepFiringForMs: r.spec.keepFiringForMs,
          annotations: r.annotations.toRecord(),
          alerts: r.activeAlerts().map((a) => ({
            labels: a.labels.toRecord(),
            annotations: a.annotations.toRecord(),
            state: a.state,
            activeAtMs: a.activeAtMs,
            value: formatGoFloatE(a.value),
            keepFiringSinceMs: a.keepFiringSinceMs,
          })),
        };
      }),
    })),
  };
}

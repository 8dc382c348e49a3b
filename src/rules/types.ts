import type { DurationMs, Labels, UnixMs } from '../model/index.js';

/**
 * The shapes the parts of `src/rules` hand each other: the rule file loader produces
 * `RuleGroupSpec`s, the evaluator runs them, expands annotations through a `TemplateExpander`
 * and hands firing and resolved alerts to a `NotifySink`. Each part is tested on its own against
 * these types; `src/server` wires them together.
 */

/** Where something sits in a rule file: 1-based line and column, as promtool reports them. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** What recording and alerting rules share. */
interface RuleSpecBase {
  /** The PromQL expression, as written (it parsed when the file was loaded). */
  readonly expr: string;
  /** Labels added to (or overriding those of) every result; for alerts, template text. */
  readonly labels: Readonly<Record<string, string>>;
  /** The rule's position: the line and column of its first key. */
  readonly position: Position;
}

/** A recording rule: `record` names the series that takes the expression's result. */
export interface RecordingRuleSpec extends RuleSpecBase {
  readonly kind: 'recording';
  readonly record: string;
}

/** An alerting rule, Prometheus' `rulefmt.Rule` with `alert:` set. */
export interface AlertingRuleSpec extends RuleSpecBase {
  readonly kind: 'alerting';
  readonly alert: string;
  /** How long a result must persist before the alert fires (`for`, 0: at once). */
  readonly forMs: DurationMs;
  /** How long a firing alert keeps firing once its result is gone (`keep_firing_for`, 0: not at all). */
  readonly keepFiringForMs: DurationMs;
  /** Annotation templates, in file order. */
  readonly annotations: Readonly<Record<string, string>>;
}

/** One rule of a group. */
export type RuleSpec = RecordingRuleSpec | AlertingRuleSpec;

/** A rule group as loaded from a file; the evaluator's unit of scheduling. */
export interface RuleGroupSpec {
  readonly name: string;
  /** The file it came from, as given (a group is identified by file and name, as in Prometheus). */
  readonly file: string;
  /** `interval`; undefined means the global `evaluation_interval`. */
  readonly intervalMs: DurationMs | undefined;
  /** `query_offset`: evaluate as of this long ago; undefined means the global `rule_query_offset` (0). */
  readonly queryOffsetMs: DurationMs | undefined;
  /** `limit`: the most series a recording rule or alerts an alerting rule may produce (0: no limit). */
  readonly limit: number;
  readonly rules: readonly RuleSpec[];
  /** The group's position in its file. */
  readonly position: Position;
}

/** What an alert's label and annotation templates see: Prometheus' `$labels`, `$value`, `$externalLabels`, `$externalURL`. */
export interface TemplateData {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
  readonly externalLabels: Readonly<Record<string, string>>;
  readonly externalURL: string;
}

/**
 * Renders one label or annotation template (Go text/template with Prometheus' functions).
 * `name` names the template in error messages (`__alert_HighLatency`). It never rejects: as in
 * Prometheus, a template that fails to parse or run yields `<error expanding template: ...>`.
 * `evalTimeMs` is the evaluation time that the `query` function evaluates at.
 */
export interface TemplateExpander {
  expand(name: string, text: string, data: TemplateData, evalTimeMs: UnixMs): Promise<string>;
}

/** An alert on its way to Alertmanager: Prometheus' `notifier.Alert`. */
export interface Alert {
  readonly labels: Labels;
  readonly annotations: Labels;
  readonly startsAt: UnixMs;
  /** For a firing alert: when it ends unless resent (now + 4 × the resend delay or group interval); for a resolved one: when it resolved. */
  readonly endsAt: UnixMs;
  readonly generatorURL: string;
}

/** Where the evaluator hands alerts to send (the notifier); fire and forget. */
export interface NotifySink {
  send(alerts: readonly Alert[]): void;
}

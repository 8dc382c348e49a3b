/**
 * A recording rule (Prometheus' rules/recording.go): the expression's result renamed to `record`,
 * with the rule's labels set over each result's labels.
 */
import { Labels, METRIC_NAME_LABEL, type DurationMs, type UnixMs } from '../../model/index.js';
import type { RecordingRuleSpec } from '../types.js';
import { containsSameLabelset, queryVector, safeFormat, type RuleEvalContext, type RuleHealth, type RuleVector } from './rule.js';

/** The error of a recording rule whose output has two series with one label set. */
export const ERR_SAME_LABELSET_RECORDING = 'vector contains metrics with the same labelset after applying rule labels';

/** A recording rule and its evaluation state. */
export class RecordingRule {
  readonly kind = 'recording' as const;
  /** The expression as queried and shown (`formatExpr` of the spec's text). */
  readonly query: string;
  /** The rule's labels (without empty ones, which remove a label from the output). */
  readonly labels: Labels;
  health: RuleHealth = 'unknown';
  lastError: string | undefined;
  /** When the last evaluation started (the clock's time), undefined before the first. */
  lastEvaluationMs: UnixMs | undefined;
  evaluationDurationMs: DurationMs = 0;

  constructor(
    readonly spec: RecordingRuleSpec,
    formatExpr: (expr: string) => string,
  ) {
    this.query = safeFormat(formatExpr, spec.expr);
    this.labels = Labels.from(spec.labels);
  }

  /** The rule's name (`record`). */
  get name(): string {
    return this.spec.record;
  }

  /** Evaluates the rule; rejects with the message `/api/v1/rules` shows as `lastError`. */
  async eval(ctx: RuleEvalContext): Promise<RuleVector> {
    const tMs = ctx.evalTimeMs - ctx.queryOffsetMs;
    const vector = await queryVector(ctx.query, this.query, tMs, ctx.signal);
    const out = vector.map((s) => {
      const flat = [...s.labels.flat(), METRIC_NAME_LABEL, this.spec.record, ...Object.entries(this.spec.labels).flat()];
      return { labels: Labels.fromPairs(flat), tMs, value: s.value };
    });
    if (containsSameLabelset(out)) throw new Error(ERR_SAME_LABELSET_RECORDING);
    if (ctx.limit > 0 && out.length > ctx.limit) throw new Error(`exceeded limit of ${ctx.limit} with ${out.length} series`);
    return out;
  }
}

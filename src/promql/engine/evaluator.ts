import { Labels } from '../../model/index.js';
import type { Expr, StepInvariantExpr, SubqueryExpr } from '../parser/ast.js';
import { QueryError } from '../errors.js';
import type { Matrix, Series } from '../value.js';
import { evalAggregate } from './aggregate.js';
import { evalBinary } from './binary.js';
import { evalCall } from './call.js';
import type { QueryContext } from './context.js';
import { evalFusedAggregate, fusedAggregatePlan } from './fused-aggregate.js';
import { assertNoDuplicateSeries, dropMetricName } from './labels.js';
import { evalMatrixSelector, evalVectorSelector } from './selectors.js';

/** What evaluating a node gives: a matrix (vectors and scalars over all steps, or a range vector) or a string. */
export type EvalResult = { readonly kind: 'matrix'; readonly m: Matrix } | { readonly kind: 'string'; readonly v: string };

/**
 * Evaluates an expression over the steps `startMs, startMs + intervalMs, ..., endMs`, as
 * Prometheus' `evaluator`: every instant-vector or scalar node yields a matrix with one point per
 * step where it has a value (a scalar is one series with empty labels). An instant query is a
 * range query with one step. Subqueries and step-invariant subtrees run in child evaluators over
 * their own steps, sharing the query's `QueryContext`.
 */
export class Evaluator {
  /** Number of steps. */
  readonly steps: number;

  constructor(
    readonly ctx: QueryContext,
    readonly startMs: number,
    readonly endMs: number,
    readonly intervalMs: number,
  ) {
    this.steps = intervalMs > 0 ? Math.floor((endMs - startMs) / intervalMs) + 1 : 1;
  }

  /** The timestamp of step `i`. */
  stepTime(i: number): number {
    return this.startMs + i * this.intervalMs;
  }

  /** Evaluates a node whose type is instant vector or scalar and returns its matrix. */
  async evalMatrix(e: Expr): Promise<Matrix> {
    const r = await this.eval(e);
    if (r.kind !== 'matrix') throw new QueryError('internal', `expected a matrix from ${e.type}, got a string`);
    return r.m;
  }

  /**
   * Evaluates any node. Evaluation is asynchronous only to yield to the event loop now and then
   * (`QueryContext.pause`); it never waits for anything else.
   */
  async eval(e: Expr): Promise<EvalResult> {
    if (this.ctx.check()) await this.ctx.pause();
    switch (e.type) {
      case 'AggregateExpr': {
        const fused = this.ctx.init.fusedPaths ? fusedAggregatePlan(e) : null;
        return matrix(await (fused ? evalFusedAggregate(this, fused) : evalAggregate(this, e)));
      }
      case 'BinaryExpr':
        return matrix(await evalBinary(this, e));
      case 'Call':
        return evalCall(this, e);
      case 'MatrixSelector':
        return matrix(await evalMatrixSelector(this, e));
      case 'NumberLiteral':
        return matrix(this.constant(e.value));
      case 'DurationExpr':
        throw new QueryError('internal', 'unfolded duration expression');
      case 'ParenExpr':
        return this.eval(e.expr);
      case 'StringLiteral':
        return { kind: 'string', v: e.value };
      case 'UnaryExpr':
        return this.evalUnary(e.op, e.expr);
      case 'VectorSelector':
        return matrix(await evalVectorSelector(this, e));
      case 'SubqueryExpr':
        return matrix(await this.evalSubquery(e));
      case 'StepInvariantExpr':
        return this.evalStepInvariant(e);
    }
  }

  /** A scalar with the same value at every step. */
  constant(v: number): Matrix {
    this.ctx.addSamples(this.steps, 'scalar');
    const t = new Array<number>(this.steps);
    const f = new Array<number>(this.steps);
    for (let i = 0; i < this.steps; i++) {
      t[i] = this.stepTime(i);
      f[i] = v;
    }
    return [{ metric: Labels.EMPTY, t, f, dropName: false }];
  }

  /** Drops `__name__` now, or marks it for dropping at the end when delayed removal is on. */
  markDropName(s: Series): void {
    if (this.ctx.init.delayedNameRemoval) s.dropName = true;
    else s.metric = dropMetricName(s.metric);
  }

  private async evalUnary(op: '-' | '+', inner: Expr): Promise<EvalResult> {
    const r = await this.eval(inner);
    if (op === '+' || r.kind !== 'matrix') return r;
    for (const s of r.m) {
      for (let i = 0; i < s.f.length; i++) s.f[i] = -s.f[i];
      this.markDropName(s);
    }
    if (!this.ctx.init.delayedNameRemoval) assertNoDuplicateSeries(r.m);
    return r;
  }

  /**
   * Evaluates the inside of a subquery over its own steps: aligned to multiples of its step,
   * starting at the first one after `start - offset - range`.
   */
  async evalSubquery(e: SubqueryExpr): Promise<Matrix> {
    const intervalMs = e.stepMs > 0 ? e.stepMs : this.ctx.init.noStepSubqueryIntervalMs;
    const evalStart = e.timestampMs ?? this.startMs;
    const evalEnd = e.timestampMs ?? this.endMs;
    const from = evalStart - e.offsetMs - e.rangeMs;
    let start = intervalMs * Math.trunc(from / intervalMs);
    if (start <= from) start += intervalMs;
    const child = new Evaluator(this.ctx, start, evalEnd - e.offsetMs, intervalMs);
    if (child.endMs < child.startMs) return [];
    return child.evalMatrix(e.expr);
  }

  private async evalStepInvariant(e: StepInvariantExpr): Promise<EvalResult> {
    const inner = e.expr;
    if (inner.type === 'StringLiteral' || inner.type === 'NumberLiteral') return this.eval(inner);
    const child = new Evaluator(this.ctx, this.startMs, this.startMs, this.intervalMs);
    const r = await child.eval(inner);
    if (r.kind !== 'matrix') return r;
    let unwrapped: Expr = inner;
    while (unwrapped.type === 'ParenExpr') unwrapped = unwrapped.expr;
    if (unwrapped.type === 'MatrixSelector' || unwrapped.type === 'SubqueryExpr' || this.steps === 1) return r;
    // The value is the same at every step; only its timestamps change.
    for (const s of r.m) {
      if (this.ctx.check(this.steps)) await this.ctx.pause();
      if (s.f.length !== 1) continue;
      const v = s.f[0];
      this.ctx.addSamples(this.steps - 1, 'step invariant expression');
      for (let i = 1; i < this.steps; i++) {
        s.t.push(this.stepTime(i));
        s.f.push(v);
      }
    }
    return r;
  }
}

function matrix(m: Matrix): EvalResult {
  return { kind: 'matrix', m };
}

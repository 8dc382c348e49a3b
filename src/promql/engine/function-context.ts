import type { Expr } from '../parser/ast.js';
import type { Annotations } from '../annotations.js';
import type { FunctionContext } from '../functions/types.js';
import type { Evaluator } from './evaluator.js';

/** The engine's `FunctionContext`: one object per call site, updated in place at every step. */
export class FunctionContextImpl implements FunctionContext {
  tMs = 0;
  rangeStartMs = 0;
  rangeEndMs = 0;
  anchored = false;
  smoothed = false;
  readonly annotations: Annotations;
  readonly lookbackDeltaMs: number;
  readonly queryStartMs: number;
  readonly queryEndMs: number;
  readonly queryStepMs: number;

  constructor(
    ev: Evaluator,
    readonly args: readonly Expr[],
  ) {
    const init = ev.ctx.init;
    this.annotations = init.annotations;
    this.lookbackDeltaMs = init.lookbackDeltaMs;
    this.queryStartMs = init.frame.startMs;
    this.queryEndMs = init.frame.endMs;
    this.queryStepMs = init.frame.stepMs;
  }
}

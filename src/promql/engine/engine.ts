import type { Queryable } from '../../storage/index.js';
import { Annotations } from '../annotations.js';
import { QueryError } from '../errors.js';
import { exprType, type Expr } from '../parser/ast.js';
import { ParseError, parseExpr, type ParserOptions } from '../parser/index.js';
import type { Matrix, Value, Vector } from '../value.js';
import { QueryContext } from './context.js';
import { Evaluator } from './evaluator.js';
import { Gate } from './gate.js';
import { finishNameRemoval } from './labels.js';
import { preprocessExpr, type QueryFrame } from './preprocess.js';
import { queryTimeRange } from './time-range.js';
import type { QueryEngine, QueryOptions, QueryResult } from './types.js';

/** Engine settings; the defaults are Prometheus 3's. */
export interface EngineOptions {
  /** How far back an instant selector looks (default 5 m). */
  readonly lookbackDeltaMs?: number;
  /** Per-query wall-clock budget (default 2 m). */
  readonly timeoutMs?: number;
  /** Most samples a query may hold in memory at once (default 50,000,000). */
  readonly maxSamples?: number;
  /** Queries evaluated at once; further ones wait (default 20). */
  readonly maxConcurrent?: number;
  /** Step of subqueries written without one, `x[5m:]` (default 1 m: Prometheus uses the global evaluation interval). */
  readonly noStepSubqueryIntervalMs?: number;
  /** `--enable-feature=promql-experimental-functions` (also `limitk`, `limit_ratio`). */
  readonly enableExperimentalFunctions?: boolean;
  /** `--enable-feature=promql-duration-expr`. */
  readonly enableDurationExpressions?: boolean;
  /** `--enable-feature=promql-extended-range-selectors` (`anchored`, `smoothed`). */
  readonly enableExtendedRangeSelectors?: boolean;
  /** `--enable-feature=promql-binop-fill-modifiers`. */
  readonly enableBinopFillModifiers?: boolean;
  /** `--enable-feature=promql-delayed-name-removal`: drop `__name__` at the end of evaluation. */
  readonly enableDelayedNameRemoval?: boolean;
  /**
   * How long (ms) queries may hold the event loop before they yield to other work (default 10):
   * `/-/healthy`, other requests and a client's disconnect are served in between. Queries
   * evaluating at once share it (each yields after its share), so a turn of the loop stays short.
   */
  readonly yieldEveryMs?: number;
  /**
   * Evaluate the hot shapes (`sum by (…) (rate(x[w]))`, `histogram_quantile` over such a sum, see
   * fused-aggregate.ts) in one pass over the selected series (default true). The results are the
   * general path's to the bit; false runs the general path, for the differential test.
   */
  readonly fusedPaths?: boolean;
  /** Wall clock (ms), injected for tests. */
  readonly now?: () => number;
}

/** The embedded PromQL engine. It reads storage only through `Queryable`. */
export class Engine implements QueryEngine {
  private readonly gate: Gate;
  /** Queries evaluating now; they share `yieldEveryMs` of each turn of the event loop. */
  private evaluating = 0;
  readonly parserOptions: ParserOptions;

  constructor(readonly options: EngineOptions = {}) {
    this.gate = new Gate(options.maxConcurrent ?? 20);
    this.parserOptions = {
      enableExperimentalFunctions: options.enableExperimentalFunctions ?? false,
      enableDurationExpressions: options.enableDurationExpressions ?? false,
      enableExtendedRangeSelectors: options.enableExtendedRangeSelectors ?? false,
      enableBinopFillModifiers: options.enableBinopFillModifiers ?? false,
    };
  }

  /** Parses a query with this engine's feature flags; parse errors become `bad_data` query errors. */
  parse(query: string): Expr {
    try {
      return parseExpr(query, this.parserOptions);
    } catch (err: unknown) {
      if (err instanceof ParseError) throw new QueryError('bad_data', err.message);
      throw err;
    }
  }

  async instantQuery(queryable: Queryable, query: string | Expr, tMs: number, opts: QueryOptions = {}): Promise<QueryResult> {
    const expr = typeof query === 'string' ? this.parse(query) : query;
    return this.run(queryable, expr, { startMs: tMs, endMs: tMs, stepMs: 0 }, opts);
  }

  async rangeQuery(
    queryable: Queryable,
    query: string | Expr,
    startMs: number,
    endMs: number,
    stepMs: number,
    opts: QueryOptions = {},
  ): Promise<QueryResult> {
    const expr = typeof query === 'string' ? this.parse(query) : query;
    const t = exprType(expr);
    if (t !== 'vector' && t !== 'scalar') {
      const documented = t === 'matrix' ? 'range vector' : t;
      throw new QueryError('bad_data', `invalid expression type "${documented}" for range query, must be Scalar or instant Vector`);
    }
    if (stepMs <= 0) throw new QueryError('bad_data', 'zero or negative query resolution step widths are not accepted. Try a positive integer');
    if (endMs < startMs) throw new QueryError('bad_data', 'end timestamp must not be before start time');
    return this.run(queryable, expr, { startMs, endMs, stepMs }, opts);
  }

  private async run(queryable: Queryable, parsed: Expr, frame: QueryFrame, opts: QueryOptions): Promise<QueryResult> {
    const now = this.options.now ?? Date.now;
    const timeoutMs = opts.timeoutMs ?? this.options.timeoutMs ?? 120_000;
    const yieldEveryMs = this.options.yieldEveryMs ?? 10;
    const release = await this.gate.acquire(opts.signal);
    this.evaluating++;
    const began = now();
    try {
      const lookbackDeltaMs = opts.lookbackDeltaMs ?? this.options.lookbackDeltaMs ?? 300_000;
      const expr = preprocessExpr(parsed, frame);
      const { minT, maxT } = queryTimeRange(expr, frame, lookbackDeltaMs);
      const querier = queryable.querier(minT, maxT);
      const annotations = new Annotations();
      const ctx = new QueryContext({
        querier,
        frame,
        lookbackDeltaMs,
        maxSamples: this.options.maxSamples ?? 50_000_000,
        noStepSubqueryIntervalMs: this.options.noStepSubqueryIntervalMs ?? 60_000,
        delayedNameRemoval: this.options.enableDelayedNameRemoval ?? false,
        fusedPaths: this.options.fusedPaths ?? true,
        annotations,
        now,
        deadlineMs: began + timeoutMs,
        signal: opts.signal,
        sliceMs: () => yieldEveryMs / Math.max(1, this.evaluating),
      });
      try {
        ctx.checkNow();
        const ev = new Evaluator(ctx, frame.startMs, frame.endMs, frame.stepMs);
        const r = await ev.eval(expr);
        const value = toValue(r.kind === 'string' ? r.v : r.m, exprType(parsed), frame);
        return {
          value,
          warnings: annotations.warnings,
          infos: annotations.infos,
          stats: {
            totalQueryableSamples: ctx.totalQueryableSamples,
            peakSamples: ctx.peakSamples,
            evalTotalTimeSec: (now() - began) / 1000,
          },
        };
      } finally {
        querier.close();
      }
    } finally {
      this.evaluating--;
      release();
    }
  }
}

function toValue(r: Matrix | string, type: ReturnType<typeof exprType>, frame: QueryFrame): Value {
  if (typeof r === 'string') return { type: 'string', t: frame.startMs, v: r };
  const isRange = frame.stepMs > 0;
  if (type === 'scalar') {
    if (isRange) return { type: 'matrix', v: r.map((s) => ({ ...s, dropName: false })) };
    return { type: 'scalar', t: frame.startMs, v: r[0]?.f[0] ?? NaN };
  }
  const m = finishNameRemoval(r);
  if (isRange || type === 'matrix') {
    if (isRange) m.sort((a, b) => a.metric.compare(b.metric));
    return { type: 'matrix', v: m };
  }
  const v: Vector = [];
  for (const s of m) {
    if (s.t.length > 0) v.push({ metric: s.metric, t: frame.startMs, f: s.f[0], dropName: false });
  }
  return { type: 'vector', v };
}

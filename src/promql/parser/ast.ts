import type { Matcher } from '../../model/index.js';

/**
 * The typed syntax tree of a PromQL expression. Node and field names follow Prometheus'
 * `promql/parser/ast.go` so that readers who know the Go engine find their way; times are
 * milliseconds and say so in their names.
 *
 * Nodes are plain readonly objects discriminated by `type`. The parser builds them; the engine's
 * preprocessing pass may produce new nodes (it never mutates the parser's tree).
 */
export type Expr =
  | AggregateExpr
  | BinaryExpr
  | Call
  | DurationExpr
  | MatrixSelector
  | NumberLiteral
  | ParenExpr
  | StepInvariantExpr
  | StringLiteral
  | SubqueryExpr
  | UnaryExpr
  | VectorSelector;

/** The four value types of PromQL, plus `none` for nodes that have no value type. */
export type ValueType = 'scalar' | 'vector' | 'matrix' | 'string' | 'none';

/** A half-open byte range `[start, end)` of the query text a node came from. */
export interface PositionRange {
  readonly start: number;
  readonly end: number;
}

/** Aggregation operators; the parser lower-cases them (`SUM` is `sum`). */
export type AggregateOp =
  | 'sum'
  | 'avg'
  | 'count'
  | 'min'
  | 'max'
  | 'group'
  | 'stddev'
  | 'stdvar'
  | 'topk'
  | 'bottomk'
  | 'count_values'
  | 'quantile'
  | 'limitk'
  | 'limit_ratio';

/** Arithmetic binary operators. */
export type ArithmeticOp = '+' | '-' | '*' | '/' | '%' | '^' | 'atan2';
/** Comparison binary operators; they filter unless `bool` is given. */
export type ComparisonOp = '==' | '!=' | '>' | '<' | '>=' | '<=';
/** Set operators; only valid between two instant vectors. */
export type SetOp = 'and' | 'or' | 'unless';
/**
 * Native-histogram trim operators (Prometheus 3.11+): `h </ x` keeps the observations below x,
 * `h >/ x` those above. They bind like comparisons but are not comparisons (no `bool`).
 */
export type TrimOp = '</' | '>/';
/** Every binary operator. */
export type BinaryOp = ArithmeticOp | ComparisonOp | SetOp | TrimOp;

/** `sum by (job) (x)`, `topk(3, x)`, `count_values("v", x)`. */
export interface AggregateExpr {
  readonly type: 'AggregateExpr';
  readonly op: AggregateOp;
  /** The vector being aggregated. */
  readonly expr: Expr;
  /** The parameter of `topk`, `bottomk`, `quantile`, `count_values`, `limitk`, `limit_ratio`. */
  readonly param: Expr | null;
  /** Label names of `by (...)` or `without (...)`, in written order. */
  readonly grouping: readonly string[];
  /** True for `without`, false for `by` or no clause. */
  readonly without: boolean;
  /**
   * True when a `by`/`without` clause was written, even an empty one. (The printer follows
   * Prometheus: it keeps `without ()` but drops `by ()`.)
   */
  readonly hasGrouping: boolean;
  readonly pos: PositionRange;
}

/** How the two sides of a vector/vector binary operation are matched. */
export type VectorMatchCardinality = 'one-to-one' | 'many-to-one' | 'one-to-many' | 'many-to-many';

/** `on(...)`/`ignoring(...)`, `group_left(...)`/`group_right(...)` and `fill*` of a binary expression. */
export interface VectorMatching {
  readonly card: VectorMatchCardinality;
  /** Labels of `on(...)` (when `on`) or `ignoring(...)` (when not `on`). */
  readonly matchingLabels: readonly string[];
  /** True for `on`, false for `ignoring` or no clause. */
  readonly on: boolean;
  /** Extra labels copied from the "one" side by `group_left(...)`/`group_right(...)`. */
  readonly include: readonly string[];
  /**
   * Values used in place of a missing match on either side (`fill(v)`, `fill_left(v)`,
   * `fill_right(v)`); null where no fill was given.
   */
  readonly fillValues: { readonly lhs: number | null; readonly rhs: number | null };
}

/** `a + b`, `a > bool b`, `a and on(job) b`. */
export interface BinaryExpr {
  readonly type: 'BinaryExpr';
  readonly op: BinaryOp;
  readonly lhs: Expr;
  readonly rhs: Expr;
  /** Set when both sides are instant vectors (also without explicit clauses); null otherwise. */
  readonly matching: VectorMatching | null;
  /** True when `bool` was given on a comparison. */
  readonly returnBool: boolean;
  readonly pos: PositionRange;
}

/** A function call; `func` is the looked-up definition. */
export interface Call {
  readonly type: 'Call';
  readonly func: FunctionDef;
  readonly args: readonly Expr[];
  readonly pos: PositionRange;
}

/** The signature of a PromQL function, as `promql/parser/functions.go` declares it. */
export interface FunctionDef {
  readonly name: string;
  readonly argTypes: readonly ValueType[];
  /** 0: exactly `argTypes.length` args; n > 0: up to n more of the last type; -1: unbounded. */
  readonly variadic: number;
  readonly returnType: ValueType;
  /** Needs `enableExperimentalFunctions`. */
  readonly experimental: boolean;
}

/**
 * Duration arithmetic inside `[...]`, after `offset` and as a subquery step, enabled by the
 * `promql-duration-expr` feature: `foo[5m + 1m]`, `offset (step() * 2)`, `min_of(step(), 1s)`.
 * Operands are `NumberLiteral`s (durations become seconds), nested `DurationExpr`s, and the
 * nullary `step()`, `start()`, `end()`, `range()`. The engine folds these to milliseconds before
 * evaluating.
 */
export interface DurationExpr {
  readonly type: 'DurationExpr';
  /** Binary arithmetic, unary `-`/`+` (`rhs` only), or a nullary/binary duration function. */
  readonly op:
    | '+'
    | '-'
    | '*'
    | '/'
    | '%'
    | '^'
    | 'step'
    | 'start'
    | 'end'
    | 'range'
    | 'min_of'
    | 'max_of';
  /** Null for unary operators and nullary functions. */
  readonly lhs: Expr | null;
  /** Null for nullary functions. */
  readonly rhs: Expr | null;
  /** True when written in parentheses (the printer keeps them). */
  readonly wrapped: boolean;
  readonly pos: PositionRange;
}

/** `foo[5m]`, `foo[5m] anchored`, `foo[5m + step()]`. */
export interface MatrixSelector {
  readonly type: 'MatrixSelector';
  readonly vectorSelector: VectorSelector;
  /** The range; 0 when `rangeExpr` must be folded first. */
  readonly rangeMs: number;
  /** Set when the range was written as a duration expression. */
  readonly rangeExpr: DurationExpr | null;
  readonly pos: PositionRange;
}

/** `x[1h:5m]`, `x[1h:]` (step defaults to the engine's subquery step), with offset and `@`. */
export interface SubqueryExpr {
  readonly type: 'SubqueryExpr';
  readonly expr: Expr;
  readonly rangeMs: number;
  readonly rangeExpr: DurationExpr | null;
  /** 0 when not given. */
  readonly stepMs: number;
  readonly stepExpr: DurationExpr | null;
  /** The offset as written (may be negative). */
  readonly offsetMs: number;
  readonly offsetExpr: DurationExpr | null;
  /** `@ <t>` in milliseconds, or null. */
  readonly timestampMs: number | null;
  /** `@ start()` / `@ end()`, resolved by the engine; null otherwise. */
  readonly startOrEnd: 'start' | 'end' | null;
  readonly pos: PositionRange;
}

/** A number: `1`, `0x1f`, `1e3`, `Inf`, `NaN`, `1_000`, `2.`, or a duration used as seconds. */
export interface NumberLiteral {
  readonly type: 'NumberLiteral';
  readonly value: number;
  /** True when written as a duration (`5m` in a duration expression); printed as one. */
  readonly duration: boolean;
  readonly pos: PositionRange;
}

/** `( expr )`. */
export interface ParenExpr {
  readonly type: 'ParenExpr';
  readonly expr: Expr;
  readonly pos: PositionRange;
}

/** Engine-internal wrapper: the subtree yields the same value at every step (evaluate once). */
export interface StepInvariantExpr {
  readonly type: 'StepInvariantExpr';
  readonly expr: Expr;
  readonly pos: PositionRange;
}

/** `"text"`, `'text'` or `` `raw` ``, unquoted. */
export interface StringLiteral {
  readonly type: 'StringLiteral';
  readonly value: string;
  readonly pos: PositionRange;
}

/** `-x` or `+x`. */
export interface UnaryExpr {
  readonly type: 'UnaryExpr';
  readonly op: '-' | '+';
  readonly expr: Expr;
  readonly pos: PositionRange;
}

/** `foo{job="x"}`, `{__name__=~"a.*"}`, `{"utf8.name"}`, with offset and `@`. */
export interface VectorSelector {
  readonly type: 'VectorSelector';
  /**
   * The metric name when written outside the braces, else '' (as in Prometheus, a quoted name
   * inside the braces, `{"a.b"}`, is only a `__name__` matcher).
   */
  readonly name: string;
  /** Every matcher, including the `__name__` matcher derived from `name`. */
  readonly matchers: readonly Matcher[];
  /** The offset as written (may be negative); 0 when none. */
  readonly offsetMs: number;
  readonly offsetExpr: DurationExpr | null;
  readonly timestampMs: number | null;
  readonly startOrEnd: 'start' | 'end' | null;
  /** `anchored` range modifier (experimental extended range selectors). */
  readonly anchored: boolean;
  /** `smoothed` range modifier (experimental extended range selectors). */
  readonly smoothed: boolean;
  readonly pos: PositionRange;
}

/** Returns the value type an expression evaluates to. */
export function exprType(e: Expr): ValueType {
  switch (e.type) {
    case 'AggregateExpr':
      return 'vector';
    case 'BinaryExpr':
      return exprType(e.lhs) === 'scalar' && exprType(e.rhs) === 'scalar' ? 'scalar' : 'vector';
    case 'Call':
      return e.func.returnType;
    case 'DurationExpr':
    case 'NumberLiteral':
      return 'scalar';
    case 'MatrixSelector':
    case 'SubqueryExpr':
      return 'matrix';
    case 'ParenExpr':
    case 'StepInvariantExpr':
    case 'UnaryExpr':
      return exprType(e.expr);
    case 'StringLiteral':
      return 'string';
    case 'VectorSelector':
      return 'vector';
  }
}

/** Calls `visit` on `e` and its descendants, depth first, parents before children. */
export function walkExpr(e: Expr, visit: (node: Expr, path: readonly Expr[]) => void, path: Expr[] = []): void {
  visit(e, path);
  path.push(e);
  for (const child of children(e)) walkExpr(child, visit, path);
  path.pop();
}

/** The direct children of a node, in source order. */
export function children(e: Expr): Expr[] {
  switch (e.type) {
    case 'AggregateExpr':
      return e.param ? [e.param, e.expr] : [e.expr];
    case 'BinaryExpr':
      return [e.lhs, e.rhs];
    case 'Call':
      return [...e.args];
    case 'DurationExpr':
      return [e.lhs, e.rhs].filter((x): x is Expr => x !== null);
    case 'MatrixSelector':
      return [e.vectorSelector];
    case 'ParenExpr':
    case 'StepInvariantExpr':
    case 'SubqueryExpr':
    case 'UnaryExpr':
      return [e.expr];
    case 'NumberLiteral':
    case 'StringLiteral':
    case 'VectorSelector':
      return [];
  }
}

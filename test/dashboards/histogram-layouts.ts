// The layout check (docs/design/histogram-layouts.md): parses a PromQL expression and reports
// every place where bucket series of different layout sources could be added into one `le`
// series. Engines bucket the same catalog histogram differently; summed buckets of two layouts
// are a distribution no request had, and a quantile of it is meaningless. The check is
// structural, not statistical: it proves from the query text alone that no aggregation merges
// two sources, so it needs no data and runs on every dashboard query, and later on every rule and
// diagnosis query (a rule pack's test imports `histogramLayoutViolations` from here, with its own
// `layoutLabelsOf` if its series are recorded ones). It lives in test/ because it uses the PromQL
// parser, which src/dashboards (a browser module) may not import.
import { layoutLabels } from '../../src/dashboards/index.js';
import { exprToString, parseExpr, walkExpr, type Expr } from '../../src/promql/index.js';

/** One place where a query can mix bucket layouts. */
export interface LayoutViolation {
  /** The offending node, printed (an aggregation, a binary operation, a `label_replace`). */
  readonly at: string;
  readonly reason: string;
}

/**
 * The labels any one of which names the layout source of a series (the default is the
 * dashboards' `layoutLabels`: `engine` or `replica` for engine series, `job` for the rest).
 */
export type LayoutLabelsOf = (seriesName: string) => readonly string[];

type Aggregate = Extract<Expr, { type: 'AggregateExpr' }>;
type Binary = Extract<Expr, { type: 'BinaryExpr' }>;
type Selector = Extract<Expr, { type: 'VectorSelector' }>;

/** Aggregations that pick series and keep each one's labels: they merge nothing. */
const SELECTING = new Set(['topk', 'bottomk', 'limitk', 'limit_ratio']);
/** Functions whose second argument names the label they write. */
const LABEL_WRITERS = new Set(['label_replace', 'label_join']);

function selectorName(s: Selector): string {
  return s.name !== '' ? s.name : (s.matchers.find((m) => m.name === '__name__' && m.type === '=')?.value ?? '');
}

/**
 * The names of the vector selectors under `e` whose bucket series reach `e` as buckets: named
 * `_bucket`, or any series when `e` is inside a `histogram_quantile` (a recorded rate of buckets
 * may have any name). What a `histogram_quantile` under `e` reads reaches `e` as quantiles.
 */
function bucketSeries(e: Expr, insideQuantile: boolean): string[] {
  const out: string[] = [];
  walkExpr(e, (n, path) => {
    if (n.type !== 'VectorSelector' || path.some((p) => p.type === 'Call' && p.func.name === 'histogram_quantile')) return;
    const name = selectorName(n);
    if (insideQuantile || name.endsWith('_bucket')) out.push(name);
  });
  return out;
}

/**
 * What the labels `kept` (the grouping of an aggregation, the `on` list of a one-to-one
 * operation) lose: `le`, where a quantile needs it, or the layout source of a series under it.
 */
function keptProblem(kept: readonly string[], series: readonly string[], needLe: boolean, layoutLabelsOf: LayoutLabelsOf): string | undefined {
  if (needLe && !kept.includes('le')) return 'drops le: histogram_quantile needs the buckets';
  if (!kept.includes('le')) return undefined; // a count over all buckets, not a distribution
  for (const name of series) {
    const sources = layoutLabelsOf(name);
    if (!sources.some((l) => kept.includes(l))) return `keeps no layout source of ${name} (one of ${sources.join(', ')}): buckets of different layouts are added up`;
  }
  return undefined;
}

function aggregateProblem(a: Aggregate, series: readonly string[], needLe: boolean, layoutLabelsOf: LayoutLabelsOf): string | undefined {
  if (SELECTING.has(a.op)) return undefined;
  if (a.without) {
    // Whether a source survives `without` depends on every label a series may carry: we ask for
    // the grouping to be written out (`by`), as the builders write it.
    if (a.grouping.includes('le')) return needLe ? 'drops le: histogram_quantile needs the buckets' : undefined;
    return `aggregates bucket series with without (${a.grouping.join(', ')}): name the layout source in a by clause`;
  }
  return keptProblem(a.grouping, series, needLe, layoutLabelsOf);
}

function binaryProblem(b: Binary, series: readonly string[], needLe: boolean, layoutLabelsOf: LayoutLabelsOf): string | undefined {
  const m = b.matching;
  if (m === null || m.card !== 'one-to-one' || ['and', 'or', 'unless'].includes(b.op)) return undefined;
  if (m.on) return keptProblem(m.matchingLabels, series, needLe, layoutLabelsOf);
  const dropped = m.matchingLabels.filter((l) => l === 'le' || series.some((s) => layoutLabelsOf(s).includes(l)));
  return dropped.length === 0 ? undefined : `ignoring (${dropped.join(', ')}) drops what keeps layouts apart`;
}

function labelWriterProblem(args: readonly Expr[], series: readonly string[], layoutLabelsOf: LayoutLabelsOf): string | undefined {
  const dst = args[1]?.type === 'StringLiteral' ? args[1].value : undefined;
  if (dst === undefined) return undefined;
  if (dst === 'le' || series.some((s) => layoutLabelsOf(s).includes(dst))) return `writes ${dst}, which keeps layouts apart`;
  return undefined;
}

/**
 * Every place in `expr` (PromQL text or a parsed tree) where bucket series of different layout
 * sources can be merged: an aggregation of bucket series that keeps `le` but no layout label of
 * every histogram under it (`sum by (le)`, `sum by (le, instance)`), one with `without`, a nested
 * aggregation that drops the source before an outer one groups by it, a one-to-one operation
 * `on` labels without a source or `ignoring` one, a `label_replace` that writes `le` or a source
 * label; and, inside `histogram_quantile`, any of these that drops `le`. An empty list means the
 * expression cannot mix layouts.
 */
export function histogramLayoutViolations(expr: string | Expr, layoutLabelsOf: LayoutLabelsOf = layoutLabels): LayoutViolation[] {
  const out: LayoutViolation[] = [];
  walkExpr(typeof expr === 'string' ? parseExpr(expr) : expr, (n, path) => {
    const inside = insideQuantile(n, path);
    const series = n.type === 'AggregateExpr' || n.type === 'BinaryExpr' || n.type === 'Call' ? bucketSeries(n, inside) : [];
    if (series.length === 0) return;
    const problem =
      n.type === 'AggregateExpr'
        ? aggregateProblem(n, series, inside, layoutLabelsOf)
        : n.type === 'BinaryExpr'
          ? binaryProblem(n, series, inside, layoutLabelsOf)
          : n.type === 'Call' && LABEL_WRITERS.has(n.func.name)
            ? labelWriterProblem(n.args, series, layoutLabelsOf)
            : undefined;
    if (problem !== undefined) out.push({ at: exprToString(n), reason: problem });
  });
  return out;
}

/** Whether `n` (reached through `path`) lies in the buckets argument of a `histogram_quantile`. */
function insideQuantile(n: Expr, path: readonly Expr[]): boolean {
  for (let i = 0; i < path.length; i++) {
    const p = path[i];
    if (p.type === 'Call' && p.func.name === 'histogram_quantile' && p.args[1] === (path[i + 1] ?? n)) return true;
  }
  return false;
}

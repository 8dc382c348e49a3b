/**
 * Inline metric documentation for Explore: which catalog metrics a PromQL text names, which one
 * is under the cursor, and a unit guess for the graph's axis. A light lexer, not a parser: string
 * literals, label matchers, grouping clauses and range brackets are skipped, and an identifier
 * followed by `(` is a function. Good enough for documentation; the editor's own parser
 * (codemirror-promql) does the real work.
 */
import type { Unit } from '../../../../src/dashboards/types.js';
import { catalogMetric, type MetricDef } from '../../../../src/semconv/index.js';

const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'offset',
  'bool',
  'atan2',
  'start',
  'end',
  'inf',
  'nan',
]);

/** An identifier of the text with its offsets. */
interface Token {
  readonly text: string;
  readonly from: number;
  readonly to: number;
}

/** The metric-name candidates of `expr`, in order, with offsets into `expr`. */
export function metricTokens(expr: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let braces = 0;
  let brackets = 0;
  let groupingParens = -1;
  let parens = 0;
  while (i < expr.length) {
    const c = expr[i];
    if (c === '"' || c === "'" || c === '`') {
      // Skip a string literal (with backslash escapes except in raw strings).
      const q = c;
      i++;
      while (i < expr.length && expr[i] !== q) i += q !== '`' && expr[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (c === '#') {
      while (i < expr.length && expr[i] !== '\n') i++;
      continue;
    }
    if (c === '{') braces++;
    else if (c === '}') braces = Math.max(0, braces - 1);
    else if (c === '[') brackets++;
    else if (c === ']') brackets = Math.max(0, brackets - 1);
    else if (c === '(') parens++;
    else if (c === ')') {
      parens--;
      if (parens < groupingParens) groupingParens = -1;
    }
    if (/[a-zA-Z_:]/.test(c)) {
      let j = i + 1;
      while (j < expr.length && /[a-zA-Z0-9_:]/.test(expr[j])) j++;
      const text = expr.slice(i, j);
      let k = j;
      while (k < expr.length && /\s/.test(expr[k])) k++;
      // A call, or an aggregation written with its grouping first (`sum by (le) (...)`).
      const isCall = expr[k] === '(' || /^(by|without)\b/i.test(expr.slice(k));
      const lower = text.toLowerCase();
      if (braces === 0 && brackets === 0 && groupingParens < 0 && !isCall && !KEYWORDS.has(lower) && !/^\d/.test(text)) out.push({ text, from: i, to: j });
      if (['by', 'without', 'on', 'ignoring', 'group_left', 'group_right'].includes(lower) && expr[k] === '(') groupingParens = parens + 1;
      i = j;
      continue;
    }
    if (/[0-9.]/.test(c)) {
      // A number or duration (5m, 1e3): skip it whole.
      let j = i + 1;
      while (j < expr.length && /[0-9a-zA-Z_.]/.test(expr[j])) j++;
      i = j;
      continue;
    }
    i++;
  }
  return out;
}

/** The catalog entry of a series name: the name itself, or its histogram family (`_bucket`, `_sum`, `_count`). */
export function catalogEntryFor(name: string): MetricDef | undefined {
  const direct = catalogMetric(name);
  if (direct !== undefined) return direct;
  const m = /^(.*)_(bucket|sum|count)$/.exec(name);
  if (m === null) return undefined;
  const family = catalogMetric(m[1]);
  return family?.type === 'histogram' ? family : undefined;
}

/** The catalog metrics `expr` names, each once, in order of appearance. */
export function metricsInQuery(expr: string): { name: string; def: MetricDef }[] {
  const seen = new Set<string>();
  const out: { name: string; def: MetricDef }[] = [];
  for (const t of metricTokens(expr)) {
    const def = catalogEntryFor(t.text);
    if (def === undefined || seen.has(def.name)) continue;
    seen.add(def.name);
    out.push({ name: t.text, def });
  }
  return out;
}

/** The metric name under (or right before) `pos`, when it is one. */
export function metricAt(expr: string, pos: number): string | undefined {
  return metricTokens(expr).find((t) => pos >= t.from && pos <= t.to)?.text;
}

const CATALOG_UNITS: Readonly<Record<string, Unit>> = {
  seconds: 'seconds',
  bytes: 'bytes',
  ratio: 'ratio',
  tokens: 'tokens',
  tokens_per_second: 'tokens/s',
  dollars: 'dollars',
  dollars_per_hour: 'dollars/h',
};

/**
 * The unit to format a query's values in: the metric's catalog unit when the query keeps it (a
 * selector, an aggregation, `histogram_quantile` of a histogram), tokens/s for a rate of tokens,
 * and none when the query's shape is unclear (several metrics, division, other functions).
 */
export function guessUnit(expr: string): Unit {
  const metrics = metricsInQuery(expr);
  if (metrics.length !== 1) return 'none';
  const { name, def } = metrics[0];
  const unit = CATALOG_UNITS[def.unit] ?? 'none';
  if (/[/*]/.test(expr.replace(/"[^"]*"/g, ''))) return 'none';
  const rated = /\b(rate|irate|increase)\s*\(/.test(expr);
  if (/\bhistogram_quantile\s*\(/.test(expr)) return def.type === 'histogram' ? unit : 'none';
  if (rated) {
    if (/\bincrease\s*\(/.test(expr)) return def.unit === 'tokens' ? 'tokens' : 'count';
    if (def.unit === 'tokens') return 'tokens/s';
    if (def.type === 'counter' && def.unit === '') return 'req/s';
    return 'none';
  }
  if (/_(bucket|count)$/.test(name)) return 'count';
  return unit === 'none' && def.unit === '' ? 'count' : unit;
}

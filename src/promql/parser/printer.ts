import { METRIC_NAME_LABEL, formatDuration, formatGoFloatF, formatGoFloatG, goQuote, type Matcher } from '../../model/index.js';
import type { AggregateExpr, BinaryExpr, DurationExpr, Expr, MatrixSelector, SubqueryExpr, VectorMatching, VectorSelector } from './ast.js';

const LEGACY_LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Label names as Prometheus' printer writes them: quoted unless they are legacy names. */
function labelList(names: readonly string[]): string {
  return names.map((n) => (LEGACY_LABEL_NAME.test(n) ? n : goQuote(n))).join(', ');
}

/** Prometheus' `labels.Matcher.String()`: `a="b"`, `"a.b"=~"c"`. */
export function matcherToString(m: Matcher): string {
  const name = m.name !== '' && LEGACY_LABEL_NAME.test(m.name) ? m.name : goQuote(m.name);
  return name + m.type + goQuote(m.value);
}

/** Orders strings by their UTF-8 bytes (Go's `sort.Strings`), i.e. by code point. */
function byteOrder(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) ?? 0;
    const y = b.codePointAt(i) ?? 0;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** A duration value in seconds printed as `model.Duration(v * 1e9).String()` (truncating). */
function secondsToDurationString(v: number): string {
  const ms = Number(BigInt(Math.trunc(v * 1e9)) / 1_000_000n);
  return formatDuration(ms);
}

function numberString(value: number, duration: boolean): string {
  if (!duration) return formatGoFloatF(value);
  return value < 0 ? '-' + secondsToDurationString(-value) : secondsToDurationString(value);
}

function durationExprString(e: DurationExpr): string {
  let s: string;
  switch (e.op) {
    case 'step':
    case 'range':
    case 'start':
    case 'end':
      s = `${e.op}()`;
      break;
    case 'min_of':
    case 'max_of':
      s = `${e.op}(${exprToString(e.lhs!)}, ${exprToString(e.rhs!)})`;
      break;
    default:
      if (e.lhs === null) s = (e.op === '-' ? '-' : '') + exprToString(e.rhs!);
      else s = `${exprToString(e.lhs)} ${e.op} ${exprToString(e.rhs!)}`;
  }
  return e.wrapped ? `(${s})` : s;
}

function atString(timestampMs: number | null, startOrEnd: 'start' | 'end' | null): string {
  if (timestampMs !== null) return ` @ ${(timestampMs / 1000).toFixed(3)}`;
  if (startOrEnd !== null) return ` @ ${startOrEnd}()`;
  return '';
}

function offsetString(offsetMs: number, offsetExpr: DurationExpr | null): string {
  if (offsetExpr !== null) return ' offset ' + durationExprString(offsetExpr);
  if (offsetMs > 0) return ' offset ' + formatDuration(offsetMs);
  if (offsetMs < 0) return ' offset -' + formatDuration(-offsetMs);
  return '';
}

function selectorBody(vs: VectorSelector): string {
  const labels: string[] = [];
  for (const m of vs.matchers) {
    if (m.name === METRIC_NAME_LABEL && m.type === '=' && m.value === vs.name && m.value !== '') continue;
    labels.push(matcherToString(m));
  }
  labels.sort(byteOrder);
  return labels.length === 0 ? vs.name : `${vs.name}{${labels.join(',')}}`;
}

function extendedRange(vs: VectorSelector): string {
  if (vs.anchored) return ' anchored';
  if (vs.smoothed) return ' smoothed';
  return '';
}

function vectorSelectorString(vs: VectorSelector): string {
  return selectorBody(vs) + atString(vs.timestampMs, vs.startOrEnd) + extendedRange(vs) + offsetString(vs.offsetMs, vs.offsetExpr);
}

function matrixSelectorString(m: MatrixSelector): string {
  const vs = m.vectorSelector;
  const range = m.rangeExpr !== null ? durationExprString(m.rangeExpr) : formatDuration(m.rangeMs);
  return `${selectorBody(vs)}[${range}]${extendedRange(vs)}${atString(vs.timestampMs, vs.startOrEnd)}${offsetString(vs.offsetMs, vs.offsetExpr)}`;
}

/** The `[range:step] @ t offset d` suffix of a subquery (Prometheus' `getSubqueryTimeSuffix`). */
export function subqueryTimeSuffix(e: SubqueryExpr): string {
  const range = e.rangeExpr !== null ? durationExprString(e.rangeExpr) : formatDuration(e.rangeMs);
  let step = '';
  if (e.stepMs !== 0) step = formatDuration(e.stepMs);
  else if (e.stepExpr !== null) step = durationExprString(e.stepExpr);
  return `[${range}:${step}]${atString(e.timestampMs, e.startOrEnd)}${offsetString(e.offsetMs, e.offsetExpr)}`;
}

/** The `op by (labels) ` prefix of an aggregation (Prometheus' `ShortString`), trailing space included. */
export function aggregateOpString(e: AggregateExpr): string {
  if (e.without) return `${e.op} without (${labelList(e.grouping)}) `;
  if (e.grouping.length > 0) return `${e.op} by (${labelList(e.grouping)}) `;
  return e.op;
}

/** ` bool`, ` on (a) group_left (b)`, ` fill (0)`: what follows a binary operator. */
export function binaryModifiersString(e: BinaryExpr): string {
  let s = e.returnBool ? ' bool' : '';
  const vm: VectorMatching | null = e.matching;
  if (vm === null) return s;
  const grouped = vm.card === 'many-to-one' || vm.card === 'one-to-many';
  if (vm.matchingLabels.length > 0 || vm.on || grouped) s += ` ${vm.on ? 'on' : 'ignoring'} (${labelList(vm.matchingLabels)})`;
  if (grouped) s += ` group_${vm.card === 'many-to-one' ? 'left' : 'right'} (${labelList(vm.include)})`;
  const { lhs, rhs } = vm.fillValues;
  if (lhs !== null && rhs !== null && Object.is(lhs, rhs)) s += ` fill (${formatGoFloatG(lhs)})`;
  else {
    if (lhs !== null) s += ` fill_left (${formatGoFloatG(lhs)})`;
    if (rhs !== null) s += ` fill_right (${formatGoFloatG(rhs)})`;
  }
  return s;
}

/**
 * Prints an expression as Prometheus' `String()` does: canonical spacing, lower-case keywords,
 * `by`/`without` before the body, sorted matchers, durations as `1h30m`, `@` times with three
 * decimals, numbers in their shortest form without exponent. Parsing the result gives the same
 * tree (up to positions).
 */
export function exprToString(e: Expr): string {
  switch (e.type) {
    case 'AggregateExpr':
      return `${aggregateOpString(e)}(${e.param !== null ? exprToString(e.param) + ', ' : ''}${exprToString(e.expr)})`;
    case 'BinaryExpr': {
      // Go prints +Inf as `+Inf`, but `+Inf ^ x` parses back as `+(Inf ^ x)`: `^` binds tighter
      // than a unary sign. Printing the bare `Inf` keeps the round trip exact.
      const lhs = e.op === '^' && e.lhs.type === 'NumberLiteral' && e.lhs.value === Infinity ? 'Inf' : exprToString(e.lhs);
      return `${lhs} ${e.op}${binaryModifiersString(e)} ${exprToString(e.rhs)}`;
    }
    case 'Call':
      return `${e.func.name}(${e.args.map(exprToString).join(', ')})`;
    case 'DurationExpr':
      return durationExprString(e);
    case 'MatrixSelector':
      return matrixSelectorString(e);
    case 'NumberLiteral':
      return numberString(e.value, e.duration);
    case 'ParenExpr':
      return `(${exprToString(e.expr)})`;
    case 'StepInvariantExpr':
      return exprToString(e.expr);
    case 'StringLiteral':
      return goQuote(e.value);
    case 'SubqueryExpr':
      return exprToString(e.expr) + subqueryTimeSuffix(e);
    case 'UnaryExpr':
      return e.op + exprToString(e.expr);
    case 'VectorSelector':
      return vectorSelectorString(e);
  }
}

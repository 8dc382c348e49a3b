import type { Matcher } from '../../model/index.js';
import type { Expr } from '../../promql/index.js';
import { formatScalarValue } from '../../query/index.js';

function matchers(ms: readonly Matcher[]): { name: string; type: string; value: string }[] {
  return ms.map((m) => ({ name: m.name, type: m.type, value: m.value }));
}

/**
 * The syntax tree as Prometheus' `/api/v1/parse_query` answers it (`translateAST` in
 * web/api/v1/translate_ast.go): one object per node with a `type`, keys sorted as Go writes
 * maps, durations and offsets in milliseconds, numbers as plain decimal strings.
 */
export function astToJson(e: Expr | null): unknown {
  if (e === null) return null;
  switch (e.type) {
    case 'AggregateExpr':
      return { expr: astToJson(e.expr), grouping: [...e.grouping], op: e.op, param: astToJson(e.param), type: 'aggregation', without: e.without };
    case 'BinaryExpr': {
      const m = e.matching;
      const matching =
        m === null
          ? null
          : { card: m.card, fillValues: { lhs: m.fillValues.lhs, rhs: m.fillValues.rhs }, include: [...m.include], labels: [...m.matchingLabels], on: m.on };
      return { bool: e.returnBool, lhs: astToJson(e.lhs), matching, op: e.op, rhs: astToJson(e.rhs), type: 'binaryExpr' };
    }
    case 'Call':
      return {
        args: e.args.map(astToJson),
        func: { argTypes: [...e.func.argTypes], name: e.func.name, returnType: e.func.returnType, variadic: e.func.variadic },
        type: 'call',
      };
    case 'MatrixSelector': {
      const vs = e.vectorSelector;
      return {
        anchored: vs.anchored,
        matchers: matchers(vs.matchers),
        name: vs.name,
        offset: vs.offsetMs,
        range: e.rangeMs,
        smoothed: vs.smoothed,
        startOrEnd: vs.startOrEnd,
        timestamp: vs.timestampMs,
        type: 'matrixSelector',
      };
    }
    case 'SubqueryExpr':
      return {
        expr: astToJson(e.expr),
        offset: e.offsetMs,
        range: e.rangeMs,
        startOrEnd: e.startOrEnd,
        step: e.stepMs,
        timestamp: e.timestampMs,
        type: 'subquery',
      };
    case 'NumberLiteral':
      return { type: 'numberLiteral', val: formatScalarValue(e.value) };
    case 'ParenExpr':
      return { expr: astToJson(e.expr), type: 'parenExpr' };
    case 'StringLiteral':
      return { type: 'stringLiteral', val: e.value };
    case 'UnaryExpr':
      return { expr: astToJson(e.expr), op: e.op, type: 'unaryExpr' };
    case 'VectorSelector':
      return {
        anchored: e.anchored,
        matchers: matchers(e.matchers),
        name: e.name,
        offset: e.offsetMs,
        smoothed: e.smoothed,
        startOrEnd: e.startOrEnd,
        timestamp: e.timestampMs,
        type: 'vectorSelector',
      };
    case 'StepInvariantExpr':
      return astToJson(e.expr);
    case 'DurationExpr':
      // Prometheus has no tree form for duration arithmetic; Infersight names the operator.
      return { lhs: astToJson(e.lhs), op: e.op, rhs: astToJson(e.rhs), type: 'durationExpr' };
  }
}

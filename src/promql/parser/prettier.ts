import type { Expr } from './ast.js';
import { aggregateOpString, binaryModifiersString, exprToString, subqueryTimeSuffix } from './printer.js';
import { utf8Length } from './tokens.js';

/** Prometheus' `maxCharactersPerLine`: a node whose one-line form is longer gets split. */
export const MAX_CHARACTERS_PER_LINE = 100;

const indent = (level: number): string => '  '.repeat(level);

/**
 * Formats an expression over several lines as Prometheus' `Prettify` does (the
 * `/api/v1/format_query` output): a node that fits in `maxCharactersPerLine` bytes stays on one
 * line as `exprToString` prints it; a longer aggregation, call or parenthesis puts its arguments
 * one level deeper, and a longer binary expression puts its operator on a line of its own
 * between its indented operands.
 */
export function prettify(e: Expr, maxCharactersPerLine: number = MAX_CHARACTERS_PER_LINE): string {
  return pretty(e, 0, maxCharactersPerLine);
}

function needsSplit(e: Expr, max: number): boolean {
  return utf8Length(exprToString(e)) > max;
}

function pretty(e: Expr, level: number, max: number): string {
  switch (e.type) {
    case 'AggregateExpr': {
      if (!needsSplit(e, max)) return indent(level) + exprToString(e);
      let s = indent(level) + aggregateOpString(e) + '(\n';
      if (e.param !== null) s += pretty(e.param, level + 1, max) + ',\n';
      return s + pretty(e.expr, level + 1, max) + '\n' + indent(level) + ')';
    }
    case 'BinaryExpr':
      if (!needsSplit(e, max)) return indent(level) + exprToString(e);
      return `${pretty(e.lhs, level + 1, max)}\n${indent(level)}${e.op}${binaryModifiersString(e)}\n${pretty(e.rhs, level + 1, max)}`;
    case 'Call':
      if (!needsSplit(e, max)) return indent(level) + exprToString(e);
      return `${indent(level)}${e.func.name}(\n${e.args.map((a) => pretty(a, level + 1, max)).join(',\n')}\n${indent(level)})`;
    case 'ParenExpr':
      if (!needsSplit(e, max)) return indent(level) + exprToString(e);
      return `${indent(level)}(\n${pretty(e.expr, level + 1, max)}\n${indent(level)})`;
    case 'StepInvariantExpr':
      return pretty(e.expr, level, max);
    case 'SubqueryExpr':
      // Prometheus returns a short subquery without its indentation; kept for identical output.
      if (!needsSplit(e, max)) return exprToString(e);
      return pretty(e.expr, level, max) + subqueryTimeSuffix(e);
    case 'UnaryExpr':
      return indent(level) + e.op + pretty(e.expr, level, max).trim();
    default:
      return indent(level) + exprToString(e);
  }
}

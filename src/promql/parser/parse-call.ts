import type { AggregateExpr, AggregateOp, Call, Expr } from './ast.js';
import { getFunction } from './functions.js';
import { goQuote } from '../../model/index.js';
import { isWellFormed, unquoteString } from './literals.js';
import { type ParserState, Unexpected } from './parser-state.js';
import { LABEL_NAME_TOKENS, T, type Token, typeText } from './tokens.js';

const GROUPING = 'grouping opts';

/**
 * Parses `( label, ... )` after `by`, `without`, `on`, `ignoring`, `group_left` or `group_right`,
 * with Prometheus' "grouping opts" errors. Keywords are fine as label names (`by (on, sum)`), and
 * quoted UTF-8 names too (`by ("a.b")`).
 */
export function parseGroupingLabels(p: ParserState): string[] {
  const open = p.peek();
  if (open.type !== T.LEFT_PAREN) throw new Unexpected(open, GROUPING, '"("');
  p.next();
  const labels: string[] = [];
  if (p.at(T.RIGHT_PAREN)) {
    p.next();
    return labels;
  }
  for (;;) {
    const tok = p.peek();
    if (LABEL_NAME_TOKENS.has(tok.type)) {
      labels.push(p.next().val);
    } else if (tok.type === T.STRING) {
      p.next();
      const name = unquoteString(tok.val);
      if (name === '' || !isWellFormed(name)) throw p.errorAt(`invalid label name for grouping: ${goQuote(name)}`, p.range(tok));
      labels.push(name);
    } else {
      throw new Unexpected(tok, GROUPING, 'label');
    }
    const sep = p.peek();
    if (sep.type === T.RIGHT_PAREN) {
      p.next();
      return labels;
    }
    if (sep.type !== T.COMMA) throw new Unexpected(sep, GROUPING, '"," or ")"');
    p.next();
    if (p.at(T.RIGHT_PAREN)) {
      p.next();
      return labels;
    }
  }
}

/** Parses `( expr, ... )`; `sum()` and `time()` have no arguments. Trailing commas are an error. */
function parseCallBody(p: ParserState): Expr[] {
  p.expect(T.LEFT_PAREN);
  const args: Expr[] = [];
  if (p.at(T.RIGHT_PAREN)) {
    p.next();
    return args;
  }
  for (;;) {
    args.push(p.parseSubExpr());
    const tok = p.peek();
    if (tok.type === T.RIGHT_PAREN) {
      p.next();
      return args;
    }
    if (tok.type !== T.COMMA) throw new Unexpected(tok);
    p.next();
    if (p.at(T.RIGHT_PAREN)) throw p.errorAt('trailing commas not allowed in function call args', p.range(tok));
  }
}

/**
 * Parses a function call whose name token was just consumed (an identifier, or one of `start`,
 * `end`, `step`, `range`, `min_of`, `max_of`). Unknown and disabled experimental functions fail
 * after the arguments, as in Prometheus.
 */
export function parseFunctionCall(p: ParserState, nameTok: Token): Call {
  const args = parseCallBody(p);
  const func = getFunction(nameTok.val);
  if (func === undefined) throw p.errorAt(`unknown function with name ${goQuote(nameTok.val)}`, p.range(nameTok));
  if (func.experimental && !p.opts.enableExperimentalFunctions) {
    throw p.errorAt(`function ${goQuote(nameTok.val)} is not enabled`, p.range(nameTok));
  }
  const call: Call = { type: 'Call', func, args, pos: { start: p.byte(nameTok.pos), end: p.byte(p.lastEnd) } };
  return p.track(call, ...args);
}

const PARAM_AGGREGATORS: ReadonlySet<AggregateOp> = new Set(['topk', 'bottomk', 'count_values', 'quantile', 'limitk', 'limit_ratio']);

/**
 * Parses an aggregation whose operator token was just consumed and is followed by `(`, `by` or
 * `without`: `sum by (job) (x)`, `sum(x) without (a)`, `topk(3, x)`. Syntax errors inside get
 * Prometheus' "in aggregation" context unless an inner rule words them.
 */
export function parseAggregate(p: ParserState, opTok: Token): AggregateExpr {
  const op = typeText(opTok.type) as AggregateOp;
  const { args, grouping, without } = p.withContext('aggregation', '', () => {
    let labels: string[] | null = null;
    let isWithout = false;
    if (p.at(T.BY) || p.at(T.WITHOUT)) {
      isWithout = p.next().type === T.WITHOUT;
      labels = parseGroupingLabels(p);
    }
    const body = parseCallBody(p);
    if (labels === null && (p.at(T.BY) || p.at(T.WITHOUT))) {
      isWithout = p.next().type === T.WITHOUT;
      labels = parseGroupingLabels(p);
    }
    return { args: body, grouping: labels, without: isWithout };
  });
  const pos = { start: p.byte(opTok.pos), end: p.byte(p.lastEnd) };
  if (args.length === 0) throw p.errorAt('no arguments for aggregate expression provided', pos);
  let want = 1;
  if (PARAM_AGGREGATORS.has(op)) {
    if ((op === 'limitk' || op === 'limit_ratio') && !p.opts.enableExperimentalFunctions) {
      throw p.errorAt(`${op}() is experimental and must be enabled with --enable-feature=promql-experimental-functions`, pos);
    }
    want = 2;
  }
  if (args.length !== want) {
    throw p.errorAt(`wrong number of arguments for aggregate expression provided, expected ${want}, got ${args.length}`, pos);
  }
  const agg: AggregateExpr = {
    type: 'AggregateExpr',
    op,
    expr: args[want - 1],
    param: want === 2 ? args[0] : null,
    grouping: grouping ?? [],
    without,
    hasGrouping: grouping !== null,
    pos,
  };
  return p.track(agg, ...args);
}

import { Labels, METRIC_NAME_LABEL, Matcher, type MatchType } from '../../model/index.js';
import type { VectorSelector } from './ast.js';
import { unquoteString } from './literals.js';
import { type ParserState, Unexpected } from './parser-state.js';
import { METRIC_NAME_TOKENS, T, type Token, type TokenType } from './tokens.js';

const MATCH_OPS: ReadonlyMap<TokenType, MatchType> = new Map<TokenType, MatchType>([
  [T.EQL, '='],
  [T.NEQ, '!='],
  [T.EQL_REGEX, '=~'],
  [T.NEQ_REGEX, '!~'],
]);

const LABEL_MATCHING = 'label matching';

/**
 * Parses a vector selector whose metric-name token (if any) was just consumed: `foo`,
 * `foo{a="b"}`, `{"utf8.name", a=~"x"}`. As in Prometheus, a name written outside the braces
 * becomes `name` plus a trailing `__name__` matcher; a quoted name inside the braces is only a
 * matcher and leaves `name` empty.
 */
export function parseVectorSelector(p: ParserState, nameTok: Token | null): VectorSelector {
  let start = nameTok?.pos ?? p.peek().pos;
  let end = nameTok?.end ?? start;
  let matchers: Matcher[] = [];
  if (p.at(T.LEFT_BRACE)) {
    const lbrace = p.peek();
    if (nameTok === null) start = lbrace.pos;
    matchers = parseLabelMatchers(p);
    end = p.lastEnd;
  }
  if (nameTok !== null) matchers.push(new Matcher('=', METRIC_NAME_LABEL, nameTok.val));
  return {
    type: 'VectorSelector',
    name: nameTok?.val ?? '',
    matchers,
    offsetMs: 0,
    offsetExpr: null,
    timestampMs: null,
    startOrEnd: null,
    anchored: false,
    smoothed: false,
    pos: { start: p.byte(start), end: p.byte(end) },
  };
}

/** Parses `{ matcher, ... }` (a trailing comma allowed). */
function parseLabelMatchers(p: ParserState): Matcher[] {
  p.expect(T.LEFT_BRACE);
  const out: Matcher[] = [];
  if (p.at(T.RIGHT_BRACE)) {
    p.next();
    return out;
  }
  for (;;) {
    out.push(parseLabelMatcher(p));
    const tok = p.peek();
    if (tok.type === T.RIGHT_BRACE) {
      p.next();
      return out;
    }
    if (tok.type !== T.COMMA) throw new Unexpected(tok, LABEL_MATCHING, '"," or "}"');
    p.next();
    if (p.at(T.RIGHT_BRACE)) {
      p.next();
      return out;
    }
  }
}

function parseLabelMatcher(p: ParserState): Matcher {
  const nameTok = p.peek();
  let name: string;
  if (nameTok.type === T.IDENTIFIER) {
    p.next();
    name = nameTok.val;
    if (!MATCH_OPS.has(p.peek().type)) throw new Unexpected(p.peek(), LABEL_MATCHING, 'label matching operator');
  } else if (nameTok.type === T.STRING) {
    p.next();
    name = unquoteString(nameTok.val);
    if (!MATCH_OPS.has(p.peek().type)) return new Matcher('=', METRIC_NAME_LABEL, name);
  } else {
    throw new Unexpected(nameTok, LABEL_MATCHING, 'identifier or "}"');
  }
  const type = MATCH_OPS.get(p.next().type) ?? '=';
  const valueTok = p.peek();
  if (valueTok.type !== T.STRING) throw new Unexpected(valueTok, LABEL_MATCHING, 'string');
  p.next();
  try {
    return new Matcher(type, name, unquoteString(valueTok.val));
  } catch (e) {
    throw p.errorAt(e instanceof Error ? e.message : String(e), p.span(nameTok, valueTok));
  }
}

/** `parseMetricSelector`'s grammar: one vector selector and nothing else. */
export function parseSelectorOnly(p: ParserState): Matcher[] {
  const tok = p.peek();
  let vs: VectorSelector;
  if (METRIC_NAME_TOKENS.has(tok.type)) vs = parseVectorSelector(p, p.next());
  else if (tok.type === T.LEFT_BRACE) vs = parseVectorSelector(p, null);
  else throw new Unexpected(tok);
  if (!p.at(T.EOF)) throw new Unexpected(p.peek());
  return [...vs.matchers];
}

const LABEL_SET = 'label set';

/** `parseMetric`'s grammar: an optional metric name and an optional `{name="value", ...}` set. */
export function parseLabelSet(p: ParserState): Labels {
  const pairs: string[] = [];
  let name: string | null = null;
  if (METRIC_NAME_TOKENS.has(p.peek().type)) name = p.next().val;
  if (p.at(T.LEFT_BRACE)) {
    p.next();
    let first = true;
    for (;;) {
      const tok = p.peek();
      if (tok.type === T.RIGHT_BRACE && first) break;
      parseLabelSetItem(p, pairs);
      first = false;
      const sep = p.peek();
      if (sep.type === T.RIGHT_BRACE) break;
      if (sep.type !== T.COMMA) throw new Unexpected(sep, LABEL_SET, '"," or "}"');
      p.next();
      if (p.at(T.RIGHT_BRACE)) break;
    }
    p.next();
  }
  if (!p.at(T.EOF)) throw new Unexpected(p.peek());
  if (name !== null) pairs.push(METRIC_NAME_LABEL, name);
  return Labels.fromPairs(pairs);
}

function parseLabelSetItem(p: ParserState, pairs: string[]): void {
  const tok = p.peek();
  let name: string;
  if (tok.type === T.IDENTIFIER) {
    p.next();
    name = tok.val;
    if (!p.at(T.EQL)) throw new Unexpected(p.peek(), LABEL_SET, '"="');
  } else if (tok.type === T.STRING) {
    p.next();
    name = unquoteString(tok.val);
    if (!p.at(T.EQL)) {
      pairs.push(METRIC_NAME_LABEL, name);
      return;
    }
  } else {
    throw new Unexpected(tok, LABEL_SET, 'identifier or "}"');
  }
  p.next();
  const value = p.peek();
  if (value.type !== T.STRING) throw new Unexpected(value, LABEL_SET, 'string');
  p.next();
  pairs.push(name, unquoteString(value.val));
}

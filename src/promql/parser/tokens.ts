import { goQuote } from '../../model/index.js';

/**
 * Token types of the PromQL lexer, named after Prometheus' `ItemType`s (`promql/parser/lex.go`).
 * The numeric order groups them like Prometheus does: operators, aggregators, keywords and
 * preprocessors are contiguous ranges, which `isOperator` and friends test.
 */
export const T = {
  EOF: 0,
  ERROR: 1,
  IDENTIFIER: 2,
  METRIC_IDENTIFIER: 3,
  NUMBER: 4,
  DURATION: 5,
  STRING: 6,
  LEFT_PAREN: 7,
  RIGHT_PAREN: 8,
  LEFT_BRACE: 9,
  RIGHT_BRACE: 10,
  LEFT_BRACKET: 11,
  RIGHT_BRACKET: 12,
  COMMA: 13,
  EQL: 14,
  COLON: 15,
  // Operators (OPERATORS_START < t < OPERATORS_END).
  ADD: 21,
  SUB: 22,
  MUL: 23,
  DIV: 24,
  MOD: 25,
  POW: 26,
  EQLC: 27,
  NEQ: 28,
  LTE: 29,
  LSS: 30,
  GTE: 31,
  GTR: 32,
  TRIM_UPPER: 33,
  TRIM_LOWER: 34,
  EQL_REGEX: 35,
  NEQ_REGEX: 36,
  AT: 37,
  ATAN2: 38,
  LAND: 39,
  LOR: 40,
  LUNLESS: 41,
  // Aggregators.
  AVG: 51,
  BOTTOMK: 52,
  COUNT: 53,
  COUNT_VALUES: 54,
  GROUP: 55,
  MAX: 56,
  MIN: 57,
  QUANTILE: 58,
  STDDEV: 59,
  STDVAR: 60,
  SUM: 61,
  TOPK: 62,
  LIMITK: 63,
  LIMIT_RATIO: 64,
  // Keywords.
  BOOL: 71,
  BY: 72,
  GROUP_LEFT: 73,
  GROUP_RIGHT: 74,
  FILL: 75,
  FILL_LEFT: 76,
  FILL_RIGHT: 77,
  IGNORING: 78,
  OFFSET: 79,
  SMOOTHED: 80,
  ANCHORED: 81,
  ON: 82,
  WITHOUT: 83,
  // Preprocessors and duration-expression keywords.
  START: 91,
  END: 92,
  STEP: 93,
  RANGE: 94,
  MIN_OF: 95,
  MAX_OF: 96,
} as const;

/** One of the values of `T`. */
export type TokenType = (typeof T)[keyof typeof T];

/**
 * A lexed token. `pos`/`end` are UTF-16 indices into the query (the parser converts them to
 * byte offsets); `val` is the source text, or the message for `ERROR` tokens.
 */
export interface Token {
  readonly type: TokenType;
  readonly pos: number;
  readonly end: number;
  readonly val: string;
}

/** Reports whether a token type is an operator (Prometheus `IsOperator`). */
export function isOperator(t: TokenType): boolean {
  return t > 20 && t < 50;
}

/** Reports whether a token type is an aggregation keyword (`sum`, `topk`, ...). */
export function isAggregator(t: TokenType): boolean {
  return t > 50 && t < 70;
}

/** Reports whether a token type is a keyword such as `by`, `offset` or `bool`. */
export function isKeyword(t: TokenType): boolean {
  return t > 70 && t < 90;
}

/**
 * Lower-cased words the lexer turns into keyword tokens outside braces (`inf`/`nan` become
 * numbers). `min_of`/`max_of` are keywords since Prometheus renamed the duration functions.
 */
export const KEYWORDS: ReadonlyMap<string, TokenType> = new Map<string, TokenType>([
  ['and', T.LAND],
  ['or', T.LOR],
  ['unless', T.LUNLESS],
  ['atan2', T.ATAN2],
  ['sum', T.SUM],
  ['avg', T.AVG],
  ['count', T.COUNT],
  ['min', T.MIN],
  ['max', T.MAX],
  ['group', T.GROUP],
  ['stddev', T.STDDEV],
  ['stdvar', T.STDVAR],
  ['topk', T.TOPK],
  ['bottomk', T.BOTTOMK],
  ['count_values', T.COUNT_VALUES],
  ['quantile', T.QUANTILE],
  ['limitk', T.LIMITK],
  ['limit_ratio', T.LIMIT_RATIO],
  ['offset', T.OFFSET],
  ['smoothed', T.SMOOTHED],
  ['anchored', T.ANCHORED],
  ['by', T.BY],
  ['without', T.WITHOUT],
  ['on', T.ON],
  ['ignoring', T.IGNORING],
  ['group_left', T.GROUP_LEFT],
  ['group_right', T.GROUP_RIGHT],
  ['fill', T.FILL],
  ['fill_left', T.FILL_LEFT],
  ['fill_right', T.FILL_RIGHT],
  ['bool', T.BOOL],
  ['start', T.START],
  ['end', T.END],
  ['step', T.STEP],
  ['range', T.RANGE],
  ['min_of', T.MIN_OF],
  ['max_of', T.MAX_OF],
  ['inf', T.NUMBER],
  ['nan', T.NUMBER],
]);

/** Words that are keywords inside `[...]` duration expressions (matched case-insensitively). */
export const DURATION_KEYWORDS: ReadonlyMap<string, TokenType> = new Map<string, TokenType>([
  ['step', T.STEP],
  ['range', T.RANGE],
  ['min_of', T.MIN_OF],
  ['max_of', T.MAX_OF],
]);

/** Canonical text of every token type that has one (Prometheus `ItemTypeStr`). */
const TYPE_TEXT = new Map<TokenType, string>([
  [T.LEFT_PAREN, '('],
  [T.RIGHT_PAREN, ')'],
  [T.LEFT_BRACE, '{'],
  [T.RIGHT_BRACE, '}'],
  [T.LEFT_BRACKET, '['],
  [T.RIGHT_BRACKET, ']'],
  [T.COMMA, ','],
  [T.EQL, '='],
  [T.COLON, ':'],
  [T.SUB, '-'],
  [T.ADD, '+'],
  [T.MUL, '*'],
  [T.MOD, '%'],
  [T.DIV, '/'],
  [T.EQLC, '=='],
  [T.NEQ, '!='],
  [T.LTE, '<='],
  [T.LSS, '<'],
  [T.GTE, '>='],
  [T.GTR, '>'],
  [T.TRIM_UPPER, '</'],
  [T.TRIM_LOWER, '>/'],
  [T.EQL_REGEX, '=~'],
  [T.NEQ_REGEX, '!~'],
  [T.POW, '^'],
  [T.AT, '@'],
]);
for (const [word, type] of KEYWORDS) if (type !== T.NUMBER) TYPE_TEXT.set(type, word);

/** The canonical text of a token type (`sum` for SUM, `+` for ADD); '' for value-carrying types. */
export function typeText(t: TokenType): string {
  return TYPE_TEXT.get(t) ?? '';
}

const TYPE_DESC = new Map<TokenType, string>([
  [T.EOF, 'end of input'],
  [T.ERROR, 'error'],
  [T.IDENTIFIER, 'identifier'],
  [T.METRIC_IDENTIFIER, 'metric identifier'],
  [T.STRING, 'string'],
  [T.NUMBER, 'number'],
  [T.DURATION, 'duration'],
]);

/** Prometheus' `Item.String()`: how a token appears inside an "unexpected ..." message. */
function tokenString(tok: Token): string {
  const t = tok.type;
  if (t === T.IDENTIFIER || t === T.METRIC_IDENTIFIER) return goQuote(tok.val);
  if (isKeyword(t)) return `<${tok.val}>`;
  if (isOperator(t)) return `<op:${tok.val}>`;
  if (isAggregator(t)) return `<aggr:${tok.val}>`;
  if (utf8Length(tok.val) > 10) return goQuote(Array.from(tok.val).slice(0, 10).join('')) + '...';
  return goQuote(tok.val);
}

/** Prometheus' `Item.desc()`: `<op:+>`, `identifier "foo"`, `end of input`, `"("`. */
export function describeToken(tok: Token): string {
  if (TYPE_TEXT.has(tok.type)) return tokenString(tok);
  if (tok.type === T.EOF) return 'end of input';
  return `${TYPE_DESC.get(tok.type) ?? 'token'} ${tokenString(tok)}`;
}

/** The number of bytes the UTF-8 encoding of `s` takes. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** Tokens that can name a metric outside braces (Prometheus' `metric_identifier` rule). */
export const METRIC_NAME_TOKENS: ReadonlySet<TokenType> = new Set<TokenType>([
  T.IDENTIFIER,
  T.METRIC_IDENTIFIER,
  T.AVG,
  T.BOTTOMK,
  T.COUNT,
  T.COUNT_VALUES,
  T.GROUP,
  T.MAX,
  T.MIN,
  T.QUANTILE,
  T.STDDEV,
  T.STDVAR,
  T.SUM,
  T.TOPK,
  T.LIMITK,
  T.LIMIT_RATIO,
  T.BY,
  T.WITHOUT,
  T.FILL,
  T.FILL_LEFT,
  T.FILL_RIGHT,
  T.LAND,
  T.LOR,
  T.LUNLESS,
  T.OFFSET,
  T.ANCHORED,
  T.SMOOTHED,
  T.START,
  T.END,
  T.STEP,
  T.RANGE,
  T.MIN_OF,
  T.MAX_OF,
]);

/** Tokens that can be a label name in `by (...)`, `on (...)`, ... (Prometheus' `maybe_label` rule). */
export const LABEL_NAME_TOKENS: ReadonlySet<TokenType> = new Set<TokenType>([
  ...METRIC_NAME_TOKENS,
  T.BOOL,
  T.GROUP_LEFT,
  T.GROUP_RIGHT,
  T.IGNORING,
  T.ON,
  T.ATAN2,
]);

/**
 * The lexer of Go's `text/template` (Go 1.19, which Debian's Prometheus 2.42 is built with):
 * text, `{{ }}` actions with `-` trim markers, comments, and the tokens inside actions. Positions
 * are offsets into the template text (UTF-16 units; Go counts bytes, the same for ASCII text).
 * Errors are tokens, as in Go, so that the parser words them with its line number.
 */
import { goQuote, goRuneHash } from '../../model/index.js';

/** The kinds of tokens. */
export type ItemType =
  | 'error'
  | 'bool'
  | 'char'
  | 'charConstant'
  | 'complex'
  | 'assign'
  | 'declare'
  | 'eof'
  | 'field'
  | 'identifier'
  | 'leftDelim'
  | 'leftParen'
  | 'number'
  | 'pipe'
  | 'rawString'
  | 'rightDelim'
  | 'rightParen'
  | 'space'
  | 'string'
  | 'text'
  | 'variable'
  // Keywords.
  | 'block'
  | 'break'
  | 'continue'
  | 'dot'
  | 'define'
  | 'else'
  | 'end'
  | 'if'
  | 'nil'
  | 'range'
  | 'template'
  | 'with';

/** One token: its kind, where it starts, its text and the line it starts on. */
export interface Item {
  readonly typ: ItemType;
  readonly pos: number;
  readonly val: string;
  readonly line: number;
}

const KEYWORDS: ReadonlyMap<string, ItemType> = new Map<string, ItemType>([
  ['.', 'dot'],
  ['block', 'block'],
  ['break', 'break'],
  ['continue', 'continue'],
  ['define', 'define'],
  ['else', 'else'],
  ['end', 'end'],
  ['if', 'if'],
  ['range', 'range'],
  ['nil', 'nil'],
  ['template', 'template'],
  ['with', 'with'],
]);

const KEYWORD_TYPES = new Set<ItemType>(KEYWORDS.values());

/** Go's `item.String()`, which parse errors quote: `"}"`, `<if>`, `EOF`, `"abcdefghij"...`. */
export function itemString(i: Item): string {
  if (i.typ === 'eof') return 'EOF';
  if (i.typ === 'error') return i.val;
  if (KEYWORD_TYPES.has(i.typ)) return `<${i.val}>`;
  if (Array.from(i.val).length > 10) return `${goQuote(Array.from(i.val).slice(0, 10).join(''))}...`;
  return goQuote(i.val);
}

const SPACE_CHARS = ' \t\r\n';
const isSpace = (c: string | undefined): boolean => c !== undefined && c !== '' && SPACE_CHARS.includes(c);
const isAlphaNumeric = (c: string | undefined): boolean => c !== undefined && /^[\p{L}\p{Nd}_]$/u.test(c);

/**
 * Splits `input` into tokens. The whole list is built at once (templates are short and the
 * parser needs three tokens of look-ahead); an error token ends it.
 */
export function lex(input: string, breakOK: boolean, continueOK: boolean): Item[] {
  const items: Item[] = [];
  let pos = 0;
  let start = 0;
  let line = 1;
  let startLine = 1;
  let parenDepth = 0;
  let done = false;

  const emit = (typ: ItemType): void => {
    items.push({ typ, pos: start, val: input.slice(start, pos), line: startLine });
    line += countNewlines(input.slice(start, pos));
    start = pos;
    startLine = line;
  };
  const ignore = (): void => {
    line += countNewlines(input.slice(start, pos));
    start = pos;
    startLine = line;
  };
  const error = (msg: string): void => {
    items.push({ typ: 'error', pos: start, val: msg, line: startLine });
    done = true;
  };
  const next = (): string => {
    if (pos >= input.length) return '';
    const cp = input.codePointAt(pos) ?? 0;
    const ch = String.fromCodePoint(cp);
    pos += ch.length;
    return ch;
  };
  const peek = (): string => (pos >= input.length ? '' : String.fromCodePoint(input.codePointAt(pos) ?? 0));
  const hasLeftTrim = (at: number): boolean => input[at] === '-' && isSpace(input[at + 1]);
  const hasRightTrim = (at: number): boolean => isSpace(input[at]) && input[at + 1] === '-';
  const atRightDelim = (): { delim: boolean; trim: boolean } => {
    if (input.startsWith('}}', pos)) return { delim: true, trim: false };
    if (hasRightTrim(pos) && input.startsWith('}}', pos + 2)) return { delim: true, trim: true };
    return { delim: false, trim: false };
  };
  const atTerminator = (): boolean => {
    const r = peek();
    return r === '' || isSpace(r) || '.,|:)('.includes(r) || r === '}';
  };
  const leftTrimLength = (s: string): number => s.length - s.replace(/^[ \t\r\n]+/, '').length;

  const lexText = (): void => {
    const x = input.indexOf('{{', pos);
    if (x < 0) {
      pos = input.length;
      if (pos > start) emit('text');
      emit('eof');
      done = true;
      return;
    }
    pos = x;
    let trim = 0;
    if (hasLeftTrim(pos + 2)) {
      const before = input.slice(start, pos);
      trim = before.length - before.replace(/[ \t\r\n]+$/, '').length;
    }
    pos -= trim;
    if (pos > start) emit('text');
    pos += trim;
    ignore();
    lexLeftDelim();
  };

  const lexLeftDelim = (): void => {
    pos += 2;
    const trim = hasLeftTrim(pos);
    const after = trim ? 2 : 0;
    if (input.startsWith('/*', pos + after)) {
      pos += after;
      ignore();
      lexComment();
      return;
    }
    emit('leftDelim');
    pos += after;
    ignore();
    parenDepth = 0;
    insideAction();
  };

  const lexComment = (): void => {
    pos += 2;
    const i = input.indexOf('*/', pos);
    if (i < 0) { error('unclosed comment'); return; }
    pos = i + 2;
    const { delim, trim } = atRightDelim();
    if (!delim) { error('comment ends before closing delimiter'); return; }
    if (trim) pos += 2;
    pos += 2;
    if (trim) pos += leftTrimLength(input.slice(pos));
    ignore();
  };

  const lexRightDelim = (): void => {
    const trim = hasRightTrim(pos);
    if (trim) {
      pos += 2;
      ignore();
    }
    pos += 2;
    emit('rightDelim');
    if (trim) {
      pos += leftTrimLength(input.slice(pos));
      ignore();
    }
  };

  /** Scans one action; returns when its right delimiter is consumed or an error was emitted. */
  const insideAction = (): void => {
    while (!done) {
      const { delim } = atRightDelim();
      if (delim) {
        if (parenDepth === 0) { lexRightDelim(); return; }
        error('unclosed left paren'); return;
      }
      const r = next();
      if (r === '') { error('unclosed action'); return; }
      if (isSpace(r)) {
        pos -= r.length;
        if (lexSpace()) { lexRightDelim(); return; }
        continue;
      }
      switch (r) {
        case '=':
          emit('assign');
          continue;
        case ':':
          if (next() !== '=') { error('expected :='); return; }
          emit('declare');
          continue;
        case '|':
          emit('pipe');
          continue;
        case '"':
          if (!lexQuote()) return;
          continue;
        case '`':
          if (!lexRawQuote()) return;
          continue;
        case '$':
          if (!lexVariable()) return;
          continue;
        case "'":
          if (!lexChar()) return;
          continue;
        case '(':
          emit('leftParen');
          parenDepth++;
          continue;
        case ')':
          emit('rightParen');
          parenDepth--;
          if (parenDepth < 0) { error(`unexpected right paren ${goRuneHash(0x29)}`); return; }
          continue;
      }
      if (r === '.') {
        const c = input[pos];
        if (pos < input.length && (c < '0' || c > '9')) {
          if (!lexFieldOrVariable('field')) return;
          continue;
        }
      }
      if (r === '.' || r === '+' || r === '-' || (r >= '0' && r <= '9')) {
        pos -= r.length;
        if (!lexNumber()) return;
        continue;
      }
      if (isAlphaNumeric(r)) {
        pos -= r.length;
        if (!lexIdentifier()) return;
        continue;
      }
      const cp = r.codePointAt(0) ?? 0;
      if (cp <= 0x7f && cp >= 0x20 && cp < 0x7f) {
        emit('char');
        continue;
      }
      error(`unrecognized character in action: ${goRuneHash(cp)}`); return;
    }
  };

  /** Scans spaces; true when they are the ` -` of a trimming right delimiter (then nothing is emitted). */
  const lexSpace = (): boolean => {
    let n = 0;
    while (isSpace(peek())) {
      next();
      n++;
    }
    if (hasRightTrim(pos - 1) && input.startsWith('}}', pos + 1)) {
      pos--;
      if (n === 1) return true;
    }
    emit('space');
    return false;
  };

  const lexIdentifier = (): boolean => {
    while (isAlphaNumeric(peek())) next();
    const word = input.slice(start, pos);
    if (!atTerminator()) {
      error(`bad character ${goRuneHash(peek().codePointAt(0) ?? -1)}`);
      return false;
    }
    const kw = KEYWORDS.get(word);
    if (kw !== undefined && !(kw === 'break' && !breakOK) && !(kw === 'continue' && !continueOK)) emit(kw);
    else if (word[0] === '.') emit('field');
    else if (word === 'true' || word === 'false') emit('bool');
    else emit('identifier');
    return true;
  };

  const lexVariable = (): boolean => {
    if (atTerminator()) {
      emit('variable');
      return true;
    }
    return lexFieldOrVariable('variable');
  };

  const lexFieldOrVariable = (typ: 'field' | 'variable'): boolean => {
    if (atTerminator()) {
      emit(typ === 'variable' ? 'variable' : 'dot');
      return true;
    }
    while (isAlphaNumeric(peek())) next();
    if (!atTerminator()) {
      const r = peek();
      error(`bad character ${goRuneHash(r === '' ? -1 : (r.codePointAt(0) ?? -1))}`);
      return false;
    }
    emit(typ);
    return true;
  };

  const lexChar = (): boolean => {
    for (;;) {
      const r = next();
      if (r === '\\') {
        const e = next();
        if (e !== '' && e !== '\n') continue;
      }
      if (r === '\\' || r === '' || r === '\n') {
        error('unterminated character constant');
        return false;
      }
      if (r === "'") break;
    }
    emit('charConstant');
    return true;
  };

  const accept = (valid: string): boolean => {
    const r = next();
    if (r !== '' && valid.includes(r)) return true;
    pos -= r.length;
    return false;
  };
  const acceptRun = (valid: string): void => {
    while (accept(valid));
  };
  const scanNumber = (): boolean => {
    accept('+-');
    let digits = '0123456789_';
    if (accept('0')) {
      if (accept('xX')) digits = '0123456789abcdefABCDEF_';
      else if (accept('oO')) digits = '01234567_';
      else if (accept('bB')) digits = '01_';
    }
    acceptRun(digits);
    if (accept('.')) acceptRun(digits);
    if (digits.length === 11 && accept('eE')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    if (digits.length === 23 && accept('pP')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    accept('i');
    if (isAlphaNumeric(peek())) {
      next();
      return false;
    }
    return true;
  };
  const lexNumber = (): boolean => {
    if (!scanNumber()) {
      error(`bad number syntax: ${goQuote(input.slice(start, pos))}`);
      return false;
    }
    const sign = peek();
    if (sign === '+' || sign === '-') {
      if (!scanNumber() || input[pos - 1] !== 'i') {
        error(`bad number syntax: ${goQuote(input.slice(start, pos))}`);
        return false;
      }
      emit('complex');
    } else emit('number');
    return true;
  };

  const lexQuote = (): boolean => {
    for (;;) {
      const r = next();
      if (r === '\\') {
        const e = next();
        if (e !== '' && e !== '\n') continue;
      }
      if (r === '\\' || r === '' || r === '\n') {
        error('unterminated quoted string');
        return false;
      }
      if (r === '"') break;
    }
    emit('string');
    return true;
  };

  const lexRawQuote = (): boolean => {
    const end = input.indexOf('`', pos);
    if (end < 0) {
      error('unterminated raw quoted string');
      return false;
    }
    pos = end + 1;
    emit('rawString');
    return true;
  };

  while (!done) lexText();
  return items;
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

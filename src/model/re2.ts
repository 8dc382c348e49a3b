/**
 * Translation of RE2 syntax (what Prometheus accepts in `=~` / `!~` matchers) into an equivalent
 * JavaScript `RegExp`. JavaScript's engine is a backtracking one with a different dialect, so
 * this module rewrites the RE2-only spellings (`\Q..\E`, `(?P<n>`, `(?i)` flag groups, POSIX
 * classes, `\z`, `\x{..}`, RE2's lenient `{`) and rejects what RE2 rejects (backreferences,
 * lookaround) with RE2-like messages. Prometheus anchors every matcher regex on both ends and
 * lets `.` match newlines: `^(?s:<re>)$`; `compileAnchoredRe2` does the same.
 */

/** An error in a regular expression, worded like Go's `regexp/syntax` errors. */
export class Re2SyntaxError extends Error {
  constructor(message: string, readonly pattern: string) {
    super(`error parsing regexp: ${message}: \`${pattern}\``);
    this.name = 'Re2SyntaxError';
  }
}

const POSIX_CLASSES: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

// Characters that must stay escaped in a JS unicode-mode pattern (outside a class).
const JS_SYNTAX = new Set(Array.from('^$\\.*+?()[]{}|/'));
const RE2_SPACE = '\\t\\n\\f\\r ';
const MAX_REPEAT = 1000;

function escapeLiteral(ch: string, inClass: boolean): string {
  if (JS_SYNTAX.has(ch) || (inClass && ch === '-')) return '\\' + ch;
  return ch;
}

function caseFold(ch: string): string {
  const lo = ch.toLowerCase();
  const up = ch.toUpperCase();
  return lo === up || lo.length !== 1 || up.length !== 1 ? escapeLiteral(ch, false) : `[${lo}${up}]`;
}

class Translator {
  private i = 0;
  private out = '';
  // Case-insensitivity per open group; index 0 is the whole pattern.
  private readonly fold: boolean[] = [false];

  constructor(private readonly src: string) {}

  private fail(msg: string): never {
    throw new Re2SyntaxError(msg, this.src);
  }

  translate(): string {
    const s = this.src;
    while (this.i < s.length) {
      const ch = s[this.i];
      if (ch === '\\') this.escape(false);
      else if (ch === '[') this.charClass();
      else if (ch === '(') this.group();
      else if (ch === ')') {
        if (this.fold.length <= 1) this.fail('unexpected )');
        this.fold.pop();
        this.out += ')';
        this.i++;
      } else if (ch === '{') this.brace();
      else if (ch === '}') {
        this.out += '\\}';
        this.i++;
      } else {
        this.out += this.folding() ? caseFold(ch) : ch === '/' ? '\\/' : ch;
        this.i += ch.length;
      }
    }
    if (this.fold.length > 1) this.fail('missing closing )');
    return this.out;
  }

  private folding(): boolean {
    return this.fold[this.fold.length - 1];
  }

  /** `{n}`, `{n,}`, `{n,m}` are repeats; anything else is a literal brace in RE2. */
  private brace(): void {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
    if (!m) {
      this.out += '\\{';
      this.i++;
      return;
    }
    const min = Number(m[1]);
    const max = m[3] === undefined || m[3] === '' ? min : Number(m[3]);
    if (min > MAX_REPEAT || max > MAX_REPEAT || (m[3] !== undefined && m[3] !== '' && max < min)) {
      this.fail(`invalid repeat count: \`${m[0]}\``);
    }
    this.out += m[0];
    this.i += m[0].length;
  }

  private group(): void {
    const rest = this.src.slice(this.i);
    // Lookaround first: `(?<=` and `(?<!` would otherwise read as a named group.
    if (rest.startsWith('(?=') || rest.startsWith('(?!') || rest.startsWith('(?<=') || rest.startsWith('(?<!')) {
      this.fail(`invalid or unsupported Perl syntax: \`${rest.slice(0, 3)}\``);
    }
    if (rest.startsWith('(?P<') || rest.startsWith('(?<')) {
      const m = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
      if (!m) this.fail(`invalid named capture: \`${rest.slice(0, 10)}\``);
      this.out += `(?<${m[1]}>`;
      this.i += m[0].length;
      this.fold.push(this.folding());
      return;
    }
    if (rest.startsWith('(?')) {
      const m = /^\(\?([a-zA-Z-]*)(:|\))/.exec(rest);
      if (!m) this.fail(`missing argument to repetition operator: \`?\``);
      let fold = this.folding();
      let negate = false;
      for (const f of m[1]) {
        if (f === '-') negate = true;
        else if (f === 'i') fold = !negate;
        else if (f === 's') continue; // dot already matches newline
        else if (f === 'm' || f === 'U') this.fail(`unsupported flag \`${f}\` (Infersight supports i and s)`);
        else this.fail(`invalid or unsupported Perl syntax: \`(?${m[1]}\``);
      }
      this.i += m[0].length;
      if (m[2] === ')') {
        this.fold[this.fold.length - 1] = fold; // flags for the rest of the current group
      } else {
        this.out += '(?:';
        this.fold.push(fold);
      }
      return;
    }
    this.out += '(';
    this.fold.push(this.folding());
    this.i++;
  }

  /** Translates one escape at `this.i` (which holds the backslash). */
  private escape(inClass: boolean): void {
    const s = this.src;
    const c = s[this.i + 1];
    if (c === undefined) this.fail('trailing backslash at end of expression');
    this.i += 2;
    if (c === 'Q') {
      const end = s.indexOf('\\E', this.i);
      const lit = end < 0 ? s.slice(this.i) : s.slice(this.i, end);
      this.i = end < 0 ? s.length : end + 2;
      for (const ch of lit) this.out += inClass ? escapeLiteral(ch, true) : this.folding() ? caseFold(ch) : escapeLiteral(ch, false);
      return;
    }
    if (c >= '1' && c <= '9') this.fail(`invalid escape sequence: \`\\${c}\``);
    switch (c) {
      case 'd': case 'D': case 'w': case 'W': case 'n': case 'r': case 't': case 'f': case 'v':
        this.out += '\\' + c;
        return;
      case 'b': case 'B':
        if (inClass) this.fail(`invalid escape sequence: \`\\${c}\``);
        this.out += '\\' + c;
        return;
      case 's':
        this.out += inClass ? RE2_SPACE : `[${RE2_SPACE}]`;
        return;
      case 'S':
        if (inClass) this.fail('invalid escape sequence: `\\S` inside a class is not supported');
        this.out += `[^${RE2_SPACE}]`;
        return;
      case 'a':
        this.out += '\\x07';
        return;
      case 'A':
        if (inClass) this.fail('invalid escape sequence: `\\A`');
        this.out += '^';
        return;
      case 'z':
        if (inClass) this.fail('invalid escape sequence: `\\z`');
        this.out += '$';
        return;
      case 'C':
        this.fail('invalid escape sequence: `\\C`');
        break;
      case 'x': {
        const m = /^\{([0-9A-Fa-f]{1,6})\}|^([0-9A-Fa-f]{2})/.exec(s.slice(this.i));
        if (!m) this.fail('invalid escape sequence: `\\x`');
        this.i += m[0].length;
        this.out += m[1] !== undefined ? `\\u{${m[1]}}` : `\\x${m[2]}`;
        return;
      }
      case 'p': case 'P': {
        const m = /^\{(\^?)([A-Za-z_]+)\}|^([A-Za-z])/.exec(s.slice(this.i));
        if (!m) this.fail(`invalid character class range: \`\\${c}\``);
        this.i += m[0].length;
        const name = m[2] ?? m[3];
        const neg = (c === 'P') !== (m[1] === '^');
        const prop = name.length <= 2 ? name : `Script=${name}`;
        this.out += `\\${neg ? 'P' : 'p'}{${prop}}`;
        return;
      }
      default:
        if (/[A-Za-z0-9]/.test(c)) this.fail(`invalid escape sequence: \`\\${c}\``);
        this.out += inClass ? escapeLiteral(c, true) : this.folding() ? caseFold(c) : escapeLiteral(c, false);
    }
  }

  private charClass(): void {
    const s = this.src;
    this.i++;
    let body = '';
    let negated = false;
    if (s[this.i] === '^') {
      negated = true;
      this.i++;
    }
    let first = true;
    for (;;) {
      if (this.i >= s.length) this.fail(`missing closing ]: \`${s.slice(s.lastIndexOf('['))}\``);
      const ch = s[this.i];
      if (ch === ']' && !first) break;
      first = false;
      if (ch === '[' && s[this.i + 1] === ':') {
        const m = /^\[:(\^?)([a-z]+):\]/.exec(s.slice(this.i));
        if (m) {
          const cls = POSIX_CLASSES[m[2]];
          if (cls === undefined || m[1] === '^') this.fail(`invalid character class range: \`${m[0]}\``);
          body += cls;
          this.i += m[0].length;
          continue;
        }
      }
      if (ch === '\\') {
        const before = this.out;
        this.out = '';
        this.escape(true);
        body += this.out;
        this.out = before;
        continue;
      }
      body += ch === '[' ? '\\[' : ch === '/' ? '\\/' : ch;
      this.i++;
    }
    this.i++; // the closing ]
    if (this.folding()) body = foldClassBody(body);
    this.out += `[${negated ? '^' : ''}${body}]`;
  }
}

/** Adds the other case of every letter and letter range in a class body. */
function foldClassBody(body: string): string {
  let extra = '';
  const re = /([A-Za-z])-([A-Za-z])|([A-Za-z])/g;
  for (let m = re.exec(body); m !== null; m = re.exec(body)) {
    if (m[3] !== undefined) extra += m[3] === m[3].toLowerCase() ? m[3].toUpperCase() : m[3].toLowerCase();
    else if (m[1] >= 'a' && m[2] <= 'z') extra += `${m[1].toUpperCase()}-${m[2].toUpperCase()}`;
    else if (m[1] >= 'A' && m[2] <= 'Z') extra += `${m[1].toLowerCase()}-${m[2].toLowerCase()}`;
  }
  return body + extra;
}

/** Translates an RE2 pattern to a JavaScript pattern body (no anchors, use flags `su`). */
export function translateRe2(pattern: string): string {
  return new Translator(pattern).translate();
}

/**
 * Compiles `pattern` as Prometheus does for label matchers: fully anchored, `.` matching newline.
 * Throws `Re2SyntaxError` for invalid or unsupported syntax.
 */
export function compileAnchoredRe2(pattern: string): RegExp {
  const body = translateRe2(pattern);
  try {
    return new RegExp(`^(?:${body})$`, 'su');
  } catch (e) {
    throw new Re2SyntaxError((e as Error).message.replace(/^Invalid regular expression: /, ''), pattern);
  }
}

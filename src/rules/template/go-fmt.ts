/**
 * Go's `fmt.Sprintf`, `fmt.Sprint` and `fmt.Sprintln` over template values, for `printf`,
 * `print`, `println` and the `humanize*` functions: verbs `%v %s %d %f %F %e %E %g %G %q %x %X
 * %o %b %c %t %T %%` with flags `- + # 0 space`, width and precision (also `*`), and Go's error
 * forms (`%!d(float64=1.5)`, `%!s(MISSING)`, `%!(EXTRA int=1)`).
 */
import { goQuote } from '../../model/index.js';
import { formatGoFloatHex, formatGoFloatPrec } from './go-float.js';
import { GoHTML, GoInt, GoTime, formatGoValue, goTypeName, type GoValue } from './values.js';

interface Spec {
  minus: boolean;
  plus: boolean;
  sharp: boolean;
  zero: boolean;
  space: boolean;
  width: number | undefined;
  prec: number | undefined;
}

function pad(s: string, f: Spec, zeroOK = true): string {
  const n = Array.from(s).length;
  if (f.width === undefined || n >= f.width) return s;
  const fill = f.width - n;
  if (f.minus) return s + ' '.repeat(fill);
  if (f.zero && zeroOK) {
    // The sign stays before the zeros.
    const sign = /^[+\- ]/.test(s) ? s[0] : '';
    return sign + '0'.repeat(fill) + s.slice(sign.length);
  }
  return ' '.repeat(fill) + s;
}

function signed(digits: string, neg: boolean, f: Spec): string {
  if (neg) return `-${digits}`;
  if (f.plus) return `+${digits}`;
  if (f.space) return ` ${digits}`;
  return digits;
}

function fmtInt(v: number, verb: string, f: Spec): string | undefined {
  const neg = v < 0;
  const a = BigInt(Math.trunc(Math.abs(v)));
  let digits: string;
  switch (verb) {
    case 'd':
    case 'v':
      digits = a.toString();
      break;
    case 'b':
      digits = a.toString(2);
      break;
    case 'o':
    case 'O':
      digits = a.toString(8);
      if (verb === 'O') digits = `0o${digits}`;
      else if (f.sharp) digits = `0${digits}`;
      break;
    case 'x':
    case 'X':
      digits = a.toString(16);
      if (verb === 'X') digits = digits.toUpperCase();
      if (f.sharp) digits = (verb === 'x' ? '0x' : '0X') + digits;
      break;
    case 'c':
      return pad(String.fromCodePoint(Number(a)), f, false);
    case 'q':
      return pad(`'${String.fromCodePoint(Number(a))}'`, f, false);
    default:
      return undefined;
  }
  if (f.prec !== undefined) {
    digits = digits.padStart(f.prec, '0');
    if (f.prec === 0 && v === 0) digits = '';
    return pad(signed(digits, neg, f), f, false);
  }
  return pad(signed(digits, neg, f), f);
}

function fmtFloat(v: number, verb: string, f: Spec): string | undefined {
  let conv: 'e' | 'E' | 'f' | 'g' | 'G';
  let prec = f.prec ?? -1;
  switch (verb) {
    case 'v':
    case 'g':
    case 'G':
      conv = verb === 'G' ? 'G' : 'g';
      break;
    case 'e':
    case 'E':
    case 'f':
    case 'F':
      conv = verb === 'F' ? 'f' : (verb);
      if (f.prec === undefined) prec = 6;
      break;
    case 'x':
    case 'X':
      if (f.prec !== undefined) return undefined;
      return fmtHexFloat(v, verb === 'X', f);
    default:
      return undefined;
  }
  let num = formatGoFloatPrec(v, conv, prec);
  if (num[0] !== '-' && num[0] !== '+') num = `+${num}`;
  if (f.space && num[0] === '+' && !f.plus) num = ` ${num.slice(1)}`;
  if (num[1] === 'I' || num[1] === 'N') {
    if (num[1] === 'N' && !f.space && !f.plus) num = num.slice(1);
    return pad(num, f, false);
  }
  if (f.sharp) num = sharpFloat(num, conv === 'g' || conv === 'G' ? (prec === -1 ? 6 : prec) : 0);
  if (f.plus || num[0] !== '+') return pad(num, f);
  return pad(num.slice(1), f);
}

function fmtHexFloat(v: number, upper: boolean, f: Spec): string {
  let num = formatGoFloatHex(v, upper);
  if (num[0] !== '-') num = f.plus ? `+${num}` : f.space ? ` ${num}` : num;
  return pad(num, f, Number.isFinite(v));
}

/** `#` on a float: always a decimal point, and for %g the trailing zeros up to the precision. */
function sharpFloat(num: string, digitsWanted: number): string {
  let digits = digitsWanted;
  let body = num;
  let tail = '';
  const e = body.search(/[eE]/);
  if (e >= 0) {
    tail = body.slice(e);
    body = body.slice(0, e);
  }
  let sawNonzero = false;
  for (const c of body.slice(1)) {
    if (c === '.') continue;
    if (c !== '0') sawNonzero = true;
    if (sawNonzero) digits--;
  }
  if (!body.includes('.')) {
    if (body.length === 2 && body[1] === '0') digits--;
    body += '.';
  }
  return body + '0'.repeat(Math.max(digits, 0)) + tail;
}

function fmtString(s: string, verb: string, f: Spec): string | undefined {
  let t = s;
  switch (verb) {
    case 'v':
    case 's':
      if (f.prec !== undefined) t = Array.from(t).slice(0, f.prec).join('');
      return pad(t, f);
    case 'q':
      return pad(f.sharp && !t.includes('`') ? `\`${t}\`` : goQuote(t), f);
    case 'x':
    case 'X': {
      const hex = [...new TextEncoder().encode(t)].map((b) => b.toString(16).padStart(2, '0')).join(f.space ? ' ' : '');
      return pad(verb === 'X' ? hex.toUpperCase() : hex, f);
    }
    default:
      return undefined;
  }
}

/** Formats one argument for one verb; undefined when the verb does not apply to the type. */
function formatArg(arg: GoValue, verb: string, f: Spec): string | undefined {
  if (verb === 'T') return pad(arg === null ? '<nil>' : goTypeName(arg), f);
  if (arg === null) return verb === 'v' ? pad('<nil>', f) : undefined;
  if (typeof arg === 'boolean') return verb === 't' || verb === 'v' ? pad(String(arg), f) : undefined;
  if (typeof arg === 'number') return fmtFloat(arg, verb, f);
  if (arg instanceof GoInt) return fmtInt(arg.value, verb, f);
  if (typeof arg === 'string') return fmtString(arg, verb, f);
  if (arg instanceof GoHTML) return fmtString(arg.value, verb, f);
  if (arg instanceof GoTime && (verb === 'v' || verb === 's' || verb === 'q' || verb === 'x' || verb === 'X')) {
    return fmtString(formatGoValue(arg), verb, f);
  }
  if (verb === 'v' || verb === 's') return pad(formatGoValue(arg), f);
  return undefined;
}

function badVerb(verb: string, arg: GoValue): string {
  if (arg === null) return `%!${verb}(<nil>)`;
  return `%!${verb}(${goTypeName(arg)}=${formatGoValue(arg)})`;
}

/** Go's `fmt.Sprintf(format, args...)`. */
export function goSprintf(format: string, args: readonly GoValue[]): string {
  let out = '';
  let argNum = 0;
  let i = 0;
  while (i < format.length) {
    const pct = format.indexOf('%', i);
    if (pct < 0) {
      out += format.slice(i);
      break;
    }
    out += format.slice(i, pct);
    i = pct + 1;
    const f: Spec = { minus: false, plus: false, sharp: false, zero: false, space: false, width: undefined, prec: undefined };
    for (; i < format.length; i++) {
      const c = format[i];
      if (c === '-') {
        f.minus = true;
        f.zero = false;
      } else if (c === '+') f.plus = true;
      else if (c === '#') f.sharp = true;
      else if (c === '0') f.zero = !f.minus;
      else if (c === ' ') f.space = true;
      else break;
    }
    // Go's parsenum: a width or precision past a million swallows the rest of the format
    // (then "%!(NOVERB)"); that also keeps a hostile `%999999999d` from allocating gigabytes.
    const readNum = (): number | undefined => {
      let num: number | undefined;
      for (; i < format.length && format[i] >= '0' && format[i] <= '9'; i++) {
        if (num !== undefined && num > 1e6) {
          i = format.length;
          return undefined;
        }
        num = (num ?? 0) * 10 + (format.charCodeAt(i) - 48);
      }
      return num;
    };
    const starArg = (): number | undefined => {
      const a = args[argNum++];
      return a instanceof GoInt && Math.abs(a.value) <= 1e6 ? a.value : undefined;
    };
    if (format[i] === '*') {
      i++;
      const w = starArg();
      if (w === undefined) out += '%!(BADWIDTH)';
      else if (w < 0) {
        f.minus = true;
        f.zero = false;
        f.width = -w;
      } else f.width = w;
    } else f.width = readNum();
    if (format[i] === '.') {
      i++;
      if (format[i] === '*') {
        i++;
        const p = starArg();
        if (p === undefined || p < 0) out += '%!(BADPREC)';
        else f.prec = p;
      } else f.prec = readNum() ?? 0;
    }
    if (i >= format.length) {
      out += '%!(NOVERB)';
      break;
    }
    const verb = String.fromCodePoint(format.codePointAt(i) ?? 0);
    i += verb.length;
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (argNum >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    const arg = args[argNum++];
    out += formatArg(arg, verb, f) ?? badVerb(verb, arg);
  }
  if (argNum < args.length) {
    out += `%!(EXTRA ${args
      .slice(argNum)
      .map((a) => (a === null ? '<nil>' : `${goTypeName(a)}=${formatGoValue(a)}`))
      .join(', ')})`;
  }
  return out;
}

const isStringKind = (v: GoValue): boolean => typeof v === 'string' || v instanceof GoHTML;

/** Go's `fmt.Sprint`: operands in `%v`, a space between two operands when neither is a string. */
export function goSprint(args: readonly GoValue[]): string {
  let out = '';
  args.forEach((a, i) => {
    if (i > 0 && !isStringKind(a) && !isStringKind(args[i - 1])) out += ' ';
    out += formatGoValue(a);
  });
  return out;
}

/** Go's `fmt.Sprintln`: operands in `%v` separated by spaces, then a newline. */
export function goSprintln(args: readonly GoValue[]): string {
  return `${args.map((a) => formatGoValue(a)).join(' ')}\n`;
}

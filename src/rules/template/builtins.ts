/**
 * Go's `text/template` built-in functions (funcs.go, Go 1.19): `and`, `or`, `not`, `len`,
 * `index`, `slice`, `call`, `print`, `printf`, `println`, `html`, `js`, `urlquery`, `eq`, `ne`,
 * `lt`, `le`, `gt`, `ge`, with Go's error texts. `and`/`or` short-circuit in exec.ts; their entries here exist for
 * the parser's "function not defined" check and the argument count.
 */
import { FuncError, type GoFunc } from './exec.js';
import { goSprint, goSprintf, goSprintln } from './go-fmt.js';
import { GoHTML, GoInt, GoMap, GoSlice, goTypeName, isTrue, type GoValue } from './values.js';

type Kind = 'bool' | 'int' | 'float' | 'string' | 'other';

function basicKind(v: GoValue): Kind {
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof GoInt) return 'int';
  if (typeof v === 'number') return 'float';
  if (typeof v === 'string' || v instanceof GoHTML) return 'string';
  return 'other';
}

function scalar(v: GoValue): number | string | boolean {
  if (v instanceof GoInt) return v.value;
  if (v instanceof GoHTML) return v.value;
  return v as number | string | boolean;
}

function eq(args: GoValue[]): boolean {
  const [a, ...rest] = args;
  if (rest.length === 0) throw new FuncError('missing argument for comparison');
  const k1 = basicKind(a);
  for (const b of rest) {
    const k2 = basicKind(b);
    if (k1 !== k2 || k1 === 'other') {
      if (a === null || b === null) {
        if (a === b) return true;
        continue;
      }
      if (k1 !== k2) throw new FuncError('incompatible types for comparison');
      throw new FuncError(`non-comparable type ${goTypeName(a)}`);
    }
    if (scalar(a) === scalar(b)) return true;
  }
  return false;
}

function lt(a: GoValue, b: GoValue): boolean {
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  if (k1 === 'other' || k2 === 'other') throw new FuncError('invalid type for comparison');
  if (k1 !== k2) throw new FuncError('incompatible types for comparison');
  if (k1 === 'bool') throw new FuncError('invalid type for comparison');
  return scalar(a) < scalar(b);
}

/** Go's `template.HTMLEscapeString`. */
export function htmlEscape(s: string): string {
  return s.replace(/[\0"'&<>]/g, (c) => ({ '\0': '\uFFFD', '"': '&#34;', "'": '&#39;', '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c] ?? c);
}

/** Go's `unicode.IsPrint` beyond ASCII: letters, marks, numbers, punctuation, symbols. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** Go's `template.JSEscapeString` (Go 1.19). */
export function jsEscape(s: string): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    switch (ch) {
      case '\\':
        out += '\\\\';
        continue;
      case "'":
        out += "\\'";
        continue;
      case '"':
        out += '\\"';
        continue;
      case '<':
        out += '\\u003C';
        continue;
      case '>':
        out += '\\u003E';
        continue;
      case '&':
        out += '\\u0026';
        continue;
      case '=':
        out += '\\u003D';
        continue;
    }
    if (cp < 0x80 ? cp < 0x20 || cp === 0x7f : !PRINTABLE.test(ch)) out += `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
    else out += ch;
  }
  return out;
}

/** Go's `url.QueryEscape`. */
export function urlQueryEscape(s: string): string {
  let out = '';
  for (const b of new TextEncoder().encode(s)) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** `evalArgs` of the escapers: one string argument as is, anything else through `fmt.Sprint`. */
function escaperArg(args: GoValue[]): string {
  if (args.length === 1 && typeof args[0] === 'string') return args[0];
  return goSprint(args);
}

function index(item: GoValue, indexes: GoValue[]): GoValue {
  if (item === null) throw new FuncError('index of untyped nil');
  let v: GoValue = item;
  for (const ix of indexes) {
    if (v instanceof GoSlice || typeof v === 'string') {
      if (!(ix instanceof GoInt)) throw new FuncError(`cannot index slice/array with type ${ix === null ? '<nil>' : goTypeName(ix)}`);
      const len = typeof v === 'string' ? new TextEncoder().encode(v).length : v.items.length;
      if (ix.value < 0 || ix.value >= len) throw new FuncError(`index out of range: ${ix.value}`);
      v = typeof v === 'string' ? new GoInt(new TextEncoder().encode(v)[ix.value]) : v.items[ix.value];
    } else if (v instanceof GoMap) {
      if (ix === null) throw new FuncError('value is nil; should be of type string');
      if (typeof ix !== 'string') throw new FuncError(`value has type ${goTypeName(ix)}; should be string`);
      const got = v.entries.get(ix);
      v = got !== undefined ? got : v.elem === 'string' ? '' : null;
    } else if (v === null) throw new FuncError('index of nil pointer');
    else throw new FuncError(`can't index item of type ${goTypeName(v)}`);
  }
  return v;
}

/** Go's `slice` built-in for strings and slices (`slice x 1 3`). */
function slice(item: GoValue, indexes: GoValue[]): GoValue {
  if (item === null) throw new FuncError('slice of untyped nil');
  if (indexes.length > 3) throw new FuncError(`too many slice indexes: ${indexes.length}`);
  const isString = typeof item === 'string';
  if (!isString && !(item instanceof GoSlice)) throw new FuncError(`can't slice item of type ${goTypeName(item)}`);
  if (isString && indexes.length === 3) throw new FuncError('cannot 3-index slice a string');
  const bytes = isString ? new TextEncoder().encode(item) : undefined;
  const len = bytes !== undefined ? bytes.length : (item as GoSlice).items.length;
  const ix = [0, len];
  indexes.slice(0, 2).forEach((v, i) => {
    if (!(v instanceof GoInt)) throw new FuncError(`cannot index slice/array with type ${v === null ? '<nil>' : goTypeName(v)}`);
    if (v.value < 0 || v.value > len) throw new FuncError(`index out of range: ${v.value}`);
    ix[i] = v.value;
  });
  if (ix[0] > ix[1]) throw new FuncError(`invalid slice index: ${ix[0]} > ${ix[1]}`);
  if (bytes !== undefined) return new TextDecoder().decode(bytes.slice(ix[0], ix[1]));
  return new GoSlice((item as GoSlice).typeName, (item as GoSlice).items.slice(ix[0], ix[1]));
}

function length(v: GoValue): GoInt {
  if (typeof v === 'string') return new GoInt(new TextEncoder().encode(v).length);
  if (v instanceof GoHTML) return new GoInt(new TextEncoder().encode(v.value).length);
  if (v instanceof GoMap) return new GoInt(v.entries.size);
  if (v instanceof GoSlice) return new GoInt(v.items.length);
  if (v === null) throw new FuncError('len of nil pointer');
  throw new FuncError(`len of type ${goTypeName(v)}`);
}

const V = 'reflect.Value' as const;
const ANY = 'interface {}' as const;

/** The built-in functions by name. */
export const BUILTINS: ReadonlyMap<string, GoFunc> = new Map<string, GoFunc>([
  ['and', { params: [V], variadic: V, call: () => null }],
  ['or', { params: [V], variadic: V, call: () => null }],
  ['not', { params: [V], call: ([a]) => !isTrue(a) }],
  ['len', { params: [V], call: ([a]) => length(a) }],
  ['slice', { params: [V], variadic: V, call: ([item, ...ix]) => slice(item, ix) }],
  // No template value is a function here, so `call` always fails as Go's does on a non-function.
  [
    'call',
    {
      params: [V],
      variadic: V,
      call: ([fn]) => {
        throw new FuncError(fn === null ? 'call of nil' : `non-function of type ${goTypeName(fn)}`);
      },
    },
  ],
  ['index', { params: [V], variadic: V, call: ([item, ...ix]) => index(item, ix) }],
  ['print', { params: [], variadic: ANY, call: (a) => goSprint(a) }],
  ['println', { params: [], variadic: ANY, call: (a) => goSprintln(a) }],
  ['printf', { params: ['string'], variadic: ANY, call: ([f, ...a]) => goSprintf(f as string, a) }],
  ['html', { params: [], variadic: ANY, call: (a) => htmlEscape(escaperArg(a)) }],
  ['js', { params: [], variadic: ANY, call: (a) => jsEscape(escaperArg(a)) }],
  ['urlquery', { params: [], variadic: ANY, call: (a) => urlQueryEscape(escaperArg(a)) }],
  ['eq', { params: [V], variadic: V, call: (a) => eq(a) }],
  ['ne', { params: [V, V], call: ([a, b]) => !eq([a, b]) }],
  ['lt', { params: [V, V], call: ([a, b]) => lt(a, b) }],
  ['le', { params: [V, V], call: ([a, b]) => lt(a, b) || eq([a, b]) }],
  ['gt', { params: [V, V], call: ([a, b]) => !(lt(a, b) || eq([a, b])) }],
  ['ge', { params: [V, V], call: ([a, b]) => !lt(a, b) }],
]);

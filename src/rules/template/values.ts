/**
 * The Go values a Prometheus template handles, in JavaScript: what `reflect` tells Go's
 * `text/template` (type names for error messages, truth, printing with `fmt`'s `%v`).
 *
 * - `string`, `boolean`, `number` (float64), `null` (no value: a nil interface or a missing key);
 * - `GoInt` (an untyped integer constant becomes Go's `int`), `GoHTML` (`safeHtml`'s
 *   `html/template.HTML`), `GoMap` (`map[string]string` labels, `map[string]interface {}` from
 *   `args`), `GoStruct` (the template data, a query sample `*template.sample`), `GoSlice`
 *   (`template.queryResult`), `GoTime` (`toTime`'s `*time.Time`).
 */
import { formatGoFloatG } from '../../model/index.js';

/** Go's `int`. */
export class GoInt {
  constructor(readonly value: number) {}
}

/** `html/template.HTML`: a string of its own type. */
export class GoHTML {
  constructor(readonly value: string) {}
}

/** A Go map with string keys; `elem` names its element type. */
export class GoMap {
  constructor(
    readonly elem: 'string' | 'interface {}',
    readonly entries: ReadonlyMap<string, GoValue>,
  ) {}
  /** The map of a label set (`map[string]string`). */
  static ofStrings(rec: Readonly<Record<string, string>>): GoMap {
    return new GoMap('string', new Map(Object.entries(rec)));
  }
}

/** A Go struct (or a pointer to one, when `pointer`), with its fields in declaration order. */
export class GoStruct {
  constructor(
    readonly typeName: string,
    readonly fields: ReadonlyMap<string, GoValue>,
    readonly pointer: boolean,
  ) {}
}

/** A Go slice of the named type. */
export class GoSlice {
  constructor(
    readonly typeName: string,
    readonly items: readonly GoValue[],
  ) {}
}

/** A `time.Time` in UTC (a pointer when `pointer`, as `toTime` returns), to the nanosecond. */
export class GoTime {
  constructor(
    readonly unixNs: bigint,
    readonly pointer: boolean,
  ) {}
}

/** Any value a template sees. */
export type GoValue = string | number | boolean | null | GoInt | GoHTML | GoMap | GoStruct | GoSlice | GoTime;

/** Go's name of the value's type, as `reflect.Type.String()` writes it. */
export function goTypeName(v: GoValue): string {
  if (v === null) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof GoInt) return 'int';
  if (v instanceof GoHTML) return 'template.HTML';
  if (v instanceof GoMap) return `map[string]${v.elem}`;
  if (v instanceof GoStruct) return v.pointer ? `*${v.typeName}` : v.typeName;
  if (v instanceof GoSlice) return v.typeName;
  return v.pointer ? '*time.Time' : 'time.Time';
}

/** Go's `template.IsTrue`: non-zero numbers, non-empty strings, maps and slices, true, non-nil pointers and structs. */
export function isTrue(v: GoValue): boolean {
  if (v === null) return false;
  if (typeof v === 'string') return v !== '';
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'boolean') return v;
  if (v instanceof GoInt) return v.value !== 0;
  if (v instanceof GoHTML) return v.value !== '';
  if (v instanceof GoMap) return v.entries.size > 0;
  if (v instanceof GoSlice) return v.items.length > 0;
  return true;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The civil parts of a UTC time. */
function civil(t: GoTime): { y: number; mo: number; d: number; h: number; mi: number; s: number; ns: number; wd: number; yd: number } {
  const sec = t.unixNs / 1_000_000_000n - (t.unixNs < 0n && t.unixNs % 1_000_000_000n !== 0n ? 1n : 0n);
  const ns = Number(t.unixNs - sec * 1_000_000_000n);
  const date = new Date(Number(sec) * 1000);
  const start = Date.UTC(date.getUTCFullYear(), 0, 1);
  return {
    y: date.getUTCFullYear(),
    mo: date.getUTCMonth(),
    d: date.getUTCDate(),
    h: date.getUTCHours(),
    mi: date.getUTCMinutes(),
    s: date.getUTCSeconds(),
    ns,
    wd: date.getUTCDay(),
    yd: Math.floor((Number(sec) * 1000 - start) / 86_400_000) + 1,
  };
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

/**
 * Go's `time.Time.Format(layout)` for a UTC time: the reference-time tokens (`2006`, `01`, `Jan`,
 * `02`, `_2`, `15`, `03`, `04`, `05`, `.000`, `.999`, `PM`, `MST`, `-0700`, `Z07:00`, ...).
 */
export function formatGoTime(t: GoTime, layout: string): string {
  const c = civil(t);
  const tokens: [string, () => string][] = [
    ['January', () => MONTHS[c.mo]],
    ['Monday', () => DAYS[c.wd]],
    ['2006', () => pad(c.y, 4)],
    ['Jan', () => MONTHS[c.mo].slice(0, 3)],
    ['Mon', () => DAYS[c.wd].slice(0, 3)],
    ['MST', () => 'UTC'],
    ['Z07:00', () => 'Z'],
    ['Z0700', () => 'Z'],
    ['-07:00', () => '+00:00'],
    ['-0700', () => '+0000'],
    ['-07', () => '+00'],
    ['002', () => pad(c.yd, 3)],
    ['01', () => pad(c.mo + 1, 2)],
    ['02', () => pad(c.d, 2)],
    ['_2', () => String(c.d).padStart(2, ' ')],
    ['06', () => pad(c.y % 100, 2)],
    ['15', () => pad(c.h, 2)],
    ['03', () => pad(c.h % 12 === 0 ? 12 : c.h % 12, 2)],
    ['04', () => pad(c.mi, 2)],
    ['05', () => pad(c.s, 2)],
    ['PM', () => (c.h >= 12 ? 'PM' : 'AM')],
    ['pm', () => (c.h >= 12 ? 'pm' : 'am')],
    ['1', () => String(c.mo + 1)],
    ['2', () => String(c.d)],
    ['3', () => String(c.h % 12 === 0 ? 12 : c.h % 12)],
    ['4', () => String(c.mi)],
    ['5', () => String(c.s)],
  ];
  let out = '';
  for (let i = 0; i < layout.length; ) {
    const frac = /^[.,](0+|9+)(?![0-9])/.exec(layout.slice(i));
    if (frac) {
      const n = frac[1].length;
      const digits = pad(c.ns, 9).slice(0, n);
      if (frac[1][0] === '0') out += `${layout[i]}${digits}`;
      else {
        const trimmed = digits.replace(/0+$/, '');
        if (trimmed !== '') out += `${layout[i]}${trimmed}`;
      }
      i += frac[0].length;
      continue;
    }
    const tok = tokens.find(([k]) => layout.startsWith(k, i));
    if (tok) {
      out += tok[1]();
      i += tok[0].length;
    } else out += layout[i++];
  }
  return out;
}

/** Go's `time.Time.String()` of a UTC time: `2015-06-23 13:19:44.128 +0000 UTC`. */
export function goTimeString(t: GoTime): string {
  return formatGoTime(t, '2006-01-02 15:04:05.999999999 -0700 MST');
}

/** `fmt`'s `%v` of a value; `depth` > 0 inside a container (where pointers print as addresses). */
export function formatGoValue(v: GoValue, depth = 0): string {
  if (v === null) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return formatGoFloatG(v);
  if (typeof v === 'boolean') return String(v);
  if (v instanceof GoInt) return String(v.value);
  if (v instanceof GoHTML) return v.value;
  if (v instanceof GoTime) return goTimeString(v);
  if (v instanceof GoMap) {
    const keys = [...v.entries.keys()].sort();
    return `map[${keys.map((k) => `${k}:${formatGoValue(v.entries.get(k) ?? null, depth + 1)}`).join(' ')}]`;
  }
  if (v instanceof GoSlice) return `[${v.items.map((i) => formatGoValue(i, depth + 1)).join(' ')}]`;
  // A pointer inside a container prints as its address in Go; there is no address here.
  if (v.pointer && depth > 0) return '0xc000000000';
  const body = `{${[...v.fields.values()].map((f) => formatGoValue(f, depth + 1)).join(' ')}}`;
  return v.pointer ? `&${body}` : body;
}

/**
 * Prometheus 2.42's number helpers of template/template.go: `humanize`, `humanize1024`,
 * `humanizeDuration`, `humanizePercentage`, `humanizeTimestamp`, `toTime`, and the
 * `convertToFloat` they share (float64, int, or a string through `strconv.ParseFloat`).
 */
import { parseGoFloat } from '../../model/index.js';
import { FuncError } from './exec.js';
import { goSprintf } from './go-fmt.js';
import { GoHTML, GoInt, GoTime, goTypeName, type GoValue } from './values.js';

/** Prometheus' `convertToFloat`; errors as Go words them. */
export function convertToFloat(v: GoValue): number {
  if (typeof v === 'number') return v;
  if (v instanceof GoInt) return v.value;
  if (typeof v === 'string') {
    const f = parseGoFloat(v);
    if (f === undefined) {
      // Go reports an out-of-range value with ErrRange, a malformed one with ErrSyntax.
      const range = /^[+-]?[0-9._]*[eE]?[+-]?[0-9_]*$/.test(v) && /[0-9]/.test(v) && v !== '';
      throw new FuncError(`strconv.ParseFloat: parsing ${goSprintf('%q', [v])}: ${range ? 'value out of range' : 'invalid syntax'}`);
    }
    return f;
  }
  throw new FuncError(`can't convert ${v === null ? '<nil>' : v instanceof GoHTML ? 'template.HTML' : goTypeName(v)} to float`);
}

const g4 = (v: number): string => goSprintf('%.4g', [v]);

/** `humanize`: SI prefixes (k M G ... and m u n ...), four significant digits. */
export function humanize(i: GoValue): string {
  let v = convertToFloat(i);
  if (v === 0 || !Number.isFinite(v)) return g4(v);
  if (Math.abs(v) >= 1) {
    let prefix = '';
    for (const p of ['k', 'M', 'G', 'T', 'P', 'E', 'Z', 'Y']) {
      if (Math.abs(v) < 1000) break;
      prefix = p;
      v /= 1000;
    }
    return g4(v) + prefix;
  }
  let prefix = '';
  for (const p of ['m', 'u', 'n', 'p', 'f', 'a', 'z', 'y']) {
    if (Math.abs(v) >= 1) break;
    prefix = p;
    v *= 1000;
  }
  return g4(v) + prefix;
}

/** `humanize1024`: binary prefixes (ki Mi Gi ...), four significant digits. */
export function humanize1024(i: GoValue): string {
  let v = convertToFloat(i);
  if (Math.abs(v) <= 1 || !Number.isFinite(v)) return g4(v);
  let prefix = '';
  for (const p of ['ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei', 'Zi', 'Yi']) {
    if (Math.abs(v) < 1024) break;
    prefix = p;
    v /= 1024;
  }
  return g4(v) + prefix;
}

/** `humanizeDuration`: seconds as `1d 2h 3m 4s`, or `1.234s`, `100ms` below a second. */
export function humanizeDuration(i: GoValue): string {
  let v = convertToFloat(i);
  if (!Number.isFinite(v)) return g4(v);
  if (v === 0) return `${g4(v)}s`;
  if (Math.abs(v) >= 1) {
    let sign = '';
    if (v < 0) {
      sign = '-';
      v = -v;
    }
    // Go's int64(v) truncates; whole seconds only from here.
    const duration = Math.trunc(v);
    const seconds = duration % 60;
    const minutes = Math.trunc(duration / 60) % 60;
    const hours = Math.trunc(duration / 3600) % 24;
    const days = Math.trunc(duration / 86400);
    if (days !== 0) return `${sign}${days}d ${hours}h ${minutes}m ${seconds}s`;
    if (hours !== 0) return `${sign}${hours}h ${minutes}m ${seconds}s`;
    if (minutes !== 0) return `${sign}${minutes}m ${seconds}s`;
    return `${sign}${g4(v)}s`;
  }
  let prefix = '';
  for (const p of ['m', 'u', 'n', 'p', 'f', 'a', 'z', 'y']) {
    if (Math.abs(v) >= 1) break;
    prefix = p;
    v *= 1000;
  }
  return `${g4(v)}${prefix}s`;
}

/** `humanizePercentage`: a ratio as a percentage with four significant digits. */
export function humanizePercentage(i: GoValue): string {
  return `${g4(convertToFloat(i) * 100)}%`;
}

/** Prometheus' `floatToTime`: Unix seconds to a UTC time, to the nanosecond. */
export function floatToTime(v: number): GoTime | 'nan-or-inf' {
  if (!Number.isFinite(v)) return 'nan-or-inf';
  const ns = v * 1e9;
  if (ns > 2 ** 63 || ns < -(2 ** 63)) {
    throw new FuncError(`${goSprintf('%v', [v])} cannot be represented as a nanoseconds timestamp since it overflows int64`);
  }
  return new GoTime(BigInt(Math.trunc(ns)), true);
}

/** `humanizeTimestamp`: Unix seconds as Go prints a UTC `time.Time`. */
export function humanizeTimestamp(i: GoValue): string {
  const v = convertToFloat(i);
  const t = floatToTime(v);
  if (t === 'nan-or-inf') return g4(v);
  return goSprintf('%v', [t]);
}

/** `toTime`: Unix seconds as a `*time.Time`. */
export function toTime(i: GoValue): GoValue {
  const t = floatToTime(convertToFloat(i));
  if (t === 'nan-or-inf') throw new FuncError('value is NaN or Inf');
  return t;
}

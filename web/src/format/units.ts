/**
 * Value and time formatting for every panel, axis, tooltip and table: one place decides how a
 * latency, a ratio, a byte count or a token rate reads. Pure functions; no locale surprises
 * (always `.` as decimal separator, SI suffixes k/M/G for counts, binary units for bytes).
 */
import type { Unit } from '../../../src/dashboards/types.js';

/** Shown where a value is missing (no series, NaN). */
export const NO_VALUE = '—';

/** Options of `formatValue`. */
export interface FormatOptions {
  /** Significant digits of the number part (default 3): 1.23 s, 12.3 ms, 123 ms. */
  readonly digits?: number;
  /** Leave out the unit suffix (table cells whose header names the unit). */
  readonly bare?: boolean;
}

/**
 * Formats `v` in `unit`: seconds become µs/ms/s/min/h, ratios become percentages, bytes use
 * KiB/MiB/GiB, counts and rates get k/M/G suffixes. NaN and undefined give `—`, infinities `+Inf`/`-Inf`.
 */
export function formatValue(v: number | undefined | null, unit: Unit, opts: FormatOptions = {}): string {
  if (v === undefined || v === null || Number.isNaN(v)) return NO_VALUE;
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  const digits = opts.digits ?? 3;
  const bare = opts.bare === true;
  switch (unit) {
    case 'seconds':
      return formatSeconds(v, digits);
    case 'ratio':
      return `${sig(v * 100, digits)}${bare ? '' : '%'}`;
    case 'percent':
      return `${sig(v, digits)}${bare ? '' : '%'}`;
    case 'bytes':
      return formatBytes(v, digits);
    case 'tokens':
      return compact(v, digits) + (bare ? '' : ' tok');
    case 'tokens/s':
      return compact(v, digits) + (bare ? '' : ' tok/s');
    case 'req/s':
      return compact(v, digits) + (bare ? '' : ' req/s');
    case 'dollars':
      return formatDollars(v, '');
    case 'dollars/h':
      return formatDollars(v, bare ? '' : '/h');
    case 'celsius':
      return `${sig(v, digits)}${bare ? '' : ' °C'}`;
    case 'hertz':
      return compact(v, digits) + (bare ? '' : 'Hz');
    case 'count':
    case 'none':
      return compact(v, digits);
  }
}

/** `n` with `digits` significant digits, trailing zeros removed: 1.50 → "1.5", 1234 → "1234". */
export function sig(n: number, digits = 3): string {
  if (n === 0) return '0';
  const abs = Math.abs(n);
  // At or past 10^digits the integer part already carries enough precision.
  if (abs >= 10 ** digits) return String(Math.round(n));
  const magnitude = Math.floor(Math.log10(abs));
  const decimals = Math.max(0, digits - 1 - magnitude);
  const fixed = n.toFixed(Math.min(decimals, 12));
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

const SI: readonly [number, string][] = [
  [1e12, 'T'],
  [1e9, 'G'],
  [1e6, 'M'],
  [1e3, 'k'],
];

/** A count with an SI suffix: 950 → "950", 1234 → "1.23k", 2500000 → "2.5M", 0.0123 → "0.0123". */
export function compact(n: number, digits = 3): string {
  const abs = Math.abs(n);
  for (const [scale, suffix] of SI) {
    if (abs >= scale) return sig(n / scale, digits) + suffix;
  }
  return sig(n, digits);
}

/** A duration in seconds: 0.00042 → "420 µs", 0.0123 → "12.3 ms", 1.5 → "1.5 s", 90 → "1.5 min". */
export function formatSeconds(s: number, digits = 3): string {
  const abs = Math.abs(s);
  if (abs === 0) return '0 s';
  if (abs < 1e-6) return `${sig(s * 1e9, digits)} ns`;
  if (abs < 1e-3) return `${sig(s * 1e6, digits)} µs`;
  if (abs < 1) return `${sig(s * 1e3, digits)} ms`;
  if (abs < 60) return `${sig(s, digits)} s`;
  if (abs < 3600) return `${sig(s / 60, digits)} min`;
  if (abs < 86400) return `${sig(s / 3600, digits)} h`;
  return `${sig(s / 86400, digits)} d`;
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** Bytes in binary units: 1536 → "1.5 KiB". */
export function formatBytes(b: number, digits = 3): string {
  let v = b;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < BYTE_UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  return `${sig(v, digits)} ${BYTE_UNITS[i]}`;
}

function formatDollars(v: number, suffix: string): string {
  const abs = Math.abs(v);
  const text = abs >= 1000 ? compact(v, 3) : abs >= 1 ? v.toFixed(2) : sig(v, 2);
  return `$${text}${suffix}`;
}

const DURATION_UNITS: readonly [string, number][] = [
  ['w', 7 * 86_400_000],
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
  ['ms', 1],
];

/** A duration in ms as Prometheus writes it: 90000 → "1m30s", 3600000 → "1h". */
export function formatDurationMs(ms: number): string {
  if (ms <= 0) return '0s';
  let rest = Math.round(ms);
  let out = '';
  for (const [suffix, size] of DURATION_UNITS) {
    if (rest >= size) {
      out += `${Math.floor(rest / size)}${suffix}`;
      rest %= size;
    }
  }
  return out;
}

/**
 * Parses a Prometheus duration (`5m`, `1h30m`, `500ms`, `2d`) into ms; undefined when it does not
 * parse or is not positive.
 */
export function parseDurationMs(text: string): number | undefined {
  const s = text.trim();
  if (!/^(\d+(ms|[smhdwy]))+$/.test(s)) return undefined;
  let total = 0;
  for (const m of s.matchAll(/(\d+)(ms|[smhdwy])/g)) {
    const n = Number(m[1]);
    const unit = m[2];
    const size = unit === 'y' ? 365 * 86_400_000 : (DURATION_UNITS.find(([u]) => u === unit)?.[1] ?? 0);
    total += n * size;
  }
  return total > 0 ? total : undefined;
}

/** "12s ago", "3m ago", "2h ago" for a time `ms` before `nowMs`. */
export function formatAgo(tMs: number, nowMs: number): string {
  const d = Math.max(0, nowMs - tMs);
  if (d < 1000) return 'just now';
  if (d < 60_000) return `${Math.floor(d / 1000)}s ago`;
  if (d < 3_600_000) return `${Math.floor(d / 60_000)}m ago`;
  if (d < 86_400_000) return `${Math.floor(d / 3_600_000)}h ago`;
  return `${Math.floor(d / 86_400_000)}d ago`;
}

/** `2026-11-30 07:58:12` in local time (tables, tooltips); seconds left out when `short`. */
export function formatDateTime(tMs: number, short = false): string {
  const d = new Date(tMs);
  const p = (n: number): string => String(n).padStart(2, '0');
  const date = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
  const time = `${p(d.getHours())}:${p(d.getMinutes())}${short ? '' : `:${p(d.getSeconds())}`}`;
  return `${date} ${time}`;
}

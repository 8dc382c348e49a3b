/**
 * The time range every page queries: a relative window ending now (`1h`) or an absolute
 * from/to. Pure; `now` is passed in.
 */
import { formatDurationMs, parseDurationMs } from '../format/units.js';

/** A window ending at the time the page is (re)loaded, or a fixed window. */
export type TimeRange =
  | { readonly kind: 'relative'; readonly durationMs: number }
  | { readonly kind: 'absolute'; readonly fromMs: number; readonly toMs: number };

/** The resolved window, in Unix ms. */
export interface ResolvedRange {
  readonly startMs: number;
  readonly endMs: number;
}

/** The relative presets of the range picker. */
export const RANGE_PRESETS: readonly { readonly text: string; readonly durationMs: number }[] = [
  '5m',
  '15m',
  '1h',
  '3h',
  '6h',
  '12h',
  '24h',
].map((text) => ({ text, durationMs: parseDurationMs(text)! }));

/** The default range: the last hour. */
export const DEFAULT_RANGE: TimeRange = { kind: 'relative', durationMs: 3_600_000 };

/** The refresh intervals offered, in ms; 0 is off. */
export const REFRESH_OPTIONS: readonly { readonly text: string; readonly ms: number }[] = [
  { text: 'Off', ms: 0 },
  { text: '5s', ms: 5000 },
  { text: '15s', ms: 15_000 },
  { text: '30s', ms: 30_000 },
  { text: '1m', ms: 60_000 },
];

/** The window `range` covers when the page looks at time `nowMs`. */
export function resolveRange(range: TimeRange, nowMs: number): ResolvedRange {
  if (range.kind === 'absolute') return { startMs: range.fromMs, endMs: range.toMs };
  return { startMs: nowMs - range.durationMs, endMs: nowMs };
}

/** "Last 1h" or "2026-11-30 07:00 → 08:00" for the picker's button. */
export function describeRange(range: TimeRange, fmt: (ms: number) => string): string {
  if (range.kind === 'relative') return `Last ${formatDurationMs(range.durationMs)}`;
  return `${fmt(range.fromMs)} → ${fmt(range.toMs)}`;
}

/** The range's length in ms. */
export function rangeDurationMs(range: TimeRange): number {
  return range.kind === 'relative' ? range.durationMs : range.toMs - range.fromMs;
}

/** Parses a time written in the URL: Unix ms, Unix seconds (10 digits or fewer) or RFC 3339. */
export function parseTimeParam(text: string): number | undefined {
  const s = text.trim();
  if (s === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(s)) {
    const n = Number(s);
    return s.split('.')[0].length <= 10 ? Math.round(n * 1000) : Math.round(n);
  }
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
}

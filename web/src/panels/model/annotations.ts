/**
 * Dashboard annotations (cold starts, scaling events) from range answers: each run of
 * consecutive steps where a series has a value is one event, starting at the run's first step,
 * described by the annotation's text template with the series' labels. Events closer than a few
 * pixels on a chart merge into one group marker with a count (`groupAnnotations`).
 */
import type { Annotation } from '../../../../src/dashboards/types.js';
import type { RangeSeries } from '../../../../src/query/index.js';
import { formatLegend } from './series.js';

/** One event marker. */
export interface AnnotationEvent {
  readonly annotationId: string;
  /** Start of the event, Unix ms. */
  readonly startMs: number;
  /** End of the event (the last step of the run), Unix ms. */
  readonly endMs: number;
  readonly text: string;
  readonly color: string;
}

/** The events of one annotation's answer, ordered by start time. */
export function annotationEvents(a: Annotation, series: readonly RangeSeries[], stepMs: number): AnnotationEvent[] {
  const out: AnnotationEvent[] = [];
  for (const s of series) {
    const text = formatLegend(a.text, s.metric);
    let runStart: number | undefined;
    let prev: number | undefined;
    const flush = (): void => {
      if (runStart !== undefined && prev !== undefined) out.push({ annotationId: a.id, startMs: runStart, endMs: prev, text, color: a.color });
    };
    for (const [t] of s.values) {
      const ms = Math.round(t * 1000);
      if (prev !== undefined && ms - prev > stepMs * 1.5) {
        flush();
        runStart = undefined;
      }
      runStart ??= ms;
      prev = ms;
    }
    flush();
  }
  return out.sort((x, y) => x.startMs - y.startMs || x.text.localeCompare(y.text));
}

/**
 * Markers closer than this many CSS pixels merge into one group marker with a count: a burst of
 * cold starts or scaling steps reads as one mark instead of a fence that hides the data.
 */
export const ANNOTATION_GROUP_PX = 16;

/** A chart shows at most about this many markers across its whole width, however wide it is. */
export const ANNOTATION_MAX_MARKERS = 12;

/**
 * The grouping distance of a chart showing `spanMs` over `widthCssPx` CSS pixels: the larger of
 * `ANNOTATION_GROUP_PX` pixels and 1 / `ANNOTATION_MAX_MARKERS` of the span, so that neither a
 * burst nor a steady stream of events (44 in 15 minutes in the demo) fills the chart with lines.
 */
export function annotationGroupGapMs(spanMs: number, widthCssPx: number): number {
  if (!(spanMs > 0)) return 0;
  return Math.max((ANNOTATION_GROUP_PX * spanMs) / Math.max(1, widthCssPx), spanMs / ANNOTATION_MAX_MARKERS);
}

/** At most this many events are listed in a hover; the rest are counted. */
export const ANNOTATION_HOVER_MAX = 8;

/** Events drawn as one marker. */
export interface AnnotationGroup {
  /** Where the marker stands: its first event's start, Unix ms. */
  readonly startMs: number;
  /** The latest end among its events, Unix ms (hover covers startMs..endMs). */
  readonly endMs: number;
  /** Its events, ordered by start. */
  readonly events: readonly AnnotationEvent[];
  /** The events' colour when they share one; undefined when they differ (drawn in a neutral colour). */
  readonly color: string | undefined;
}

/**
 * Groups events so that no two markers stand closer than `minGapMs` (`annotationGroupGapMs`): an event starting less than `minGapMs` after
 * the start of the current group joins it, any other opens the next group. Anchoring at each
 * group's first event, not at its latest one, keeps a steady stream of events from collapsing
 * into one group: a span of S ms holds at most S / minGapMs + 1 markers, however many events.
 * The events may come in any order (several annotations' lists concatenated).
 */
export function groupAnnotations(events: readonly AnnotationEvent[], minGapMs: number): AnnotationGroup[] {
  const sorted = [...events].sort((x, y) => x.startMs - y.startMs || x.annotationId.localeCompare(y.annotationId) || x.text.localeCompare(y.text));
  const out: AnnotationGroup[] = [];
  let members: AnnotationEvent[] = [];
  const flush = (): void => {
    if (members.length === 0) return;
    const color = members.every((e) => e.color === members[0].color) ? members[0].color : undefined;
    out.push({ startMs: members[0].startMs, endMs: Math.max(...members.map((e) => e.endMs)), events: members, color });
    members = [];
  };
  for (const ev of sorted) {
    if (members.length > 0 && !(ev.startMs - members[0].startMs < minGapMs)) flush();
    members.push(ev);
  }
  flush();
  return out;
}

/** The events of the groups whose span, widened by `toleranceMs` each side, holds `tMs` (a hover). */
export function groupEventsAt(groups: readonly AnnotationGroup[], tMs: number, toleranceMs: number): AnnotationEvent[] {
  return groups.filter((g) => tMs >= g.startMs - toleranceMs && tMs <= g.endMs + toleranceMs).flatMap((g) => g.events);
}

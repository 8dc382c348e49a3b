/**
 * Dashboard annotations (cold starts, scaling events) from range answers: each run of
 * consecutive steps where a series has a value is one event, starting at the run's first step,
 * described by the annotation's text template with the series' labels.
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

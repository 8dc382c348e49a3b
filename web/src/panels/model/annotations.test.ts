import { describe, expect, it } from 'vitest';
import {
  ANNOTATION_MAX_MARKERS,
  annotationGroupGapMs,
  groupAnnotations,
  groupEventsAt,
  type AnnotationEvent,
  type AnnotationGroup,
} from './annotations.js';

const T0 = Date.UTC(2025, 0, 6, 9);
const MIN = 60_000;

/** One event of annotation `id` (its colour is per id) at `startMs`. */
const ev = (startMs: number, id = 'cold-starts', text = `${id} ${startMs}`, endMs = startMs): AnnotationEvent => ({
  annotationId: id,
  startMs,
  endMs,
  text,
  color: id === 'cold-starts' ? '#f2994a' : '#56ccf2',
});

/** The invariants every grouping keeps: all events, in order, markers at least `gap` apart. */
function checkInvariants(events: readonly AnnotationEvent[], groups: readonly AnnotationGroup[], gapMs: number): void {
  expect(groups.flatMap((g) => g.events)).toHaveLength(events.length);
  expect(new Set(groups.flatMap((g) => g.events))).toEqual(new Set(events));
  for (const g of groups) {
    expect(g.startMs).toBe(g.events[0].startMs);
    for (const e of g.events) expect(e.startMs - g.startMs).toBeLessThan(Math.max(gapMs, 1));
    expect(g.endMs).toBe(Math.max(...g.events.map((e) => e.endMs)));
  }
  for (let i = 1; i < groups.length; i++) expect(groups[i].startMs - groups[i - 1].startMs).toBeGreaterThanOrEqual(gapMs);
}

describe('annotationGroupGapMs', () => {
  it.each([
    // 15 minutes on 600 px: 1/12 of the span (75 s) is wider than 16 px (24 s).
    [15 * MIN, 600, 75_000],
    // 15 minutes on 100 px: 16 px (144 s) is wider than 1/12 of the span.
    [15 * MIN, 100, 144_000],
    [0, 600, 0],
  ])('%d ms over %d px → %d ms', (span, width, want) => {
    expect(annotationGroupGapMs(span, width)).toBe(want);
  });
});

describe('groupAnnotations', () => {
  it('caps the demo case, 44 events in 15 minutes, to a dozen markers that count them all', () => {
    // Cold starts and scaling events of three components, on 1-minute steps, several per step.
    const events = Array.from({ length: 44 }, (_, i) => ev(T0 + ((i * 7) % 15) * MIN, i % 3 === 0 ? 'scaling' : 'cold-starts', `component-${i % 3} #${i}`));
    const gap = annotationGroupGapMs(15 * MIN, 600);
    const groups = groupAnnotations(events, gap);
    checkInvariants(events, groups, gap);
    expect(groups.length).toBeLessThanOrEqual(ANNOTATION_MAX_MARKERS + 1);
    expect(groups.length).toBeGreaterThan(1);
    expect(groups.every((g) => g.events.length > 1)).toBe(true);
  });

  it.each([
    ['a burst of 200 events within a second', Array.from({ length: 200 }, (_, i) => ev(T0 + i * 5)), 10_000, 1],
    ['a steady stream of 600 events a second apart (anchored, not chained: not one group)', Array.from({ length: 600 }, (_, i) => ev(T0 + i * 1000)), 60_000, 10],
    ['sparse events stay single', [ev(T0), ev(T0 + 5 * MIN), ev(T0 + 10 * MIN)], 60_000, 3],
    ['1,000 irregular events over an hour', Array.from({ length: 1000 }, (_, i) => ev(T0 + ((i * i * 7919) % 3_600_000))), annotationGroupGapMs(60 * MIN, 800), ANNOTATION_MAX_MARKERS],
    ['no events', [], 60_000, 0],
  ])('%s', (_what, events, gap, wantGroups) => {
    const groups = groupAnnotations(events, gap);
    checkInvariants(events, groups, gap);
    expect(groups).toHaveLength(wantGroups);
  });

  it('sorts events that come as several annotations\' lists, and keeps one colour only when the group shares it', () => {
    const scaling = [ev(T0 + 10_000, 'scaling'), ev(T0 + 5 * MIN, 'scaling')];
    const cold = [ev(T0, 'cold-starts'), ev(T0 + 5 * MIN + 1000, 'scaling'), ev(T0 + 10 * MIN, 'cold-starts'), ev(T0 + 10 * MIN + 1, 'cold-starts')];
    const groups = groupAnnotations([...scaling, ...cold], 60_000);
    expect(groups.map((g) => [g.startMs - T0, g.events.length, g.color])).toEqual([
      [0, 2, undefined],
      [5 * MIN, 2, '#56ccf2'],
      [10 * MIN, 2, '#f2994a'],
    ]);
  });
});

describe('groupEventsAt (the hover)', () => {
  const groups = groupAnnotations([ev(T0), ev(T0 + 20_000, 'scaling'), ev(T0 + 30_000), ev(T0 + 5 * MIN, 'cold-starts', 'long', T0 + 7 * MIN)], 60_000);

  it.each([
    ['on a group marker: every grouped event', T0, 0, 3],
    ['just before it, within the tolerance', T0 - 4000, 5000, 3],
    ['inside a long event', T0 + 6 * MIN, 0, 1],
    ['between groups', T0 + 3 * MIN, 5000, 0],
  ])('%s', (_what, t, tolerance, want) => {
    expect(groupEventsAt(groups, t, tolerance)).toHaveLength(want);
  });
});

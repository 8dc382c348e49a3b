import { describe, expect, test } from 'vitest';
import { alertingSpec } from '../testing/index.js';
import { formatGoTime, rulesApiData, alertsApiData } from './api-shapes.js';
import { newGroupMetrics } from './group-eval.js';
import { groupOffsetNs } from './schedule.js';
import { generatorURL, goQueryEscape } from './group-eval.js';
import { snapshotGroups } from './snapshot.js';
import { STEP, T0, oneGroup, seriesScript } from '../testing/one-group.js';

describe('sending alerts', () => {
  // Resend delay 1 m, interval 1 m: a firing alert is resent once the delay has passed (strictly),
  // a resolved one at once and then every delay until it is dropped.
  test('at firing, on resend, on resolving; endsAt is 4 × max(resend, interval) ahead or the resolve time', async () => {
    const values = [1, 1, 1, null, null, null];
    const h = oneGroup([alertingSpec('A', 'up > 0', { annotations: { s: 'x' } })], seriesScript(values), { options: { externalURL: 'http://prom:9090' } });
    const sentAt: string[] = [];
    for (let i = 0; i < values.length; i++) {
      const before = h.sent.length;
      await h.step(i);
      for (const batch of h.sent.slice(before)) for (const a of batch) sentAt.push(`${i}: ${(a.endsAt - T0) / STEP}`);
    }
    expect(sentAt).toEqual(['0: 4', '2: 6', '3: 3', '5: 3']);
    const a = h.sent[0][0];
    expect(a.startsAt).toBe(T0);
    expect(a.labels.toString()).toBe('{alertname="A", instance="a"}');
    expect(a.generatorURL).toBe('http://prom:9090/graph?g0.expr=up+%3E+0&g0.tab=1');
  });

  test('pending alerts are not sent', async () => {
    const h = oneGroup([alertingSpec('A', 'up', { forMs: 5 * STEP })], seriesScript([1, 1]));
    await h.step(0);
    await h.step(1);
    expect(h.sent).toEqual([]);
  });

  test.each([
    ['rate(x[5m]) > 0', 'rate%28x%5B5m%5D%29+%3E+0'],
    ["a{b='c'}!*~", 'a%7Bb%3D%27c%27%7D%21%2A~'],
  ])('query escaping of %j', (expr, want) => {
    expect(goQueryEscape(expr)).toBe(want);
    expect(generatorURL('', expr)).toBe(`/graph?g0.expr=${want}&g0.tab=1`);
  });
});

describe('API shapes', () => {
  test.each([
    [undefined, '0001-01-01T00:00:00Z'],
    [Date.UTC(2025, 0, 6, 9, 0, 0), '2025-01-06T09:00:00Z'],
    [Date.UTC(2025, 0, 6, 9, 0, 0, 500), '2025-01-06T09:00:00.5Z'],
    [Date.UTC(2025, 0, 6, 9, 0, 0, 123), '2025-01-06T09:00:00.123Z'],
  ])('time %s as Go marshals it', (t, want) => {
    expect(formatGoTime(t)).toBe(want);
  });

  test.each([
    [Date.UTC(2026, 11, 2, 0, 27, 25, 800), 206_862, '2026-12-02T00:27:25.800206862Z'],
    [Date.UTC(2026, 11, 2, 0, 27, 25, 0), 500_000, '2026-12-02T00:27:25.0005Z'],
    [Date.UTC(2026, 11, 2, 0, 27, 25, 0), 0, '2026-12-02T00:27:25Z'],
  ])('time %s plus %d ns as Go marshals it', (t, ns, want) => {
    expect(formatGoTime(t, ns)).toBe(want);
  });

  test('an alert active since a live tick shows the tick to the nanosecond, as Prometheus does', () => {
    const g = { name: 'alerts', file: '/etc/rules.yml', intervalMs: 1000 };
    const offset = groupOffsetNs(g.file, g.name, g.intervalMs);
    const tickNs = 1_796_000_000n * 1_000_000_000n + offset; // k × 1 s + offset
    const tickMs = Number(tickNs / 1_000_000n);
    const alert = { labels: { alertname: 'A' }, annotations: {}, state: 'firing' as const, activeAtMs: tickMs, value: '1e+00', keepFiringSinceMs: tickMs + 1 };
    const snapshot = { groups: [{ ...g, queryOffsetMs: 0, limit: 0, evaluationTimeMs: 0, lastEvaluationMs: tickMs, metrics: newGroupMetrics(), rules: [] }] };
    const rule = { type: 'alerting' as const, name: 'A', query: 'up', labels: {}, health: 'ok' as const, lastError: undefined, evaluationTimeMs: 0, lastEvaluationMs: tickMs, state: 'firing' as const, durationMs: 0, keepFiringForMs: 0, annotations: {}, alerts: [alert] };
    const [got] = alertsApiData({ groups: [{ ...snapshot.groups[0], rules: [rule] }] }).alerts;
    const ns = String(tickNs % 1_000_000_000n).padStart(9, '0').replace(/0+$/, '');
    expect(got.activeAt).toBe(`${new Date(tickMs).toISOString().slice(0, 19)}.${ns}Z`);
    // Not a tick of the group (1 ms later): milliseconds only.
    expect(got.keepFiringSince).toBe(new Date(tickMs + 1).toISOString().replace(/\.?0+Z$/, 'Z'));
  });

  test('rules and alerts data in Prometheus 2.42 key order', async () => {
    const h = oneGroup([alertingSpec('A', 'up', { keepFiringForMs: 2 * STEP, labels: { sev: 'page' } })], seriesScript([1, null]));
    await h.step(0);
    await h.step(1);
    const data = rulesApiData(snapshotGroups([h.group]));
    const rule = (data.groups[0] as { rules: Record<string, unknown>[] }).rules[0];
    expect(Object.keys(rule)).toEqual(['state', 'name', 'query', 'duration', 'keepFiringFor', 'labels', 'annotations', 'alerts', 'health', 'evaluationTime', 'lastEvaluation', 'type']);
    expect(rule.alerts).toEqual([{ labels: { alertname: 'A', instance: 'a', sev: 'page' }, annotations: {}, state: 'firing', activeAt: '2025-01-06T09:00:00Z', value: '1e+00', keepFiringSince: '2025-01-06T09:01:00Z' }]);
    expect(Object.keys(data.groups[0] as object)).toEqual(['name', 'file', 'rules', 'interval', 'limit', 'evaluationTime', 'lastEvaluation']);
    expect(alertsApiData(snapshotGroups([h.group])).alerts.length).toBe(1);
    expect(rulesApiData(snapshotGroups([h.group]), 'record').groups[0]).toMatchObject({ rules: [] });
  });
});

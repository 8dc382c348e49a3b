import { describe, expect, test } from 'vitest';
import { FakeTimers } from '../../model/testing/fake-timers.js';
import type { UnixMs } from '../../model/index.js';
import type { InstantQueryData } from '../../query/index.js';
import { RecordingAppendable, ScriptedQueryClient, alertingSpec, groupSpec, recordingSpec, vectorResult } from '../testing/index.js';
import type { RuleGroupSpec } from '../types.js';
import type { AlertingRule } from './alerting-rule.js';
import { RuleManager } from './manager.js';
import { evalTimestampMs } from './schedule.js';

const START = Date.UTC(2025, 0, 6, 9, 0, 0);
const I = 60_000;
const M = 60_000;

function setup(answer: (q: string, t: UnixMs) => InstantQueryData = (_q, t) => vectorResult(t, [[{ instance: 'a' }, 1]])) {
  const timers = new FakeTimers(START);
  const client = new ScriptedQueryClient(answer);
  const appendable = new RecordingAppendable();
  const manager = new RuleManager({ query: client, appendable, clock: timers.clock, timers, evaluationIntervalMs: I });
  const firstTick = (g: RuleGroupSpec): UnixMs => evalTimestampMs(g.file, g.name, I, timers.now) + I;
  return { timers, client, appendable, manager, firstTick };
}

describe('reload', () => {
  const g1 = groupSpec('g', [recordingSpec('r1', 'up'), alertingSpec('A', 'up')]);

  test('an unchanged group keeps running untouched, alerts included', async () => {
    const s = setup();
    await s.manager.update([g1]);
    s.manager.start();
    await s.timers.advance(3 * I);
    const before = s.manager.ruleGroups()[0];
    await s.manager.update([groupSpec('g', [recordingSpec('r1', 'up'), alertingSpec('A', 'up')])]);
    expect(s.manager.ruleGroups()[0]).toBe(before);
    await s.manager.stop();
  });

  test('a changed group keeps the state of the rules it kept and marks the removed rule stale at its next evaluation', async () => {
    const s = setup();
    await s.manager.update([g1]);
    s.manager.start();
    await s.timers.advance(3 * I);
    const oldAlert = [...(s.manager.ruleGroups()[0].rules[1] as AlertingRule).active.values()][0];
    await s.manager.update([groupSpec('g', [alertingSpec('A', 'up'), recordingSpec('r2', 'up')])]);
    const g = s.manager.ruleGroups()[0];
    expect([...(g.rules[0] as AlertingRule).active.values()][0]).toBe(oldAlert);
    const lastBefore = s.appendable.of('r1{instance="a"}').at(-1);
    await s.timers.advance(I);
    const r1 = s.appendable.of('r1{instance="a"}');
    expect(lastBefore?.[1]).toBe(1);
    expect(r1.at(-1)?.[1]).toBe('stale');
    expect(s.appendable.of('r2{instance="a"}').length).toBe(1);
    await s.manager.stop();
  });

  test('a removed group stops and its series are marked stale two intervals later, at the time it stopped', async () => {
    const s = setup();
    await s.manager.update([g1, groupSpec('other', [recordingSpec('o', 'up')])]);
    s.manager.start();
    await s.timers.advance(3 * I);
    const stoppedAt = s.timers.now;
    await s.manager.update([groupSpec('other', [recordingSpec('o', 'up')])]);
    await s.timers.advance(2 * I - 1);
    expect(s.appendable.of('r1{instance="a"}').at(-1)?.[1]).toBe(1);
    await s.timers.advance(1);
    expect(s.appendable.of('r1{instance="a"}').at(-1)).toEqual([stoppedAt, 'stale']);
    expect(s.appendable.of('ALERTS{alertname="A", alertstate="firing", instance="a"}').at(-1)).toEqual([stoppedAt, 'stale']);
    await s.manager.stop();
  });

  test('stopping the manager writes no stale markers', async () => {
    const s = setup();
    await s.manager.update([g1]);
    s.manager.start();
    await s.timers.advance(3 * I);
    const n = s.appendable.samples.length;
    await s.manager.stop();
    await s.timers.advance(5 * I);
    expect(s.appendable.samples.length).toBe(n);
    expect(s.appendable.samples.some((x) => x.stale)).toBe(false);
  });

  test('the first load writes ALERTS only after the second evaluation (for state restore); later loads at once', async () => {
    const s = setup();
    await s.manager.update([groupSpec('g', [alertingSpec('A', 'up')])]);
    s.manager.start();
    const first = s.firstTick(groupSpec('g', []));
    await s.timers.advance(first - START + I);
    expect(s.appendable.of('ALERTS{alertname="A", alertstate="firing", instance="a"}').map((x) => x[0])).toEqual([]);
    await s.timers.advance(I);
    expect(s.appendable.of('ALERTS{alertname="A", alertstate="firing", instance="a"}').map((x) => x[0])).toEqual([first + 2 * I]);
    await s.manager.update([groupSpec('g2', [alertingSpec('B', 'up')])]);
    await s.timers.advance(I);
    expect(s.appendable.seriesNames().filter((n) => n.includes('"B"')).length).toBeGreaterThan(0);
    await s.manager.stop();
  });
});

describe('external labels on reload', () => {
  test('groups built by a later update see the new external labels; an unchanged group keeps its own, as in Prometheus', async () => {
    const timers = new FakeTimers(START);
    const client = new ScriptedQueryClient((_q, t) => vectorResult(t, [[{ instance: 'a' }, 1]]));
    const expander = { expand: (_n: string, text: string, data: { externalLabels: Readonly<Record<string, string>> }) => Promise.resolve(text === 'cluster' ? (data.externalLabels.cluster ?? '') : text) };
    const manager = new RuleManager({ query: client, appendable: new RecordingAppendable(), clock: timers.clock, timers, evaluationIntervalMs: I, expander, externalLabels: { cluster: 'old' } });
    const kept = groupSpec('kept', [alertingSpec('K', 'up', { annotations: { cluster: 'cluster' } })]);
    const changed = (expr: string) => groupSpec('changed', [alertingSpec('C', expr, { annotations: { cluster: 'cluster' } })]);
    await manager.update([kept, changed('up')]);
    manager.start();
    await timers.advance(3 * I);
    manager.setExternal({ cluster: 'new' }, '');
    await manager.update([kept, changed('up > 0')]);
    await timers.advance(3 * I);
    const annotation = (alert: string) =>
      manager.snapshot().groups.flatMap((g) => g.rules).flatMap((r) => (r.type === 'alerting' && r.name === alert ? r.alerts.map((a) => a.annotations.cluster) : []));
    expect([annotation('K'), annotation('C')]).toEqual([['old'], ['new']]);
    await manager.stop();
  });
});

describe('restoring for state', () => {
  const HOLD = 30 * M;
  // The last ALERTS_FOR_STATE sample was written at DOWN (the old process' last evaluation).
  const cases: [string, number, number, boolean, (restoreMs: number, first: number) => number][] = [
    ['most of for still to wait: shifted by the outage', HOLD, -5 * M, true, (now) => now - 5 * M],
    ['less than the grace period to wait: the grace period from now', HOLD, -25 * M, true, (now) => now + 10 * M - HOLD],
    ['for already over: fires at once', HOLD, -40 * M, true, () => DOWN - 40 * M],
    ['the series went stale: nothing restored', HOLD, -5 * M, false, (_now, first) => first],
    ['for below the grace period: nothing queried', 5 * M, -2 * M, true, (_now, first) => first],
  ];
  const DOWN = START - 20 * M;
  test.each(cases)('%s', async (_name, forMs, activeOffset, present, want) => {
    const activeAtS = (DOWN + activeOffset) / 1000;
    const s = setup((q, t) => {
      if (q.startsWith('ALERTS_FOR_STATE') && q.endsWith(']')) {
        return { resultType: 'matrix', result: [{ metric: { __name__: 'ALERTS_FOR_STATE', alertname: 'A', instance: 'a' }, values: [[DOWN / 1000, String(activeAtS)]] }] };
      }
      if (q.startsWith('ALERTS_FOR_STATE')) return vectorResult(t, present ? [[{ __name__: 'ALERTS_FOR_STATE', alertname: 'A', instance: 'a' }, activeAtS]] : []);
      return vectorResult(t, [[{ instance: 'a' }, 1]]);
    });
    const spec = groupSpec('g', [alertingSpec('A', 'up', { forMs })]);
    await s.manager.update([spec]);
    s.manager.start();
    const first = s.firstTick(spec);
    await s.timers.advance(first - START + I);
    const restoreMs = s.timers.now;
    const a = [...(s.manager.ruleGroups()[0].rules[0] as AlertingRule).active.values()][0];
    expect(a.activeAtMs).toBe(want(restoreMs, first));
    expect(s.client.calls.some((c) => c.query === 'ALERTS_FOR_STATE{alertname="A"}[3600s]')).toBe(forMs >= 10 * M);
    await s.manager.stop();
  });
});

describe('snapshot', () => {
  test('shows groups sorted by file and name, rules in order, and active alerts', async () => {
    const s = setup();
    await s.manager.update([groupSpec('z', [recordingSpec('r', 'up', { a: 'b' })], { file: 'b.yml', limit: 3 }), groupSpec('y', [alertingSpec('A', 'up', { forMs: 5 * M, annotations: { s: 'x' } })], { file: 'a.yml' })]);
    const before = s.manager.snapshot();
    expect(before.groups.map((g) => [g.file, g.name])).toEqual([
      ['a.yml', 'y'],
      ['b.yml', 'z'],
    ]);
    expect(before.groups[0].rules[0]).toMatchObject({ type: 'alerting', state: 'unknown', health: 'unknown', lastEvaluationMs: undefined, alerts: [] });
    s.manager.start();
    await s.timers.advance(3 * I);
    const snap = s.manager.snapshot();
    expect(snap.groups[0].rules[0]).toMatchObject({
      type: 'alerting',
      name: 'A',
      query: 'up',
      state: 'pending',
      durationMs: 5 * M,
      health: 'ok',
      annotations: { s: 'x' },
      alerts: [{ labels: { alertname: 'A', instance: 'a' }, annotations: { s: 'x' }, state: 'pending', value: '1e+00' }],
    });
    expect(snap.groups[1]).toMatchObject({ limit: 3, intervalMs: I, rules: [{ type: 'recording', name: 'r', labels: { a: 'b' }, health: 'ok' }] });
    expect(snap.groups[1].metrics.evaluations).toBeGreaterThan(0);
    await s.manager.stop();
  });
});

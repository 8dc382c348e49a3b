import { describe, expect, test } from 'vitest';
import { FakeTimers } from '../../model/testing/fake-timers.js';
import type { UnixMs } from '../../model/index.js';
import type { InstantQueryData, QueryOptions } from '../../query/index.js';
import { QueryClientError } from '../../query/index.js';
import { RecordingAppendable, ScriptedQueryClient, groupSpec, recordingSpec, vectorResult } from '../testing/index.js';
import { RuleGroup } from './group.js';
import { groupPorts } from './manager.js';
import { evalTimestampMs } from './schedule.js';

const START = Date.UTC(2025, 0, 6, 9, 0, 0);
const I = 60_000;

function scheduled(answer: (q: string, t: UnixMs, o: QueryOptions | undefined, timers: FakeTimers) => InstantQueryData | Promise<InstantQueryData>) {
  const timers = new FakeTimers(START);
  const client = new ScriptedQueryClient((q, t, o) => answer(q, t, o, timers));
  const appendable = new RecordingAppendable();
  const ports = groupPorts({ query: client, appendable, clock: timers.clock, timers });
  const group = new RuleGroup(groupSpec('g', [recordingSpec('r', 'up')], { intervalMs: I }), { defaultIntervalMs: I, defaultQueryOffsetMs: 0, restored: true }, ports);
  return { timers, client, appendable, group, first: evalTimestampMs('rules.yml', 'g', I, START) + I };
}

/** A query that ends only when its signal aborts (a backend that never answers). */
const hanging = (_q: string, _t: UnixMs, o: QueryOptions | undefined): Promise<InstantQueryData> =>
  new Promise((_resolve, reject) => o?.signal?.addEventListener('abort', () => reject(new QueryClientError('canceled', 'query was canceled'))));

describe('group schedule', () => {
  test('evaluates at the aligned ticks after start', async () => {
    const s = scheduled((_q, t) => vectorResult(t, [[{}, 1]]));
    s.group.start();
    await s.timers.advance(4 * I);
    const times = s.client.calls.map((c) => c.tMs);
    expect(times.slice(0, 3)).toEqual([s.first, s.first + I, s.first + 2 * I]);
    expect(times[0]).toBeGreaterThan(START);
    expect(times[0] - START).toBeLessThanOrEqual(I);
    await s.group.stop();
  });

  test('an evaluation still running at the next tick is aborted and counted; the group keeps running', async () => {
    let n = 0;
    const s = scheduled((q, t, o) => (n++ === 0 ? hanging(q, t, o) : vectorResult(t, [[{}, 1]])));
    s.group.start();
    await s.timers.advance(s.first - START + 2 * I + 1);
    const rule = s.group.rules[0];
    expect(s.group.metrics.deadlineExceeded).toBe(1);
    expect(s.client.calls.map((c) => c.tMs)).toEqual([s.first, s.first + I, s.first + 2 * I]);
    expect(rule.health).toBe('ok');
    expect(s.appendable.of('r')).toEqual([
      [s.first + I, 1],
      [s.first + 2 * I, 1],
    ]);
    expect(s.group.metrics.evaluationFailures).toBe(1);
    await s.group.stop();
  });

  test('the aborted rule reports the deadline as its error', async () => {
    const s = scheduled(hanging);
    s.group.start();
    await s.timers.advance(s.first - START + I);
    expect(s.group.rules[0].lastError).toMatch(/passed its deadline/);
    await s.group.stop();
  });

  test('a query client that ignores the signal does not hang the group', async () => {
    let n = 0;
    const s = scheduled((_q, t) => (n++ === 0 ? new Promise<InstantQueryData>(() => undefined) : vectorResult(t, [[{}, 1]])));
    s.group.start();
    await s.timers.advance(s.first - START + 2 * I);
    expect(s.client.calls.length).toBe(3);
    await s.group.stop();
  });

  test('ticks passed while an evaluation held the loop are counted as missed and skipped', async () => {
    let n = 0;
    const s = scheduled((_q, t, _o, timers) => {
      if (n++ === 0) timers.now += 2.5 * I; // the evaluation blocks past two ticks
      return vectorResult(t, [[{}, 1]]);
    });
    s.group.start();
    await s.timers.advance(s.first - START); // runs the first evaluation, which moves the clock to first + 2.5 I
    await s.timers.advance(1);
    expect(s.group.metrics.iterationsMissed).toBe(1);
    expect(s.group.metrics.iterationsScheduled).toBe(3);
    expect(s.client.calls.map((c) => c.tMs)).toEqual([s.first, s.first + 2 * I]);
    await s.group.stop();
  });

  test('stop ends a running evaluation and nothing runs after it', async () => {
    const s = scheduled(hanging);
    s.group.start();
    await s.timers.advance(s.first - START);
    await s.group.stop();
    await s.timers.advance(5 * I);
    expect(s.client.calls.length).toBe(1);
    expect(s.timers.pending).toBe(0);
  });
});

import { describe, expect, test } from 'vitest';
import { alertingSpec, recordingSpec, vectorResult } from '../testing/index.js';
import { STEP, T0, oneGroup } from '../testing/one-group.js';
import type { InstantQueryData } from '../../query/index.js';
import { Labels } from '../../model/index.js';

type Answer = Parameters<typeof oneGroup>[1];

const vec =
  (...samples: [Record<string, string>, number][]): Answer =>
  (_q, t) =>
    vectorResult(t, samples);

describe('recording rule output', () => {
  const cases: [string, Answer, Record<string, string>, string[]][] = [
    ['renames to record', vec([{ __name__: 'up', job: 'a' }, 1]), {}, ['job:up{job="a"} 1']],
    ['rule labels override result labels', vec([{ __name__: 'up', job: 'a', env: 'x' }, 2]), { env: 'prod', team: 't' }, ['job:up{env="prod", job="a", team="t"} 2']],
    ['an empty rule label removes the label', vec([{ job: 'a', env: 'x' }, 2]), { env: '' }, ['job:up{job="a"} 2']],
    ['a scalar becomes one series with only the name', (_q, t): InstantQueryData => ({ resultType: 'scalar', result: [t / 1000, '3.5'] }), {}, ['job:up 3.5']],
    ['an empty vector writes nothing', vec(), {}, []],
  ];
  test.each(cases)('%s', async (_name, answer, labels, want) => {
    const h = oneGroup([recordingSpec('job:up', 'up', labels)], answer);
    await h.step(0);
    expect(h.appendable.samples.map((s) => `${s.series} ${s.value}`)).toEqual(want);
    expect(h.appendable.samples.every((s) => s.tMs === T0)).toBe(true);
    expect(h.group.rules[0].health).toBe('ok');
  });
});

describe('recording rule errors', () => {
  const cases: [string, Answer, number, string][] = [
    ['same labelset after applying rule labels', vec([{ __name__: 'a', x: '1' }, 1], [{ __name__: 'b', x: '1' }, 2]), 0, 'vector contains metrics with the same labelset after applying rule labels'],
    ['over the limit', vec([{ x: '1' }, 1], [{ x: '2' }, 2]), 1, 'exceeded limit of 1 with 2 series'],
    ['a matrix result', (_q, t) => ({ resultType: 'matrix', result: [{ metric: {}, values: [[t / 1000, '1']] }] }), 0, 'rule result is not a vector or scalar'],
  ];
  test.each(cases)('%s: error, nothing written', async (_name, answer, limit, message) => {
    const h = oneGroup([recordingSpec('r', 'up')], answer, { limit });
    await h.step(0);
    expect([h.group.rules[0].health, h.group.rules[0].lastError]).toEqual(['err', message]);
    expect(h.appendable.samples).toEqual([]);
  });

  test('a limit equal to the series count is fine', async () => {
    const h = oneGroup([recordingSpec('r', 'up')], vec([{ x: '1' }, 1], [{ x: '2' }, 2]), { limit: 2 });
    await h.step(0);
    expect(h.group.rules[0].health).toBe('ok');
  });
});

describe('staleness of recorded series', () => {
  test('a series produced last time and not now gets a stale marker; an error in between writes none', async () => {
    const answers: Answer[] = [vec([{ x: '1' }, 1], [{ x: '2' }, 2]), vec([{ x: '1' }, 1]), () => Promise.reject(new Error('down')), vec()];
    let i = 0;
    const h = oneGroup([recordingSpec('r', 'up')], (q, t, o) => answers[i](q, t, o));
    for (i = 0; i < answers.length; i++) await h.step(i);
    expect(h.appendable.of('r{x="1"}')).toEqual([
      [T0, 1],
      [T0 + STEP, 1],
      [T0 + 3 * STEP, 'stale'],
    ]);
    expect(h.appendable.of('r{x="2"}')).toEqual([
      [T0, 2],
      [T0 + STEP, 'stale'],
    ]);
  });

  test('a failed commit keeps the previous series for the next stale check and counts a failure', async () => {
    const h = oneGroup([recordingSpec('r', 'up')], vec([{ x: '1' }, 1]));
    h.appendable.failCommits = true;
    await h.step(0);
    expect([h.group.rules[0].health, h.group.rules[0].lastError, h.group.metrics.evaluationFailures]).toEqual(['err', 'commit refused', 1]);
    expect(h.group.seriesInPreviousEval[0].size).toBe(0);
  });

  test('an out-of-order sample marks the rule unhealthy, the others are written', async () => {
    const h = oneGroup([recordingSpec('r', 'up')], vec([{ x: '1' }, 1], [{ x: '2' }, 2]));
    const app = h.appendable.appender();
    app.append(0, Labels.from({ __name__: 'r', x: '1' }), T0 + 5 * STEP, 9);
    await app.commit();
    await h.step(0);
    expect(h.group.rules[0].health).toBe('err');
    expect(h.group.rules[0].lastError).toBe('out of order sample');
    expect(h.appendable.of('r{x="2"}')).toEqual([[T0, 2]]);
  });
});

describe('group evaluation', () => {
  test('rules run in order, one appender committed per rule, before the next rule queries', async () => {
    const order: string[] = [];
    const h = oneGroup([recordingSpec('a', 'one'), alertingSpec('B', 'two'), recordingSpec('c', 'three')], (q, t) => {
      order.push(`${q} after ${h.appendable.samples.length} samples`);
      return vectorResult(t, [[{}, 1]]);
    });
    await h.step(0);
    expect(order).toEqual(['one after 0 samples', 'two after 1 samples', 'three after 3 samples']);
    expect(h.appendable.opened).toBe(3);
    expect(h.group.metrics).toMatchObject({ evaluations: 3, evaluationFailures: 0, lastSamples: 4, iterationsScheduled: 1 });
  });

  test('a failing rule does not stop the rules after it', async () => {
    const h = oneGroup([recordingSpec('a', 'bad'), recordingSpec('b', 'good')], (q, t) => (q === 'bad' ? Promise.reject(new Error('boom')) : vectorResult(t, [[{}, 1]])));
    await h.step(0);
    expect(h.group.rules.map((r) => r.health)).toEqual(['err', 'ok']);
    expect(h.appendable.seriesNames()).toEqual(['b']);
  });
});

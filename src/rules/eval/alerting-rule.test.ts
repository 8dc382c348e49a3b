import { describe, expect, test } from 'vitest';
import { alertingSpec } from '../testing/index.js';
import type { AlertingRule } from './alerting-rule.js';
import { STEP, T0, oneGroup, seriesScript } from '../testing/one-group.js';

const M = 60_000;

// Each row: the series' value at each 1 m step (null: no result), the rule's for / keep_firing_for,
// and the alert's state after each step: P pending, F firing, I resolved (kept), - none.
const transitions: [string, (number | null)[], number, number, string][] = [
  ['for 0 fires at once, resolves, fires anew', [1, 1, null, 1], 0, 0, 'F F I F'],
  ['pending until for has passed', [1, 1, 1, 1], 2 * M, 0, 'P P F F'],
  ['a pending alert that vanishes is gone at once', [1, null, 1, 1, 1], 2 * M, 0, 'P - P P F'],
  ['keep_firing_for holds a firing alert', [1, null, null, null, 1], 0, 2 * M, 'F F F I F'],
  ['keep_firing_for restarts when the result comes back', [1, null, 1, null, null, null], 0, 2 * M, 'F F F F F I'],
  ['keep_firing_for does not hold a pending alert', [1, null], 5 * M, 2 * M, 'P -'],
  ['a resolved alert is kept 15 m, then dropped', [1, ...Array<null>(17).fill(null)], 0, 0, `F ${Array(16).fill('I').join(' ')} -`],
  ['firing resets to a new pending alert after resolving', [1, 1, 1, null, 1, 1, 1], 2 * M, 0, 'P P F I P P F'],
];

describe('alerting rule state', () => {
  test.each(transitions)('%s', async (_name, values, forMs, keepFiringForMs, want) => {
    const h = oneGroup([alertingSpec('A', 'up', { forMs, keepFiringForMs })], seriesScript(values));
    const rule = h.group.rules[0] as AlertingRule;
    const got: string[] = [];
    for (let i = 0; i < values.length; i++) {
      await h.step(i);
      const a = [...rule.active.values()][0];
      got.push(a === undefined ? '-' : a.state === 'pending' ? 'P' : a.state === 'firing' ? 'F' : 'I');
    }
    expect(got.join(' ')).toBe(want);
  });

  test('the rule state is unknown before the first evaluation, then the highest alert state', async () => {
    const h = oneGroup([alertingSpec('A', 'up', { forMs: M })], seriesScript([1, 1, null]));
    const rule = h.group.rules[0] as AlertingRule;
    const states = [rule.state()];
    for (let i = 0; i < 3; i++) {
      await h.step(i);
      states.push(rule.state());
    }
    expect(states).toEqual(['unknown', 'pending', 'firing', 'inactive']);
  });
});

describe('ALERTS and ALERTS_FOR_STATE', () => {
  test('are written with the rule labels, alertname and alertstate, and go stale with the alert', async () => {
    const h = oneGroup([alertingSpec('A', 'up', { forMs: M, labels: { severity: 'page', instance: 'overridden' } })], seriesScript([1, 1, null]));
    for (let i = 0; i < 3; i++) await h.step(i);
    const s = T0 / 1000;
    expect(h.appendable.of('ALERTS{alertname="A", alertstate="pending", instance="overridden", severity="page"}')).toEqual([
      [T0, 1],
      [T0 + STEP, 'stale'],
    ]);
    expect(h.appendable.of('ALERTS{alertname="A", alertstate="firing", instance="overridden", severity="page"}')).toEqual([
      [T0 + STEP, 1],
      [T0 + 2 * STEP, 'stale'],
    ]);
    expect(h.appendable.of('ALERTS_FOR_STATE{alertname="A", instance="overridden", severity="page"}')).toEqual([
      [T0, s],
      [T0 + STEP, s],
      [T0 + 2 * STEP, 'stale'],
    ]);
  });

  test('query_offset moves the query and the samples back, not activeAt', async () => {
    const h = oneGroup([alertingSpec('A', 'up')], seriesScript([1, 1]), { queryOffsetMs: 30_000 });
    await h.step(1);
    expect(h.client.calls.map((c) => c.tMs)).toEqual([T0 + STEP - 30_000]);
    expect(h.appendable.of('ALERTS_FOR_STATE{alertname="A", instance="a"}')).toEqual([[T0 + STEP - 30_000, (T0 + STEP) / 1000]]);
  });

  test('nothing is written before for state is restored', async () => {
    const h = oneGroup([alertingSpec('A', 'up')], seriesScript([1]));
    (h.group.rules[0] as AlertingRule).restored = false;
    await h.step(0);
    expect(h.appendable.samples).toEqual([]);
    expect((h.group.rules[0] as AlertingRule).state()).toBe('firing');
  });
});

describe('alert labels and annotations', () => {
  test('go through the expander with the sample labels and value at the evaluation time', async () => {
    const seen: string[] = [];
    const expander = {
      expand: (name: string, text: string, data: { labels: Record<string, string>; value: number }, tMs: number) => {
        seen.push(`${name} ${text} ${data.labels.instance} ${data.value} ${tMs - T0}`);
        return Promise.resolve(text.replace('$labels.instance', data.labels.instance).replace('$value', String(data.value)));
      },
    };
    const h = oneGroup([alertingSpec('A', 'up', { labels: { who: '$labels.instance' }, annotations: { summary: 'value $value' } })], seriesScript([7]), { options: { expander } });
    await h.step(0);
    const a = [...(h.group.rules[0] as AlertingRule).active.values()][0];
    expect(a.labels.toString()).toBe('{alertname="A", instance="a", who="a"}');
    expect(a.annotations.toString()).toBe('{summary="value 7"}');
    expect(seen).toEqual(['__alert_A $labels.instance a 7 0', '__alert_A value $value a 7 0']);
  });
});

describe('alerting rule errors', () => {
  const errors: [string, Parameters<typeof oneGroup>[1], number, string][] = [
    [
      'two results with one label set once __name__ is dropped',
      (_q, t) => ({ resultType: 'vector', result: [{ metric: { __name__: 'a', x: '1' }, value: [t / 1000, '1'] }, { metric: { __name__: 'b', x: '1' }, value: [t / 1000, '1'] }] }),
      0,
      'vector contains metrics with the same labelset after applying alert labels',
    ],
    [
      'more alerts than the limit',
      (_q, t) => ({ resultType: 'vector', result: [{ metric: { x: '1' }, value: [t / 1000, '1'] }, { metric: { x: '2' }, value: [t / 1000, '1'] }] }),
      1,
      'exceeded limit of 1 with 2 alerts',
    ],
    ['a string result', (_q, t) => ({ resultType: 'string', result: [t / 1000, 'x'] }), 0, 'rule result is not a vector or scalar'],
    [
      'a failing query',
      () => {
        throw new Error('1:1: parse error: boom');
      },
      0,
      '1:1: parse error: boom',
    ],
  ];
  test.each(errors)('%s', async (_name, answer, limit, message) => {
    const h = oneGroup([alertingSpec('A', 'up')], answer, { limit });
    await h.step(0);
    const rule = h.group.rules[0] as AlertingRule;
    expect([rule.health, rule.lastError]).toEqual(['err', message]);
    expect(rule.active.size).toBe(0);
    expect(h.appendable.samples).toEqual([]);
    expect(h.group.metrics.evaluationFailures).toBe(1);
  });

  test('a limit error drops the alerts the rule had', async () => {
    let n = 1;
    const h = oneGroup([alertingSpec('A', 'up')], (_q, t) => ({ resultType: 'vector', result: Array.from({ length: n }, (_, i) => ({ metric: { x: String(i) }, value: [t / 1000, '1'] })) }), { limit: 1 });
    await h.step(0);
    expect((h.group.rules[0] as AlertingRule).active.size).toBe(1);
    n = 2;
    await h.step(1);
    expect((h.group.rules[0] as AlertingRule).active.size).toBe(0);
  });
});

describe('hostile ports', () => {
  test('an expander that rejects yields the error text, and the rule stays healthy', async () => {
    const expander = { expand: () => Promise.reject(new Error('template: x:1: bad')) };
    const h = oneGroup([alertingSpec('A', 'up', { annotations: { s: '{{' } })], seriesScript([1]), { options: { expander } });
    await h.step(0);
    const rule = h.group.rules[0] as AlertingRule;
    expect(rule.health).toBe('ok');
    expect([...rule.active.values()][0].annotations.get('s')).toBe('<error expanding template: template: x:1: bad>');
  });

  test('a printer that throws leaves the expression as written', () => {
    const h = oneGroup([alertingSpec('A', 'up  >  1')], seriesScript([1]), {
      options: {
        formatExpr: () => {
          throw new Error('printer bug');
        },
      },
    });
    expect(h.group.rules[0].query).toBe('up  >  1');
  });
});

import { describe, expect, it } from 'vitest';
import { labelsMatch, scoped, selectorMatchers } from './promql-text.js';

describe('scoped', () => {
  it.each([
    ['x{%}', {}, 'x'],
    ['x{%}', { component: 'a' }, 'x{component="a"}'],
    ['x{s="429", %}', {}, 'x{s="429"}'],
    ['x{s="429", %}', { component: 'a', az: 'b' }, 'x{s="429", component="a", az="b"}'],
    ['rate(x{%}[1m]) / rate(y{%}[1m])', { instance: 'i"1' }, 'rate(x{instance="i\\"1"}[1m]) / rate(y{instance="i\\"1"}[1m])'],
  ])('%s with %j', (template, scope, want) => {
    expect(scoped(template, scope)).toBe(want);
  });
});

describe('match[] selectors', () => {
  const labels = { endpoint: 'chat-prod', component: 'qwen', az: 'us-east-1a' };
  it.each([
    ['{component="qwen"}', true],
    ['{component="gpt"}', false],
    ['up{component=~"q.*"}', true],
    ['{component!~"q.*"}', false],
    ["{az!='us-east-1b', endpoint=\"chat-prod\"}", true],
    // A label the series lacks narrows nothing (a GPU series has no component).
    ['{gpu="0"}', true],
    ['{component=`qwen`}', true],
  ])('%s matches: %s', (sel, want) => {
    expect(labelsMatch(labels, selectorMatchers(sel))).toBe(want);
  });

  it.each(['', '{component="a"', '{component=a}', '{="a"}', 'x{a="b" c="d"}'])('refuses %j with bad_data', (sel) => {
    expect(() => selectorMatchers(sel)).toThrow(expect.objectContaining({ errorType: 'bad_data' }));
  });
});

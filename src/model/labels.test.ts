import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Labels } from './labels.js';

describe('Labels', () => {
  it('sorts by name, drops empty values, lets a later duplicate win', () => {
    const l = Labels.fromPairs(['job', 'a', '__name__', 'up', 'zone', '', 'job', 'b']);
    expect(l.flat()).toEqual(['__name__', 'up', 'job', 'b']);
    expect(l.metricName).toBe('up');
    expect(l.get('zone')).toBe('');
    expect(l.has('zone')).toBe(false);
    expect(l.size).toBe(2);
  });

  it('renders Prometheus notation', () => {
    expect(Labels.from({ __name__: 'up' }).toString()).toBe('up');
    expect(Labels.from({ __name__: 'up', job: 'a"b' }).toString()).toBe('up{job="a\\"b"}');
    expect(Labels.from({ job: 'x' }).toString()).toBe('{job="x"}');
  });

  it('with / without return new sets and leave the original alone', () => {
    const l = Labels.from({ __name__: 'm', b: '2' });
    expect(l.with('a', '1').flat()).toEqual(['__name__', 'm', 'a', '1', 'b', '2']);
    expect(l.with('b', '').flat()).toEqual(['__name__', 'm']);
    expect(l.with('z', '9').flat()).toEqual(['__name__', 'm', 'b', '2', 'z', '9']);
    expect(l.without('b', 'nope').flat()).toEqual(['__name__', 'm']);
    expect(l.flat()).toEqual(['__name__', 'm', 'b', '2']);
  });

  it('orders like Prometheus: label by label, a prefix first', () => {
    const a = Labels.from({ __name__: 'm', a: '1' });
    const b = Labels.from({ __name__: 'm', a: '1', b: '1' });
    const c = Labels.from({ __name__: 'm', a: '2' });
    expect([c, b, a].sort((x, y) => x.compare(y)).map((l) => l.toString())).toEqual([a, b, c].map((l) => l.toString()));
  });

  it('key() and equals() agree for any label sets, NUL bytes in values included (property)', () => {
    const pairs = fc.array(fc.tuple(fc.constantFrom('a', 'b', '__name__', 'c\u0000'), fc.string()), { maxLength: 4 });
    fc.assert(
      fc.property(pairs, pairs, (p, q) => {
        const x = Labels.fromPairs(p.flat());
        const y = Labels.fromPairs(q.flat());
        expect(x.key() === y.key()).toBe(x.equals(y));
        if (x.equals(y)) expect(x.hash()).toBe(y.hash());
      }),
    );
  });

  it('keeps NUL-containing values apart in keys', () => {
    const x = Labels.fromPairs(['a', 'x\u0000b', 'c', 'd']);
    const y = Labels.fromPairs(['a', 'x', 'b', 'c\u0000d']);
    expect(x.key()).not.toBe(y.key());
  });
});

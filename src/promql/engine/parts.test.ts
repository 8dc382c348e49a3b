import { describe, expect, it } from 'vitest';
import { Labels } from '../../model/index.js';
import { KHeap } from './aggregate-k.js';
import { arithmetic, goPow } from './binary-ops.js';
import { Gate } from './gate.js';
import { finishNameRemoval } from './labels.js';

describe('Go math semantics', () => {
  it.each([
    [1, NaN, 1],
    [NaN, 0, 1],
    [-1, Infinity, 1],
    [-1, -Infinity, 1],
    [2, 10, 1024],
  ])('pow(%d, %d) = %d', (x, y, want) => {
    expect(goPow(x, y)).toBe(want);
  });

  it('keeps the sign of the dividend in %', () => {
    expect(arithmetic('%', -7, 3)).toBe(-1);
    expect(arithmetic('%', 7, Infinity)).toBe(7);
  });
});

describe('KHeap', () => {
  it('keeps the k largest for topk, best first, NaN last', () => {
    const h = new KHeap(true);
    [5, NaN, 1, 9, 7].forEach((v, i) => h.offer(i, v, 3));
    expect(h.sorted()).toEqual([3, 4, 0]);
  });

  it('keeps the k smallest for bottomk', () => {
    const h = new KHeap(false);
    [5, 2, 1, 9, 7].forEach((v, i) => h.offer(i, v, 2));
    expect(h.sorted()).toEqual([2, 1]);
  });

  it('prefers numbers over NaN', () => {
    const h = new KHeap(true);
    [NaN, NaN, 3].forEach((v, i) => h.offer(i, v, 2));
    expect(h.sorted()[0]).toBe(2);
  });
});

describe('finishNameRemoval', () => {
  const series = (name: string, t: number[], dropName = true) => ({
    metric: Labels.from({ __name__: name, env: '1' }),
    t,
    f: t.map(() => 1),
    dropName,
  });

  it('drops names and merges series whose points do not overlap', () => {
    const out = finishNameRemoval([series('a', [1, 2]), series('b', [3])]);
    expect(out).toHaveLength(1);
    expect(out[0].metric.toString()).toBe('{env="1"}');
    expect(out[0].t).toEqual([1, 2, 3]);
  });

  it('fails when two series end up with the same labels at one time', () => {
    expect(() => finishNameRemoval([series('a', [1]), series('b', [1])])).toThrow(
      'vector cannot contain metrics with the same labelset',
    );
  });

  it('keeps names that are not marked', () => {
    const out = finishNameRemoval([series('a', [1], false), series('b', [1])]);
    expect(out.map((s) => s.metric.toString())).toEqual(['a{env="1"}', '{env="1"}']);
  });
});

describe('Gate', () => {
  it('queues past the limit and serves waiters in order', async () => {
    const gate = new Gate(1);
    const order: number[] = [];
    const r1 = await gate.acquire();
    const p2 = gate.acquire().then((r) => {
      order.push(2);
      return r;
    });
    const p3 = gate.acquire().then((r) => {
      order.push(3);
      return r;
    });
    r1();
    (await p2)();
    (await p3)();
    expect(order).toEqual([2, 3]);
  });

  it('rejects an aborted waiter with canceled', async () => {
    const gate = new Gate(1);
    await gate.acquire();
    const ac = new AbortController();
    const p = gate.acquire(ac.signal);
    ac.abort();
    await expect(p).rejects.toMatchObject({ errorType: 'canceled' });
  });
});

import { describe, expect, it } from 'vitest';
import { VirtualTimers } from './virtual-timers.js';

describe('VirtualTimers', () => {
  it('fires in time order, ties in the order set, one instant per call, before the end only', () => {
    const t = new VirtualTimers(1000);
    const log: string[] = [];
    t.setTimeout(() => log.push(`c@${t.nowMs}`), 300);
    t.setTimeout(() => log.push(`a@${t.nowMs}`), 100);
    const cancel = t.setTimeout(() => log.push('cancelled'), 200);
    t.setTimeout(() => {
      log.push(`b1@${t.nowMs}`);
      t.setTimeout(() => log.push(`b3@${t.nowMs}`), 0); // due at the same instant: fires in the same call
    }, 250);
    t.setTimeout(() => log.push(`b2@${t.nowMs}`), 250);
    cancel();
    expect(t.nextAtMs()).toBe(1100);
    expect(t.fireNext(1100)).toBe(0); // the end is exclusive
    expect(t.fireNext(2000)).toBe(1);
    expect(t.fireNext(2000)).toBe(3);
    expect(log).toEqual(['a@1100', 'b1@1250', 'b2@1250', 'b3@1250']);
    t.moveTo(1280);
    t.moveTo(900); // never back
    expect(t.clock()).toBe(1280);
    expect(t.fireNext(1300)).toBe(0);
    expect(t.fireNext(1301)).toBe(1);
    expect(log.at(-1)).toBe('c@1300');
    expect(t.nextAtMs()).toBeUndefined();
  });

  it('keeps order over many timers (heap)', () => {
    const t = new VirtualTimers(0);
    const fired: number[] = [];
    const delays = Array.from({ length: 500 }, (_, i) => (i * 7919) % 1000);
    for (const d of delays) t.setTimeout(() => fired.push(t.nowMs), d);
    while (t.fireNext(Number.MAX_SAFE_INTEGER) > 0);
    expect(fired).toEqual([...delays].sort((a, b) => a - b));
  });
});

import { describe, expect, it } from 'vitest';
import { isStaleNaN, noopLogger } from '../model/index.js';
import { StorageError, StorageErrorCode, type Appendable } from '../storage/index.js';
import { formatTextExposition, parseExposition } from '../wire/index.js';
import { MetricsFlusher } from './flush.js';
import { MetricsRegistry } from './metrics.js';
import { FakeTimers } from '../model/testing/fake-timers.js';
import { MemoryStorage } from '../storage/testing/index.js';

describe('MetricsRegistry', () => {
  it('writes cumulative buckets, sum and count, and counters and gauges, at one timestamp', () => {
    const reg = new MetricsRegistry();
    const h = reg.histogram('x_seconds', [0.1, 1], { a: '1' });
    for (const v of [0.05, 0.1, 0.5, 3]) h.observe(v);
    reg.counter('y_total', { b: '2' }).inc(3);
    reg.gauge('z', {}).set(-1);
    const store = new MemoryStorage();
    const app = store.appender();
    expect(reg.writeTo(app, 1000)).toEqual({ samples: 7, rejected: 0, firstError: null });
    void app.commit();
    const got = store.committed.map((s) => `${s.labels.metricName}{${s.labels.get('le')}} ${s.value} @${s.tMs}`);
    expect(got).toEqual(['x_seconds_bucket{0.1} 2 @1000', 'x_seconds_bucket{1} 3 @1000', 'x_seconds_bucket{+Inf} 4 @1000', 'x_seconds_sum{} 3.65 @1000', 'x_seconds_count{} 4 @1000', 'y_total{} 3 @1000', 'z{} -1 @1000']);
    expect(reg.counter('y_total', { b: '2' })).toBe(reg.counter('y_total', { b: '2' }));
  });

  it('renders text exposition that the wire parser reads back', () => {
    const reg = new MetricsRegistry();
    reg.describe('x_seconds', 'A latency.');
    reg.histogram('x_seconds', [0.0001, 2.5], { model: 'a"b' }).observe(1);
    reg.counter('c_total', {}).inc();
    const text = formatTextExposition(reg.families());
    expect(text).toContain('# HELP x_seconds A latency.');
    expect(text).toContain('x_seconds_bucket{le="0.0001",model="a\\"b"} 0');
    const samples: string[] = [];
    parseExposition(text, 'prometheus-0.0.4', (s) => samples.push(`${s.labels.metricName} ${s.value}`));
    expect(samples).toEqual(['c_total 1', 'x_seconds_bucket 0', 'x_seconds_bucket 1', 'x_seconds_bucket 1', 'x_seconds_sum 1', 'x_seconds_count 1']);
  });

  it('retired series get a staleness marker once, then are gone', () => {
    const reg = new MetricsRegistry();
    reg.counter('a_total', { replica: 'r1' }).inc();
    reg.counter('a_total', { replica: 'r2' }).inc();
    const store = new MemoryStorage();
    let app = store.appender();
    reg.writeTo(app, 1);
    void app.commit();
    expect(reg.retire((l) => l.get('replica') === 'r1')).toBe(1);
    app = store.appender();
    reg.writeTo(app, 2);
    void app.commit();
    app = store.appender();
    reg.writeTo(app, 3);
    void app.commit();
    const r1 = store.committed.filter((s) => s.labels.get('replica') === 'r1');
    expect(r1.map((s) => s.tMs)).toEqual([1, 2]);
    expect(isStaleNaN(r1[1].value)).toBe(true);
  });
});

describe('MetricsFlusher', () => {
  it('writes on its interval with increasing timestamps and on close, and survives a refusing storage', async () => {
    const timers = new FakeTimers(5000);
    const reg = new MetricsRegistry();
    const c = reg.counter('a_total', {});
    let refuse = true;
    const inner = new MemoryStorage();
    const store: Appendable = {
      appender: () => {
        const a = inner.appender();
        return {
          append: (ref, l, t, v) => {
            if (refuse) throw new StorageError(StorageErrorCode.OUT_OF_ORDER_SAMPLE, 'no');
            return a.append(ref, l, t, v);
          },
          commit: () => a.commit(),
          rollback: () => a.rollback(),
        };
      },
    };
    const f = new MetricsFlusher(reg, store, { intervalMs: 1000, now: () => 5000, timers, logger: noopLogger });
    f.start();
    await timers.advance(1000);
    expect(f.rejected).toBe(1);
    refuse = false;
    c.inc();
    await timers.advance(1000);
    await f.close();
    expect(inner.committed.map((s) => [s.tMs, s.value])).toEqual([
      [5001, 1],
      [5002, 1],
    ]);
  });
});

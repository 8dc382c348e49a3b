/**
 * The gateway may not import src/semconv, so it writes the catalog's names as its own constants;
 * this test keeps the two in step: every metric the gateway writes is a catalog metric of the
 * same type, produced by the gateway, whose labels cover what the gateway attaches.
 */
import { describe, expect, it } from 'vitest';
import { GATEWAY_METRICS } from '../../src/gateway/index.js';
import { REPLICA_LABELS } from '../../src/gateway/index.js';
import { IDENTITY_LABELS, catalogMetric } from '../../src/semconv/index.js';
import type { MemoryStorage } from '../../src/storage/testing/index.js';
import { startFakeUpstream } from '../../src/gateway/testing/fake-upstream.js';
import { modelEntry, startTestGateway } from '../../src/gateway/testing/gateway.js';

describe('gateway metric names', () => {
  it.each(Object.values(GATEWAY_METRICS).map((d) => [d.name, d] as const))('%s is in the catalog with the same type and labels', (name, d) => {
    const m = catalogMetric(name);
    expect(m, `${name} is missing from src/semconv`).toBeDefined();
    expect(m!.type).toBe(d.type);
    expect(m!.producer).toBe('gateway');
    expect([...m!.labels].sort()).toEqual([...d.labels].sort());
  });

  it('replica labels are identity labels', () => {
    for (const l of REPLICA_LABELS) expect(IDENTITY_LABELS as readonly string[]).toContain(l);
  });

  it('every series a busy gateway writes has a catalog name and only catalog or identity labels', async () => {
    const up = await startFakeUpstream({ chunks: 3 });
    const t = await startTestGateway({ sampling: { rate: 0 }, models: [modelEntry('m', [up.url])] });
    try {
      await t.post('/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true });
      await t.post('/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'x' }] });
      await t.post('/v1/chat/completions', { model: 'nope', messages: [{ role: 'user', content: 'x' }] });
      await t.gw.flush();
    } finally {
      await t.gw.close();
      await up.close();
    }
    const store: MemoryStorage = t.store;
    expect(store.committed.length).toBeGreaterThan(50);
    for (const s of store.committed) {
      const name = s.labels.metricName;
      const base = catalogMetric(name) ?? catalogMetric(name.replace(/_(bucket|sum|count)$/, ''));
      expect(base, name).toBeDefined();
      s.labels.forEach((l) => {
        if (l === '__name__' || (l === 'le' && name.endsWith('_bucket'))) return;
        expect([...base!.labels, ...IDENTITY_LABELS], `${name} label ${l}`).toContain(l);
      });
      expect(s.labels.get('job')).toBe('gateway');
    }
  });
});

/**
 * The gateway writes the catalog's names (src/semconv, which it imports); this test keeps the
 * two sides in step: the gateway's name table is exactly the catalog metrics produced by the
 * gateway, and every series a busy gateway writes carries only catalog or identity labels.
 */
import { describe, expect, it } from 'vitest';
import { GATEWAY_METRICS, REPLICA_LABELS } from '../../src/gateway/index.js';
import { CATALOG, IDENTITY_LABELS, catalogMetric } from '../../src/semconv/index.js';
import type { MemoryStorage } from '../../src/storage/testing/index.js';
import { startFakeUpstream } from '../../src/gateway/testing/fake-upstream.js';
import { modelEntry, startTestGateway } from '../../src/gateway/testing/gateway.js';

describe('gateway metric names', () => {
  it('the gateway names exactly the catalog metrics it produces', () => {
    const produced = CATALOG.filter((m) => m.producer === 'gateway').map((m) => m.name);
    expect([...Object.values(GATEWAY_METRICS)].sort()).toEqual([...produced].sort());
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

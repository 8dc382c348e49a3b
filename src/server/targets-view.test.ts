import { describe, expect, it } from 'vitest';
import { harness } from '../ingest/scrape/testing/harness.js';
import { goldenConfig, normalizeTargets, readTargetsGolden } from '../ingest/scrape/testing/targets-golden.js';
import { formatGoTime, globalUrl, targetsMetadata, targetsView } from './targets-view.js';

const URLS = { listenPort: 9090, scheme: 'http', host: 'myhost:9090' };
const TINY = 'http://127.0.0.1:9100/metrics?format=prometheus';
const TINY_BODY = '# HELP tiny_requests_total Requests served.\n# TYPE tiny_requests_total counter\ntiny_requests_total{code="200"} 1\n# TYPE t gauge\nt 1\nu 2\n';

async function scraped() {
  const h = harness();
  h.fetch.set(TINY, { body: TINY_BODY });
  await h.apply(goldenConfig(9100, 9101));
  return h;
}

describe('targetsView (/api/v1/targets)', () => {
  it('matches the golden captured from Prometheus 2.42, byte for byte after normalisation', async () => {
    const h = await scraped();
    await h.timers.advance(1000);
    const body = { status: 'success', data: targetsView(h.manager, '', URLS) };
    const normalized = normalizeTargets(body, { TARGET_PORT: 9100, DOWN_PORT: 9101, SERVER_PORT: 9090 }, 'myhost');
    expect(JSON.stringify(normalized, null, 2) + '\n').toBe(readTargetsGolden());
  });

  it('filters by state as Prometheus (unknown states show neither list)', async () => {
    const h = await scraped();
    const count = (state: string) => {
      const v = targetsView(h.manager, state, URLS);
      return [v.activeTargets.length, v.droppedTargets.length];
    };
    expect([count(''), count('any'), count('ACTIVE'), count('dropped'), count('bogus')]).toEqual([[2, 1], [2, 1], [2, 0], [0, 1], [0, 0]]);
  });

  it('reports unknown health and Go zero time before the first scrape', async () => {
    const h = await scraped();
    expect(targetsView(h.manager, 'active', URLS).activeTargets[0]).toMatchObject({ health: 'unknown', lastScrape: '0001-01-01T00:00:00Z', lastScrapeDuration: 0, lastError: '' });
  });

  it('serves the metadata of the last scrape (/api/v1/targets/metadata)', async () => {
    const h = await scraped();
    await h.timers.advance(1000);
    const all = targetsMetadata(h.manager, () => true, '', -1);
    expect(all).toEqual([
      { target: { az: 'z1', instance: '127.0.0.1:9100', job: 'tiny', model: 'm1' }, metric: 'tiny_requests_total', type: 'counter', help: 'Requests served.', unit: '' },
      { target: { az: 'z1', instance: '127.0.0.1:9100', job: 'tiny', model: 'm1' }, metric: 't', type: 'gauge', help: '', unit: '' },
    ]);
    expect(targetsMetadata(h.manager, () => true, 't', -1)).toEqual([{ target: all[0].target, type: 'gauge', help: '', unit: '' }]);
    expect(targetsMetadata(h.manager, (l) => l.get('job') === 'down', '', -1)).toEqual([]);
    expect(targetsMetadata(h.manager, () => true, '', 0)).toEqual([]);
  });
});

describe('globalUrl (Prometheus getGlobalURL) and Go times', () => {
  it.each([
    ['http://127.0.0.1:9100/metrics', 'http://myhost:9100/metrics'],
    ['http://localhost:9090/metrics', 'http://myhost:9090/metrics'],
    ['https://[::1]:443/m?x=1', 'https://myhost:443/m?x=1'],
    ['http://gpu-1:9400/metrics', 'http://gpu-1:9400/metrics'],
  ])('%s → %s', (url, want) => {
    expect(globalUrl(url, URLS)).toBe(want);
  });
  it('uses the external scheme and host for the server itself', () => {
    expect(globalUrl('http://127.0.0.1:9090/metrics', { listenPort: 9090, scheme: 'https', host: 'prom.example:443' })).toBe('https://prom.example:443/metrics');
  });
  it.each([
    [Date.UTC(2024, 0, 2, 3, 4, 5, 0), '2024-01-02T03:04:05Z'],
    [Date.UTC(2024, 0, 2, 3, 4, 5, 120), '2024-01-02T03:04:05.12Z'],
    [undefined, '0001-01-01T00:00:00Z'],
  ])('formatGoTime(%s) = %s', (t, want) => {
    expect(formatGoTime(t)).toBe(want);
  });
});

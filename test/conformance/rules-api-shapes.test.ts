// `HttpRulesClient` (src/query) reads the `/api/v1/rules` and `/api/v1/alerts` answers of a real
// Prometheus 2.42 (web/src/api/testdata/prometheus-rules-api.json, `npm run update-goldens --
// rules-api`) into the wire types unchanged, with and without `type=`. Here rather than beside the
// client because src/query runs in browsers and may not read files.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HttpRulesClient } from '../../src/query/index.js';

const golden = JSON.parse(readFileSync(new URL('../../web/src/api/testdata/prometheus-rules-api.json', import.meta.url), 'utf8')) as Record<string, { data: unknown }>;

/** A client whose server answers every request from the golden by path and `type`. */
function client(): HttpRulesClient {
  const f = (input: string | URL): Promise<Response> => {
    const url = new URL(String(input));
    const key = url.pathname === '/api/v1/alerts' ? 'alerts' : (({ alert: 'rulesTypeAlert', record: 'rulesTypeRecord' } as Record<string, string>)[url.searchParams.get('type') ?? ''] ?? 'rules');
    return Promise.resolve(new Response(JSON.stringify(golden[key]), { status: 200 }));
  };
  return new HttpRulesClient({ url: 'http://prometheus:9090', fetch: f as typeof fetch });
}

describe('the rules API of Prometheus 2.42 through HttpRulesClient', () => {
  it.each([
    ['rules', undefined],
    ['rulesTypeAlert', 'alert'],
    ['rulesTypeRecord', 'record'],
  ] as const)('%s', async (key, type) => {
    const r = await client().rules(type === undefined ? {} : { type });
    expect(r.data).toEqual(golden[key].data);
    expect(r.data.groups.map((g) => g.name)).toEqual(['llm-alerts', 'llm-recording']);
  });

  it('alerts', async () => {
    const r = await client().alerts();
    expect(r.data).toEqual(golden.alerts.data);
    expect(r.data.alerts.map((a) => `${a.labels.alertname}:${a.state}`).sort()).toEqual(['KVCacheFull:firing', 'KVCacheFull:firing', 'KVCachePreScale:pending']);
  });
});

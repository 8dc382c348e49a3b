import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { dashboardById } from '../../../../src/dashboards/index.js';
import type { DiagnosisData, InsightWire } from '../../../../src/query/index.js';
import { hexGridPanel } from '../../panels/model/panel-queries.js';
import { DiagnosisView, diagnosisEnv } from './Diagnosis.js';
import { evidencePanel, insightWindow, openInsights, pickInsight, scopeSelector, symptomPanel } from './diagnosis-model.js';
import { InsightBannerView, diagnosisHref } from './InsightBanner.js';

const T = 1_736_163_000;
const KV = { cause: 'kv-cache-pressure', confidence: 0.93, scope: { endpoint: 'chat', component: 'llama-a' }, onset: T - 60, summary: 'KV cache of llama-a is full', evidence: [{ query: 'max(llm_kv_cache_usage_ratio)', baseline: 0.45, incident: 0.97 }] };
const insight = (id: string, detected: number, resolved: number | null, causes = [KV]): InsightWire => ({
  id,
  symptom: 'ttft',
  scope: { endpoint: 'chat', component: 'llama-a' },
  onset: detected - 15,
  detected,
  resolved,
  causes,
  query: 'max by (endpoint, component) (x{component="llama-a"})',
});
const OPEN = insight('ttft-aaaa-1', T, null);
const OLD = insight('ttft-bbbb-0', T - 7200, T - 6000);
const DIAGNOSIS: DiagnosisData = { time: T, causes: [KV, { ...KV, cause: 'load', confidence: 0.2, summary: 'demand rose' }], ruledOut: [{ cause: 'slow-instance', reason: 'no instance is an outlier' }] };

describe('diagnosis model', () => {
  it.each([
    ['an id that exists', [OLD, OPEN], 'ttft-bbbb-0', 'ttft-bbbb-0'],
    ['no id: the newest', [OLD, OPEN], '', 'ttft-aaaa-1'],
    ['an unknown id: the newest', [OLD, OPEN], 'gone', 'ttft-aaaa-1'],
    ['nothing', [], '', undefined],
  ])('picks %s', (_name, list, id, want) => {
    expect(pickInsight(list, id)?.id).toBe(want);
  });

  it('announces only open insights and puts every chart on one window around the incident', () => {
    expect(openInsights([OLD, OPEN]).map((i) => i.id)).toEqual(['ttft-aaaa-1']);
    expect(insightWindow(OLD, (T + 3600) * 1000)).toEqual({ startMs: (OLD.onset - 1800) * 1000, endMs: (OLD.resolved as number) * 1000 + 900_000 });
    expect(insightWindow(OPEN, (T + 120) * 1000)).toEqual({ startMs: (OPEN.onset - 1800) * 1000, endMs: (T + 120) * 1000 });
    expect(symptomPanel(OPEN)?.queries).toEqual([{ refId: 'symptom', expr: OPEN.query, legend: '{{component}}' }]);
    expect(evidencePanel(KV, 1)?.queries).toEqual([{ refId: 'e0', expr: 'max(llm_kv_cache_usage_ratio)' }]);
    expect(scopeSelector({ endpoint: 'chat', component: 'a"b' })).toBe('{endpoint="chat", component="a\\"b"}');
    expect(diagnosisHref('ttft-aaaa-1', '/infersight/')).toBe('/infersight/diagnosis?insight=ttft-aaaa-1');
  });
});

describe('DiagnosisView and the banner (server render)', () => {
  const attrs = (html: string, testId: string, attr: string): string[] => [...html.matchAll(new RegExp(`data-testid="${testId}"[^>]*?${attr}="([^"]*)"`, 'g'))].map((m) => m[1]);

  it('ranks the causes with their evidence and says why not for the ruled-out ones', () => {
    const html = renderToString(<DiagnosisView insight={OPEN} diagnosis={DIAGNOSIS} env={undefined} grid={undefined} />);
    expect(attrs(html, 'cause', 'data-cause')).toEqual(['kv-cache-pressure', 'load']);
    expect(html).toContain('93 %');
    expect(html).toContain('max(llm_kv_cache_usage_ratio)');
    expect(html).toContain('no instance is an outlier');
    expect(html).toMatch(/data-testid="insight-state"[^>]*>open</);
  });

  it("shows the insight's own causes until the diagnosis answers", () => {
    const html = renderToString(<DiagnosisView insight={OLD} diagnosis={undefined} env={undefined} grid={undefined} />);
    expect(attrs(html, 'cause', 'data-cause')).toEqual(['kv-cache-pressure']);
    expect(html).not.toContain('data-testid="why-not"');
  });

  it('draws the symptom, an evidence chart per cause and the hex grid with the scope selected', () => {
    const dashboard = dashboardById('insights');
    if (dashboard === undefined) throw new Error('no insights dashboard');
    const env = diagnosisEnv(dashboard, insightWindow(OPEN, (T + 120) * 1000), ['llama-a-0']);
    expect(env.ctx).toMatchObject({ hexView: 'replica', selection: ['llama-a-0'] });
    const html = renderToString(<DiagnosisView insight={OPEN} diagnosis={DIAGNOSIS} env={env} grid={hexGridPanel(dashboard)} />);
    expect(html).toContain('data-testid="symptom-chart"');
    expect(html.match(/data-testid="evidence-chart"/g)).toHaveLength(2);
    expect(html).toContain('data-testid="scope-grid"');
  });

  it.each([
    ['nothing while none is open', [OLD], []],
    ['one link per open insight, to its diagnosis', [OLD, OPEN], ['/diagnosis?insight=ttft-aaaa-1']],
  ])('the banner shows %s', (_name, list, hrefs) => {
    const html = renderToString(<InsightBannerView insights={list} pathname="/" />);
    expect([...html.matchAll(/href="([^"]*)"[^>]*data-testid="insight-link"/g)].map((m) => m[1])).toEqual(hrefs);
    if (hrefs.length > 0) expect(html).toContain('likely kv-cache-pressure (93 %)');
  });
});

import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RULES_GOLDEN } from '../../api/testdata/rules-golden.js';
import { DEFAULT_STATE, type UrlState } from '../../state/url-state.js';
import { RulesView } from '../Rules/Rules.js';
import { AlertsView } from './Alerts.js';

const data = RULES_GOLDEN.rules.data;
const nowMs = RULES_GOLDEN.capturedAtMs;
const render = (state: Partial<UrlState> = {}): string => renderToString(<AlertsView data={data} state={{ ...DEFAULT_STATE, ...state }} nowMs={nowMs} pathname="/alerts" />);
const attrs = (html: string, testId: string, attr: string): string[] => [...html.matchAll(new RegExp(`data-testid="${testId}"[^>]*?${attr}="([^"]*)"`, 'g'))].map((m) => m[1]);

describe('AlertsView over Prometheus 2.42 answers (server render)', () => {
  it('shows every alerting rule in its state, the active ones open with their alerts', () => {
    const html = render();
    expect(attrs(html, 'alert-rule', 'data-state')).toEqual(['firing', 'pending', 'inactive']);
    expect(attrs(html, 'alert-row', 'data-state')).toEqual(['firing', 'firing', 'pending']);
    // Expanded annotations of the alerts, the rule's templates, the value and the runbook link.
    expect(html).toContain('KV cache of chat-llama-r1 at 97%');
    expect(html).toContain('{{ $labels.replica }}');
    expect(html).toContain('>0.97<');
    expect(html).toContain('href="https://example.com/runbooks/kv-cache-full"');
    expect(html).toContain('keep_firing_for');
    // Each alert links to Insights with its instance selected on the hex grid.
    expect([...html.matchAll(/href="([^"]*)"[^>]*data-testid="alert-insights"/g)].map((m) => m[1])).toEqual(['/?instance=i-0a1', '/?instance=i-0d4', '/?instance=i-0b2']);
  });

  it('links each rule to Explore with its expression', () => {
    const hrefs = [...render().matchAll(/href="([^"]*)"[^>]*data-testid="alert-rule-explore"/g)].map((m) => new URLSearchParams(m[1].replaceAll('&amp;', '&').split('?')[1]).get('expr'));
    expect(hrefs).toEqual(['llm_kv_cache_usage_ratio > 0.95', 'llm_kv_cache_usage_ratio >= 0.4 and llm_kv_cache_usage_ratio <= 0.5', 'gpu_memory_used_ratio > 0.95']);
  });

  it.each([
    [{ alertStates: ['pending'] }, ['pending']],
    [{ filter: 'gpu' }, ['inactive']],
    [{ alertStates: ['firing'], filter: 'nothing-matches' }, []],
  ] as const)('filters %j', (state, want) => {
    const html = render(state);
    expect(attrs(html, 'alert-rule', 'data-state')).toEqual(want);
    if (want.length === 0) expect(html).toContain('No alerting rule matches the filter');
  });

  it('says so when there are no alerting rules', () => {
    const html = renderToString(<AlertsView data={RULES_GOLDEN.rulesTypeRecord.data} state={DEFAULT_STATE} nowMs={nowMs} pathname="/alerts" />);
    expect(html).toContain('No alerting rules');
  });
});

describe('RulesView (server render)', () => {
  it('lists recording and alerting rules with their health and last error', () => {
    const html = renderToString(<RulesView data={data} state={DEFAULT_STATE} nowMs={nowMs} pathname="/rules" />);
    expect(attrs(html, 'rule-row', 'data-rule')).toEqual(['KVCacheFull', 'KVCachePreScale', 'GPUMemoryHigh', 'component:llm_kv_cache_usage_ratio:max', 'golden:duplicate']);
    expect(attrs(html, 'rule-row', 'data-health')).toEqual(['ok', 'ok', 'ok', 'ok', 'err']);
    expect(html).toContain('vector contains metrics with the same labelset after applying rule labels');
    expect(html).toContain('limit 10');
  });
});

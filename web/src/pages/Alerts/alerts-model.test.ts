import { describe, expect, it } from 'vitest';
import type { RulesData } from '../../../../src/query/index.js';
import { RULES_GOLDEN } from '../../api/testdata/rules-golden.js';
import { alertGroups, alertStateCounts, alertValueText, exploreHref, insightsHref, neverEvaluated, ruleGroups, ruleMatches, sortAlerts } from './alerts-model.js';

const data: RulesData = RULES_GOLDEN.rules.data;
const names = (groups: ReturnType<typeof ruleGroups>): string[] => groups.flatMap((g) => g.rules.map((r) => `${g.name}/${r.name}`));

describe('alerts model over Prometheus 2.42 answers', () => {
  it('counts alerting rules and alerts per state', () => {
    expect(alertStateCounts(data)).toEqual({ rules: { firing: 1, pending: 1, inactive: 1 }, alerts: { firing: 2, pending: 1 } });
  });

  it.each([
    [[], '', ['llm-alerts/KVCacheFull', 'llm-alerts/KVCachePreScale', 'llm-alerts/GPUMemoryHigh']],
    [['firing'], '', ['llm-alerts/KVCacheFull']],
    [['pending', 'inactive'], '', ['llm-alerts/KVCachePreScale', 'llm-alerts/GPUMemoryHigh']],
    [[], 'severity=page', ['llm-alerts/KVCacheFull', 'llm-alerts/GPUMemoryHigh']],
    // Words match the labels of the alerts too, and all of them must match.
    [[], 'replica="code-qwen-r2"', ['llm-alerts/KVCacheFull']],
    [[], 'kv ticket', ['llm-alerts/KVCachePreScale']],
    [['firing'], 'gpu', []],
  ] as const)('states %j and search %j', (states, search, want) => {
    expect(names(alertGroups(data, states, search))).toEqual(want);
  });

  it('lists every rule on the Rules page, recording rules with their health', () => {
    const groups = ruleGroups(data, '');
    expect(groups.map((g) => [g.name, g.total, g.intervalS, g.limit])).toEqual([
      ['llm-alerts', 3, 1, 10],
      ['llm-recording', 2, 1, 0],
    ]);
    const dup = groups[1].rules.find((r) => r.name === 'golden:duplicate');
    expect(dup).toMatchObject({ type: 'recording', health: 'err', lastError: 'vector contains metrics with the same labelset after applying rule labels' });
    expect(names(ruleGroups(data, 'err'))).toEqual(['llm-recording/golden:duplicate']);
    expect(names(ruleGroups(data, 'source=golden'))).toEqual(['llm-recording/component:llm_kv_cache_usage_ratio:max']);
  });

  it('sorts firing before pending, oldest first', () => {
    const a = (state: 'firing' | 'pending', activeAt: string) => ({ labels: {}, annotations: {}, state, activeAt, value: '1e+00' });
    expect(sortAlerts([a('pending', '2026-01-01T00:00:00Z'), a('firing', '2026-01-02T00:00:00Z'), a('firing', '2026-01-01T00:00:00Z')]).map((x) => `${x.state}@${x.activeAt}`)).toEqual([
      'firing@2026-01-01T00:00:00Z',
      'firing@2026-01-02T00:00:00Z',
      'pending@2026-01-01T00:00:00Z',
    ]);
  });

  it.each([
    ['9.7e-01', '0.97'],
    ['1.2345678e+03', '1235'],
    ['NaN', 'NaN'],
    ['+Inf', '+Inf'],
  ])('shows the value %s as %s', (wire, text) => {
    expect(alertValueText(wire)).toBe(text);
  });

  it('links a rule to Explore with its expression, keeping the mount prefix and the range', () => {
    const href = exploreHref('llm_kv_cache_usage_ratio > 0.95', '/infersight/alerts');
    expect(href.startsWith('/infersight/explore?')).toBe(true);
    expect(new URLSearchParams(href.split('?')[1]).get('expr')).toBe('llm_kv_cache_usage_ratio > 0.95');
    expect(ruleMatches(data.groups[0].rules[0], data.groups[0], 'golden-rules.yml')).toBe(true);
    expect(neverEvaluated('0001-01-01T00:00:00Z')).toBe(true);
    expect(neverEvaluated(data.groups[0].lastEvaluation)).toBe(false);
  });

  it.each([
    [{ alertname: 'KVCacheFull', instance: 'i-0a1', replica: 'r1', component: 'c' }, '/?instance=i-0a1'],
    [{ alertname: 'ReplicaDown', replica: 'chat-llama-r1' }, '/?hex=replica&replica=chat-llama-r1'],
    [{ alertname: 'SLOBurnRateFast', endpoint: 'chat', component: 'chat-llama' }, '/?var-component=chat-llama&var-endpoint=chat'],
    [{ alertname: 'FleetWide' }, undefined],
  ])('links the alert %j to Insights', (labels, want) => {
    expect(insightsHref(labels, '/alerts')).toBe(want);
  });
});

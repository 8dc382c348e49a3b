import { describe, expect, it } from 'vitest';
import { catalogEntryFor, guessUnit, metricAt, metricsInQuery, metricTokens } from './metric-docs.js';

describe('metricTokens', () => {
  it.each([
    ['up', ['up']],
    ['sum by (le, instance) (rate(llm_time_to_first_token_seconds_bucket{az=~"a|b", job!="x"}[5m]))', ['llm_time_to_first_token_seconds_bucket']],
    ['a / on (instance) group_left (model) b offset 5m', ['a', 'b']],
    ['rate(x[1h:5m]) > 1e3 and y', ['x', 'y']],
    ['label_replace(x, "dst", "$1", "src", "(.*)")', ['x']],
    ['# a comment\nfoo', ['foo']],
    ['histogram_quantile(0.99, sum without (pod) (rate(h_bucket[5m])))', ['h_bucket']],
    ['vllm:num_requests_running', ['vllm:num_requests_running']],
  ])('%s', (expr, want) => {
    expect(metricTokens(expr).map((t) => t.text)).toEqual(want);
  });
});

describe('catalog look-ups', () => {
  it('finds histogram families and counters', () => {
    expect(catalogEntryFor('llm_time_to_first_token_seconds_bucket')?.name).toBe('llm_time_to_first_token_seconds');
    expect(catalogEntryFor('llm_time_to_first_token_seconds')?.type).toBe('histogram');
    expect(catalogEntryFor('llm_generation_tokens_total')?.type).toBe('counter');
    expect(catalogEntryFor('llm_requests_running_count')).toBeUndefined();
    expect(catalogEntryFor('up')).toBeUndefined();
  });

  it('lists the metrics of a query once each', () => {
    const m = metricsInQuery('rate(llm_generation_tokens_total[5m]) / rate(llm_generation_tokens_total[1h]) + llm_kv_cache_usage_ratio');
    expect(m.map((x) => x.def.name)).toEqual(['llm_generation_tokens_total', 'llm_kv_cache_usage_ratio']);
  });

  it('finds the metric under the cursor', () => {
    const q = 'sum(rate(llm_prompt_tokens_total{az="a"}[5m]))';
    expect(metricAt(q, q.indexOf('llm_prompt') + 3)).toBe('llm_prompt_tokens_total');
    expect(metricAt(q, 1)).toBeUndefined();
    expect(metricAt(q, q.indexOf('az'))).toBeUndefined();
  });
});

describe('guessUnit', () => {
  it.each([
    ['llm_kv_cache_usage_ratio', 'ratio'],
    ['max by (engine) (llm_kv_cache_usage_ratio)', 'ratio'],
    ['histogram_quantile(0.99, sum by (le) (rate(llm_time_to_first_token_seconds_bucket[5m])))', 'seconds'],
    ['sum(rate(llm_generation_tokens_total[5m]))', 'tokens/s'],
    ['sum(rate(llm_preemptions_total[5m]))', 'req/s'],
    ['sum(increase(llm_preemptions_total[1h]))', 'count'],
    ['llm_requests_running', 'count'],
    ['a / b', 'none'],
    ['rate(llm_e2e_request_latency_seconds_sum[5m]) / rate(llm_e2e_request_latency_seconds_count[5m])', 'none'],
    ['up', 'none'],
  ] as const)('%s → %s', (expr, unit) => {
    expect(guessUnit(expr)).toBe(unit);
  });
});

import { describe, expect, it } from 'vitest';
import type { ActiveTarget } from '../../api/api-client.js';
import { groupTargets, targetMatches } from './targets-model.js';

const t = (pool: string, url: string, health: ActiveTarget['health'], labels: Record<string, string> = {}, lastError = ''): ActiveTarget => ({
  discoveredLabels: {},
  labels,
  scrapePool: pool,
  scrapeUrl: url,
  lastError,
  lastScrape: '2026-11-30T08:00:00Z',
  lastScrapeDuration: 0.002,
  health,
});

const TARGETS = [
  t('vllm', 'http://h:1/t10/metrics', 'up', { az: 'us-east-1a', job: 'vllm' }),
  t('vllm', 'http://h:1/t2/metrics', 'down', { az: 'us-east-1b', job: 'vllm' }, 'connection refused'),
  t('dcgm', 'http://h:1/d1/metrics', 'up', { az: 'us-east-1a', job: 'dcgm' }),
  t('vllm', 'http://h:1/t1/metrics', 'unknown', { az: 'us-east-1c', job: 'vllm' }),
];

describe('groupTargets', () => {
  it('groups by pool, unhealthy first, URLs in natural order', () => {
    const g = groupTargets(TARGETS, '');
    expect(g.map((p) => [p.pool, p.up, p.down, p.unknown, p.total])).toEqual([
      ['dcgm', 1, 0, 0, 1],
      ['vllm', 1, 1, 1, 3],
    ]);
    expect(g[1].targets.map((x) => x.scrapeUrl)).toEqual(['http://h:1/t2/metrics', 'http://h:1/t1/metrics', 'http://h:1/t10/metrics']);
  });

  it('filters on every word, labels included, and drops empty pools', () => {
    expect(groupTargets(TARGETS, 'az=us-east-1a vllm').flatMap((p) => p.targets.map((x) => x.scrapeUrl))).toEqual(['http://h:1/t10/metrics']);
    expect(groupTargets(TARGETS, 'REFUSED')[0].targets).toHaveLength(1);
    expect(groupTargets(TARGETS, 'down').map((p) => p.pool)).toEqual(['vllm']);
    expect(groupTargets(TARGETS, 'nothing-matches')).toEqual([]);
    expect(targetMatches(TARGETS[0], 'az="us-east-1a"')).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { Labels } from '../../model/index.js';
import { parseScrapeConfigFile, type ScrapeConfig } from './config.js';
import { Target, populateLabels } from './target.js';

const job = (extra = ''): ScrapeConfig =>
  parseScrapeConfigFile(`scrape_configs:\n  - job_name: vllm\n    scrape_interval: 15s\n${extra}`).scrapeConfigs[0];
const rec = (l: Labels) => Object.fromEntries(Array.from({ length: l.size }, (_, i) => [l.nameAt(i), l.valueAt(i)]));

describe('populateLabels (Prometheus PopulateLabels)', () => {
  const base = { __metrics_path__: '/metrics', __scheme__: 'http', __scrape_interval__: '15s', __scrape_timeout__: '10s', job: 'vllm' };
  it.each<[string, Record<string, string>, string, Record<string, string> | null | string]>([
    ['adds the job defaults and instance', { __address__: 'a:8000' }, '', { ...base, __address__: 'a:8000', instance: 'a:8000' }],
    ['adds port 80 for http', { __address__: 'gpu-1' }, '', { ...base, __address__: 'gpu-1:80', instance: 'gpu-1:80' }],
    ['adds port 443 for https', { __address__: 'gpu-1', __scheme__: 'https' }, '', { ...base, __scheme__: 'https', __address__: 'gpu-1:443', instance: 'gpu-1:443' }],
    ['adds a port to a bracketed IPv6 address', { __address__: '[::1]' }, '', { ...base, __address__: '[::1]:80', instance: '[::1]:80' }],
    ['keeps discovered defaults', { __address__: 'a:1', job: 'other', __metrics_path__: '/m' }, '', { ...base, __address__: 'a:1', instance: 'a:1', job: 'other', __metrics_path__: '/m' }],
    ['keeps an explicit instance, drops __meta_*', { __address__: 'a:1', instance: 'x', __meta_foo: 'bar', __tmp_x: 'y' }, '', { ...base, __address__: 'a:1', instance: 'x', __tmp_x: 'y' }],
    ['params become __param_*', { __address__: 'a:1' }, '    params: {module: [m1, m2]}\n', { ...base, __address__: 'a:1', instance: 'a:1', __param_module: 'm1' }],
    ['relabeling drops', { __address__: 'a:1' }, '    relabel_configs: [{action: drop, source_labels: [__address__], regex: "a:.*"}]\n', null],
    ['no address', { __address__: 'a:1' }, '    relabel_configs: [{action: labeldrop, regex: __address__}]\n', 'no address'],
    ['a URL as address', { __address__: 'a:1' }, '    relabel_configs: [{target_label: __address__, replacement: "http://a:1"}]\n', '"http://a:1" is not a valid hostname'],
    ['a bad interval', { __address__: 'a:1', __scrape_interval__: '1x' }, '', 'error parsing scrape interval: not a valid duration string: "1x"'],
    ['a zero timeout', { __address__: 'a:1', __scrape_timeout__: '0s' }, '', 'scrape timeout cannot be 0'],
    ['timeout over interval', { __address__: 'a:1', __scrape_timeout__: '20s' }, '', 'scrape timeout cannot be greater than scrape interval ("20s" > "15s")'],
  ])('%s', (_name, input, extra, want) => {
    const r = populateLabels(Labels.from(input), job(extra));
    if (typeof want === 'string') expect(r.error).toBe(want);
    else if (want === null) expect([r.labels, r.error, r.discovered.get('__address__')]).toEqual([null, undefined, 'a:1']);
    else expect(rec(r.labels as Labels)).toEqual(want);
  });
});

describe('Target', () => {
  const target = (labels: Record<string, string>, params: Record<string, string[]> = {}) => new Target(Labels.from(labels), Labels.EMPTY, params);
  it.each<[Record<string, string>, Record<string, string[]>, string]>([
    [{ __scheme__: 'http', __address__: 'a:1', __metrics_path__: '/metrics' }, {}, 'http://a:1/metrics'],
    [{ __scheme__: 'https', __address__: 'a:1', __metrics_path__: 'm' }, {}, 'https://a:1/m'],
    [{ __scheme__: 'http', __address__: 'a:1', __metrics_path__: '/probe', __param_target: 'http://x/?a=b c' }, { module: ['z', 'y'], target: ['t1', 't2'] }, 'http://a:1/probe?module=z&module=y&target=http%3A%2F%2Fx%2F%3Fa%3Db+c&target=t2'],
    [{ __scheme__: 'http', __address__: 'a:1', __metrics_path__: '/a b/ü' }, {}, 'http://a:1/a%20b/%C3%BC'],
  ])('URL of %j', (labels, params, want) => {
    expect(target(labels, params).url()).toBe(want);
  });

  it('exposes only labels without the __ prefix', () => {
    expect(rec(target({ __address__: 'a:1', job: 'j', instance: 'a:1', __tmp: 'x' }).publicLabels())).toEqual({ instance: 'a:1', job: 'j' });
  });

  it('spreads targets over the interval with a stable offset pinned to absolute time', () => {
    const t = target({ __scheme__: 'http', __address__: 'a:1', __metrics_path__: '/metrics' });
    const interval = 15_000;
    const phases = new Set<number>();
    for (let now = 1_000_000; now < 1_000_000 + 3 * interval; now += 1234) {
      const off = t.offsetMs(interval, 42n, now);
      expect(off).toBeGreaterThanOrEqual(0);
      expect(off).toBeLessThanOrEqual(interval);
      phases.add((now + off) % interval);
    }
    expect(phases.size).toBe(1);
    const other = target({ __scheme__: 'http', __address__: 'b:1', __metrics_path__: '/metrics' });
    expect((1_000_000 + other.offsetMs(interval, 42n, 1_000_000)) % interval).not.toBe([...phases][0]);
  });
});

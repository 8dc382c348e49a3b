import { describe, expect, it } from 'vitest';
import { harness, T0 } from './testing/harness.js';

const URL_A = 'http://a:1/metrics';
const URL_B = 'http://b:1/metrics';
const twoTargets = (interval = '10s', targets = "['a:1', 'b:1']") =>
  `scrape_configs:\n  - job_name: vllm\n    scrape_interval: ${interval}\n    static_configs: [{targets: ${targets}}]\n`;

describe('ScrapeManager: target lifecycle', () => {
  it('scrapes each target once per interval at its own stable phase', async () => {
    const h = harness();
    h.fetch.set(URL_A, { body: 'm 1\n' });
    h.fetch.set(URL_B, { body: 'm 2\n' });
    await h.apply(twoTargets());
    await h.timers.advance(30_000);
    const times = (instance: string) => h.store.samples({ __name__: 'up', instance }).map(([t]) => t);
    for (const instance of ['a:1', 'b:1']) {
      const ts = times(instance);
      expect(ts).toHaveLength(3);
      expect(ts[1] - ts[0]).toBe(10_000);
      expect(ts[0]).toBeGreaterThan(T0);
      expect(ts[0]).toBeLessThanOrEqual(T0 + 10_000);
    }
    expect(times('a:1')[0]).not.toBe(times('b:1')[0]);
  });

  it('a target that disappears gets staleness markers at its next due time, one interval and a tenth later', async () => {
    const h = harness();
    h.fetch.set(URL_A, { body: 'm 1\n' });
    h.fetch.set(URL_B, { body: 'm 2\n' });
    await h.apply(twoTargets());
    await h.timers.advance(10_000);
    const last = h.target(URL_B).lastScrapeMs as number;
    await h.apply(twoTargets('10s', "['a:1']"));
    expect(h.manager.pools()[0][1].activeTargets().map((t) => t.url())).toEqual([URL_A]);
    // Not yet: the target might come back within two intervals.
    await h.timers.advance(last + 10_000 + 10_000 - h.timers.now);
    expect(h.store.samples({ __name__: 'm', instance: 'b:1' })).toEqual([[last, 2]]);
    await h.timers.advance(1000);
    expect(h.store.samples({ __name__: 'm', instance: 'b:1' })).toEqual([[last, 2], [last + 10_000, 'stale']]);
    for (const name of ['up', 'scrape_duration_seconds', 'scrape_samples_scraped', 'scrape_samples_post_metric_relabeling', 'scrape_series_added']) {
      expect(h.store.samples({ __name__: name, instance: 'b:1' }).at(-1)).toEqual([last + 10_000, 'stale']);
    }
    // The remaining target is untouched.
    expect(h.store.samples({ __name__: 'm', instance: 'a:1' }).every(([, v]) => v === 1)).toBe(true);
  });

  it('a removed job stops and goes stale; shutdown writes nothing', async () => {
    const h = harness();
    h.fetch.set(URL_A, { body: 'm 1\n' });
    await h.apply(twoTargets('10s', "['a:1']"));
    await h.timers.advance(10_000);
    await h.apply('scrape_configs: []');
    expect(h.manager.pools()).toEqual([]);
    await h.timers.advance(30_000);
    expect(h.store.samples({ __name__: 'm' }).at(-1)?.[1]).toBe('stale');

    const h2 = harness();
    h2.fetch.set(URL_A, { body: 'm 1\n' });
    await h2.apply(twoTargets('10s', "['a:1']"));
    await h2.timers.advance(10_000);
    await h2.manager.stop();
    await h2.timers.advance(60_000);
    expect(h2.store.samples({ __name__: 'm' })).toHaveLength(1);
    expect(h2.timers.pending).toBe(0);

    // Shutdown also cancels the pending markers of a job removed just before.
    const h3 = harness();
    h3.fetch.set(URL_A, { body: 'm 1\n' });
    await h3.apply(twoTargets('10s', "['a:1']"));
    await h3.timers.advance(10_000);
    await h3.apply('scrape_configs: []');
    await h3.manager.stop();
    await h3.timers.advance(60_000);
    expect(h3.store.samples({ __name__: 'm' })).toHaveLength(1);
  });

  it('a reload that changes a job keeps its targets scraping without staleness and applies the new settings', async () => {
    const h = harness();
    h.fetch.set(URL_A, { body: 'm 1\nn 1\n' });
    await h.apply(twoTargets('10s', "['a:1']"));
    await h.timers.advance(10_000);
    await h.apply(twoTargets('10s', "['a:1']").replace('    static_configs', '    metric_relabel_configs: [{source_labels: [__name__], regex: n, action: drop}]\n    static_configs'));
    await h.timers.advance(10_000);
    const m = h.store.samples({ __name__: 'm' });
    expect(m.map(([, v]) => v)).toEqual([1, 1]);
    // n is no longer kept: the new loop marks it stale from the handed-over state.
    expect(h.store.samples({ __name__: 'n' }).map(([, v]) => v)).toEqual([1, 'stale']);
    expect(h.store.samples({ __name__: 'scrape_series_added' }).map(([, v]) => v)).toEqual([2, 1]);
  });

  it('an unchanged job is left running across a reload', async () => {
    const h = harness();
    h.fetch.set(URL_A, { body: 'm 1\n' });
    await h.apply(twoTargets('10s', "['a:1']"));
    const before = h.target(URL_A);
    await h.apply(twoTargets('10s', "['a:1']") + '  - job_name: other\n');
    expect(h.target(URL_A)).toBe(before);
  });

  it('target_limit exceeded fails every target of the job', async () => {
    const h = harness();
    h.fetch.set(URL_A, { body: 'm 1\n' });
    h.fetch.set(URL_B, { body: 'm 2\n' });
    await h.apply(twoTargets().replace('    static_configs', '    target_limit: 1\n    static_configs'));
    await h.timers.advance(10_000);
    expect(h.target(URL_A).lastError).toBe('target_limit exceeded (number of targets: 2, limit: 1)');
    expect(h.store.find({ __name__: 'm' })).toEqual([]);
    expect(h.store.samples({ __name__: 'up', instance: 'b:1' })[0][1]).toBe(0);
  });

  it('relabel_configs: dropped targets are listed, __param_* and __scheme__ shape the URL', async () => {
    const h = harness();
    await h.apply(`
scrape_configs:
  - job_name: probe
    metrics_path: /probe
    params: {module: [http_2xx]}
    static_configs: [{targets: ['https://site.example', 'drop-me:1']}]
    relabel_configs:
      - {source_labels: [__address__], regex: 'drop-.*', action: drop}
      - {source_labels: [__address__], target_label: __param_target}
      - {source_labels: [__param_target], target_label: instance}
      - {target_label: __address__, replacement: 'blackbox:9115'}
`);
    const [[, pool]] = h.manager.pools();
    expect(pool.activeTargets().map((t) => [t.url(), t.publicLabels().get('instance')])).toEqual([
      ['http://blackbox:9115/probe?module=http_2xx&target=https%3A%2F%2Fsite.example', 'https://site.example'],
    ]);
    expect(pool.droppedTargets().map((t) => t.discoveredLabels.get('__address__'))).toEqual(['drop-me:1']);
  });
});

describe('ScrapeManager: file_sd', () => {
  const cfg = `
scrape_configs:
  - job_name: fleet
    scrape_interval: 10s
    file_sd_configs:
      - files: [targets/*.json, static.yml]
        refresh_interval: 1m
    relabel_configs:
      - {source_labels: [__meta_filepath], regex: '.*/(.*)', target_label: source_file}
`;
  const urls = (h: ReturnType<typeof harness>) => h.manager.pools()[0][1].activeTargets().map((t) => `${t.url()} ${t.publicLabels().get('az')} ${t.publicLabels().get('source_file')}`);

  it('reads JSON and YAML files, follows changes on refresh and on watch events, keeps the last good content', async () => {
    const h = harness();
    h.fs.files.set('/cfg/targets/a.json', JSON.stringify([{ targets: ['a:1'], labels: { az: 'z1' } }]));
    h.fs.files.set('/cfg/targets/ignored.txt', 'x');
    h.fs.files.set('/cfg/static.yml', '- targets: [s:1]\n  labels: {az: z3}\n');
    await h.apply(cfg);
    expect(urls(h)).toEqual(['http://a:1/metrics z1 a.json', 'http://s:1/metrics z3 static.yml']);
    expect(h.manager.pools()[0][1].activeTargets()[0].labels.has('__meta_filepath')).toBe(false);

    // A new file is found at the next refresh interval.
    h.fs.files.set('/cfg/targets/b.json', JSON.stringify([{ targets: ['b:1'], labels: { az: 'z2' } }]));
    await h.timers.advance(59_000);
    expect(urls(h)).toHaveLength(2);
    await h.timers.advance(1000);
    expect(urls(h)).toContain('http://b:1/metrics z2 b.json');

    // A watch event applies a change at once.
    h.fs.files.set('/cfg/targets/b.json', JSON.stringify([{ targets: ['b:2'] }]));
    h.fs.notify();
    await h.timers.advance(0);
    expect(urls(h)).toContain('http://b:2/metrics undefined b.json'.replace('undefined', ''));

    // Broken content keeps the last good groups; an error is logged.
    h.fs.files.set('/cfg/targets/a.json', '[{"targets": ["a:1"');
    h.fs.notify();
    await h.timers.advance(0);
    expect(urls(h)).toContain('http://a:1/metrics z1 a.json');
    expect(h.logger.lines.some((l) => l.msg === 'file_sd: reading file failed')).toBe(true);

    // A deleted file takes its targets away.
    h.fs.files.delete('/cfg/targets/a.json');
    h.fs.notify();
    await h.timers.advance(0);
    expect(urls(h).some((u) => u.startsWith('http://a:1'))).toBe(false);
  });

  it.each([
    ['[{"targets": "a:1"}]', 'json: "targets" must be a list of strings'],
    ['[{"targets": ["a:1"], "labels": {"a-b": "x"}}]', '"a-b" is not a valid label name'],
    ['{"targets": []}', 'want a list of target groups'],
    ['[null]', 'nil target group item found'],
  ])('rejects the file content %s', async (content, message) => {
    const h = harness();
    h.fs.files.set('/cfg/targets/a.json', content);
    await h.apply(cfg);
    expect(urls(h)).toEqual([]);
    expect(h.logger.lines.find((l) => l.msg === 'file_sd: reading file failed')?.fields.err).toContain(message);
  });
});

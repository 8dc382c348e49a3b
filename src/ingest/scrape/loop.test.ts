import { describe, expect, it } from 'vitest';
import { SCRAPE_ACCEPT_HEADER } from './loop.js';
import { StorageErrorCode } from '../../storage/index.js';
import { harness, type Harness } from './testing/harness.js';

const URL_A = 'http://a:1/metrics';
const job = (extra = '') => `scrape_configs:\n  - job_name: vllm\n    scrape_interval: 10s\n    scrape_timeout: 5s\n${extra}    static_configs: [{targets: ['a:1'], labels: {az: z1}}]\n`;
const TARGET = { job: 'vllm', instance: 'a:1', az: 'z1' };

/** Applies the config and runs exactly one scrape of a:1 serving `body`; returns its timestamp. */
async function firstScrape(h: Harness, body: string, extra = ''): Promise<number> {
  h.fetch.set(URL_A, { body });
  await h.apply(job(extra));
  await h.timers.advance(10_000);
  const t = h.target(URL_A).lastScrapeMs;
  if (t === undefined) throw new Error('no scrape happened');
  return t;
}

const report = (h: Harness, name: string) => h.store.samples({ __name__: name, ...TARGET });

describe('scrape loop: successful scrapes', () => {
  it('appends samples with the target labels, the synthetic series and one commit per scrape', async () => {
    const h = harness();
    const t = await firstScrape(h, '# TYPE vllm_requests counter\nvllm_requests{model="m"} 3\nvllm_queue 1\n');
    expect(h.store.samples({ __name__: 'vllm_requests', model: 'm', ...TARGET })).toEqual([[t, 3]]);
    expect(h.store.samples({ __name__: 'vllm_queue', ...TARGET })).toEqual([[t, 1]]);
    expect(report(h, 'up')).toEqual([[t, 1]]);
    expect(report(h, 'scrape_samples_scraped')).toEqual([[t, 2]]);
    expect(report(h, 'scrape_samples_post_metric_relabeling')).toEqual([[t, 2]]);
    expect(report(h, 'scrape_series_added')).toEqual([[t, 2]]);
    expect(report(h, 'scrape_duration_seconds')).toEqual([[t, 0]]);
    expect(h.store.commits).toBe(1);
    expect(h.target(URL_A)).toMatchObject({ health: 'up', lastError: '' });
    const req = h.fetch.requests[0];
    expect(req.headers).toMatchObject({ Accept: SCRAPE_ACCEPT_HEADER, 'Accept-Encoding': 'gzip', 'X-Prometheus-Scrape-Timeout-Seconds': '5' });
    // The scrape falls at the target's stable phase, within the first interval.
    expect(t).toBeGreaterThan(h.timers.now - 10_000);
    await h.timers.advance(10_000);
    expect(report(h, 'up')).toEqual([[t, 1], [t + 10_000, 1]]);
    expect(report(h, 'scrape_series_added')).toEqual([[t, 2], [t + 10_000, 0]]);
    expect(h.store.commits).toBe(2);
  });

  it('reads OpenMetrics when the target answers with it', async () => {
    const h = harness();
    h.fetch.set(URL_A, { contentType: 'application/openmetrics-text; version=1.0.0; charset=utf-8', body: '# TYPE x counter\nx_total 5\n# EOF\n' });
    await h.apply(job());
    await h.timers.advance(10_000);
    expect(h.store.find({ __name__: 'x_total' })).toHaveLength(1);
    expect(report(h, 'up')[0][1]).toBe(1);
  });

  it('writes staleness markers for a series that disappears, and nothing for the others', async () => {
    const h = harness();
    const t = await firstScrape(h, 'a 1\nb 2\n');
    h.fetch.set(URL_A, { body: 'a 1\nc 3\n' });
    await h.timers.advance(10_000);
    expect(h.store.samples({ __name__: 'b', ...TARGET })).toEqual([[t, 2], [t + 10_000, 'stale']]);
    expect(h.store.samples({ __name__: 'a', ...TARGET })).toEqual([[t, 1], [t + 10_000, 1]]);
    expect(report(h, 'scrape_series_added')).toEqual([[t, 2], [t + 10_000, 1]]);
  });

  it.each<[string, string, Record<string, string>]>([
    ['renames a conflicting exposed label to exported_*', 'm{job="x",instance="y"} 1\n', { job: 'vllm', instance: 'a:1', exported_job: 'x', exported_instance: 'y' }],
    ['adds exported_ prefixes until the name is free', 'm{job="x",exported_job="y"} 1\n', { job: 'vllm', exported_job: 'y', exported_exported_job: 'x' }],
  ])('honor_labels false %s', async (_name, body, want) => {
    const h = harness();
    await firstScrape(h, body);
    expect(h.store.find({ __name__: 'm' })[0].labels.get('exported_job')).toBe(want.exported_job);
    expect(h.store.find({ __name__: 'm', ...want })).toHaveLength(1);
  });

  it('honor_labels true keeps the exposed labels', async () => {
    const h = harness();
    await firstScrape(h, 'm{job="x"} 1\n', '    honor_labels: true\n');
    expect(h.store.find({ __name__: 'm', job: 'x', instance: 'a:1', az: 'z1' })).toHaveLength(1);
    expect(h.store.find({ __name__: 'm' })[0].labels.has('exported_job')).toBe(false);
  });

  it('honor_timestamps: exposed timestamps are kept (and bypass staleness), or replaced when false', async () => {
    const h = harness();
    const t = await firstScrape(h, 'with_ts 1 1700000000000\nplain 2\n');
    expect(h.store.samples({ __name__: 'with_ts' })).toEqual([[1_700_000_000_000, 1]]);
    h.fetch.set(URL_A, { body: '' });
    await h.timers.advance(10_000);
    expect(h.store.samples({ __name__: 'with_ts' })).toEqual([[1_700_000_000_000, 1]]);
    expect(h.store.samples({ __name__: 'plain' })).toEqual([[t, 2], [t + 10_000, 'stale']]);
    const h2 = harness();
    const t2 = await firstScrape(h2, 'with_ts 1 1700000000000\n', '    honor_timestamps: false\n');
    expect(h2.store.samples({ __name__: 'with_ts' })).toEqual([[t2, 1]]);
  });

  it('applies metric_relabel_configs after the target labels', async () => {
    const h = harness();
    const t = await firstScrape(h, 'go_gc 1\nkeep_me{a="1"} 2\n', [
      '    metric_relabel_configs:',
      '      - {source_labels: [__name__], regex: "go_.*", action: drop}',
      '      - {source_labels: [job, a], separator: "-", target_label: tag}',
      '',
    ].join('\n'));
    expect(h.store.find({ __name__: 'go_gc' })).toEqual([]);
    expect(h.store.samples({ __name__: 'keep_me', tag: 'vllm-1' })).toEqual([[t, 2]]);
    expect(report(h, 'scrape_samples_scraped')).toEqual([[t, 2]]);
    expect(report(h, 'scrape_samples_post_metric_relabeling')).toEqual([[t, 1]]);
  });

  it('sends basic auth with the password read from its file at every scrape', async () => {
    const h = harness();
    h.fs.files.set('/cfg/pw', 'secret\n');
    await firstScrape(h, 'a 1\n', '    basic_auth: {username: u, password_file: pw}\n');
    expect(h.fetch.requests[0].headers.Authorization).toBe(`Basic ${Buffer.from('u:secret').toString('base64')}`);
    h.fs.files.set('/cfg/pw', 'rotated');
    await h.timers.advance(10_000);
    expect(h.fetch.requests[1].headers.Authorization).toBe(`Basic ${Buffer.from('u:rotated').toString('base64')}`);
    h.fs.files.delete('/cfg/pw');
    await h.timers.advance(10_000);
    expect(h.target(URL_A).lastError).toBe('unable to read basic auth password file /cfg/pw: open /cfg/pw: no such file or directory');
  });

  it('passes tls_config to the fetch port with the files read', async () => {
    const h = harness();
    h.fs.files.set('/cfg/ca.pem', 'CA PEM');
    h.fs.files.set('/cfg/c.pem', 'CERT PEM');
    h.fs.files.set('/cfg/k.pem', 'KEY PEM');
    await firstScrape(h, 'a 1\n', '    tls_config: {ca_file: ca.pem, cert_file: c.pem, key_file: k.pem, server_name: target.test, insecure_skip_verify: true}\n');
    expect(h.fetch.requests[0].tls).toEqual({ ca: 'CA PEM', cert: 'CERT PEM', key: 'KEY PEM', servername: 'target.test', rejectUnauthorized: false });
  });

  it('sends the authorization header', async () => {
    const h = harness();
    await firstScrape(h, 'a 1\n', '    authorization: {type: Token, credentials: abc}\n');
    expect(h.fetch.requests[0].headers.Authorization).toBe('Token abc');
  });
});

describe('scrape loop: failed scrapes', () => {
  /** One good scrape of `a 1\nb 2`, then a failing one; checks what every failure must write. */
  async function failAfterGood(answer: Parameters<Harness['fetch']['set']>[1], extra = ''): Promise<{ h: Harness; t: number }> {
    const h = harness();
    const t = await firstScrape(h, 'a 1\nb 2\n', extra);
    h.fetch.set(URL_A, answer);
    const t2 = t + 10_000;
    // Up to the second scrape's timeout, short of the third scrape.
    await h.timers.advance(t2 + 5000 - h.timers.now);
    expect(h.store.samples({ __name__: 'a', ...TARGET })).toEqual([[t, 1], [t2, 'stale']]);
    expect(h.store.samples({ __name__: 'b', ...TARGET })).toEqual([[t, 2], [t2, 'stale']]);
    expect(report(h, 'up')).toEqual([[t, 1], [t2, 0]]);
    expect(h.target(URL_A).health).toBe('down');
    return { h, t: t2 };
  }

  it('HTTP error status', async () => {
    const { h } = await failAfterGood({ status: 500, body: 'oops' });
    expect(h.target(URL_A).lastError).toBe('server returned HTTP status 500 Internal Server Error');
  });

  it('connection failure', async () => {
    const { h } = await failAfterGood({ error: 'connect ECONNREFUSED a:1' });
    expect(h.target(URL_A).lastError).toBe(`Get "${URL_A}": connect ECONNREFUSED a:1`);
  });

  it('timeout: a target that never answers fails at scrape_timeout', async () => {
    const { h, t } = await failAfterGood({ delayMs: Infinity });
    expect(h.target(URL_A).lastError).toBe(`Get "${URL_A}": context deadline exceeded`);
    expect(report(h, 'scrape_duration_seconds').at(-1)).toEqual([t, 5]);
  });

  it('a slow answer within the timeout succeeds and reports its duration', async () => {
    const h = harness();
    h.fetch.set(URL_A, { body: 'a 1\n', delayMs: 2500 });
    await h.apply(job());
    await h.timers.advance(15_000);
    const t = h.target(URL_A).lastScrapeMs as number;
    expect(report(h, 'scrape_duration_seconds')).toEqual([[t, 2.5]]);
  });

  it('malformed exposition: nothing of the body is written, the error says where', async () => {
    const { h, t } = await failAfterGood({ body: 'a 1\nb 2\nc{ 3\n' });
    expect(h.store.find({ __name__: 'c' })).toEqual([]);
    expect(h.target(URL_A).lastError).toMatch(/^line 3, column 4: expected label name/);
    expect(report(h, 'scrape_samples_scraped').at(-1)).toEqual([t, 2]);
    expect(h.store.rollbacks).toBe(1);
  });

  it('sample_limit exceeded: the whole scrape fails', async () => {
    const { h, t } = await failAfterGood({ body: 'a 1\nb 2\nc 3\n' }, '    sample_limit: 2\n');
    expect(h.target(URL_A).lastError).toBe('sample limit exceeded');
    expect(h.store.find({ __name__: 'c' })).toEqual([]);
    expect(report(h, 'scrape_samples_scraped').at(-1)).toEqual([t, 3]);
    expect(report(h, 'scrape_samples_post_metric_relabeling').at(-1)).toEqual([t, 3]);
  });

  it.each([
    ['    label_limit: 4\n', 'x{a="1",b="2"} 1\n', 'label_limit exceeded (metric: x, number of labels: 6, limit: 4)'],
    ['    label_name_length_limit: 9\n', 'x{long_name_x="1"} 1\n', 'label_name_length_limit exceeded (metric: x, label name: long_name_x, length: 11, limit: 9)'],
    ['    label_value_length_limit: 5\n', 'x{v="long value"} 1\n', 'label_value_length_limit exceeded (metric: x, label name: v, value: "long value", length: 10, limit: 5)'],
  ])('label limits %s', async (extra, body, message) => {
    const { h } = await failAfterGood({ body }, extra);
    expect(h.target(URL_A).lastError).toBe(message);
    expect(h.store.find({ __name__: 'x' })).toEqual([]);
  });

  it('body_size_limit exceeded', async () => {
    const { h } = await failAfterGood({ body: 'a 1\n' + 'big_metric_name 1\n'.repeat(1000) }, '    body_size_limit: 1KB\n');
    expect(h.target(URL_A).lastError).toBe('body size limit exceeded');
  });

  it('invalid UTF-8 in the body', async () => {
    const { h } = await failAfterGood({ body: Buffer.from([0x61, 0x20, 0x31, 0x0a, 0xff, 0x0a]) });
    expect(h.target(URL_A).lastError).toBe('invalid UTF-8 in the response body');
  });

  it('a failed scrape is not followed by more staleness markers; recovery counts the series as not new', async () => {
    const { h, t } = await failAfterGood({ status: 503 });
    h.fetch.set(URL_A, { status: 503 });
    await h.timers.advance(10_000);
    expect(h.store.samples({ __name__: 'a', ...TARGET })).toHaveLength(2);
    h.fetch.set(URL_A, { body: 'a 1\nb 2\n' });
    await h.timers.advance(10_000);
    expect(h.store.samples({ __name__: 'a', ...TARGET }).at(-1)).toEqual([t + 20_000, 1]);
    expect(report(h, 'scrape_series_added').at(-1)).toEqual([t + 20_000, 0]);
    expect(h.target(URL_A)).toMatchObject({ health: 'up', lastError: '' });
  });

  it('a storage failure at commit marks the target down with the reason', async () => {
    const h = harness();
    h.store.failCommits(StorageErrorCode.UNAVAILABLE);
    await firstScrape(h, 'a 1\n');
    expect(h.target(URL_A)).toMatchObject({ health: 'down', lastError: 'appending the scrape failed: memory storage: commit failed (ERR_STORAGE_UNAVAILABLE)' });
  });
});

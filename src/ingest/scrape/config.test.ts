import { describe, expect, it } from 'vitest';
import { parseScrapeConfigFile } from './config.js';
import { formatPromDuration, parsePromDuration } from '../../config/index.js';

const parse = (yaml: string) => parseScrapeConfigFile(yaml, '/etc/infersight');

describe('durations (Prometheus model.Duration)', () => {
  it.each([
    ['0', 0, '0s'],
    ['15s', 15_000, '15s'],
    ['1m30s', 90_000, '1m30s'],
    ['500ms', 500, '500ms'],
    ['2h', 7_200_000, '2h'],
    ['1w', 604_800_000, '1w'],
    ['8d', 691_200_000, '8d'],
    ['1y', 31_536_000_000, '1y'],
  ])('%s', (text, ms, formatted) => {
    expect(parsePromDuration(text)).toBe(ms);
    expect(formatPromDuration(ms)).toBe(formatted);
  });
  it.each(['', '1', '1x', '30s1m', '1.5s', '-1s'])('rejects %j', (text) => {
    expect(() => parsePromDuration(text)).toThrow(text === '' ? 'empty duration string' : `not a valid duration string: ${JSON.stringify(text)}`);
  });
});

describe('parseScrapeConfigFile: defaults', () => {
  it('an empty file is the Prometheus defaults', () => {
    const c = parse('');
    expect(c.global).toMatchObject({ scrapeIntervalMs: 60_000, scrapeTimeoutMs: 10_000, evaluationIntervalMs: 60_000 });
    expect(c.scrapeConfigs).toEqual([]);
  });

  it('applies job defaults from global and Prometheus', () => {
    const c = parse(['global:', '  scrape_interval: 15s', '  external_labels: {region: eu}', 'scrape_configs:', '  - job_name: vllm', '    static_configs:', '      - targets: [a:8000, b:8000]', '        labels: {az: a}'].join('\n'));
    const j = c.scrapeConfigs[0];
    expect(c.global.externalLabels.get('region')).toBe('eu');
    expect(j).toMatchObject({
      jobName: 'vllm', scrapeIntervalMs: 15_000, scrapeTimeoutMs: 10_000, metricsPath: '/metrics', scheme: 'http', honorLabels: false, honorTimestamps: true,
      sampleLimit: 100_000, labelLimit: 64, labelNameLengthLimit: 256, labelValueLengthLimit: 4096, bodySizeLimitBytes: 32 * 1024 * 1024, targetLimit: 0, params: {},
    });
    expect(j.staticConfigs.map((g) => [g.source, g.targets.map((t) => t.get('__address__')), g.labels.get('az')])).toEqual([['0', ['a:8000', 'b:8000'], 'a']]);
  });

  it('an explicit 0 turns a limit off, as in Prometheus', () => {
    const j = parse('scrape_configs: [{job_name: a, sample_limit: 0, label_limit: 0, label_name_length_limit: 0, label_value_length_limit: 0, body_size_limit: 0}]').scrapeConfigs[0];
    expect(j).toMatchObject({ sampleLimit: 0, labelLimit: 0, labelNameLengthLimit: 0, labelValueLengthLimit: 0, bodySizeLimitBytes: 0 });
  });

  it('caps the inherited timeout at a shorter job interval', () => {
    expect(parse('scrape_configs: [{job_name: a, scrape_interval: 5s}]').scrapeConfigs[0].scrapeTimeoutMs).toBe(5000);
    expect(parse('global: {scrape_interval: 5s}').global.scrapeTimeoutMs).toBe(5000);
  });

  it('reads every supported field', () => {
    const c = parse(`
scrape_configs:
  - job_name: full
    scrape_interval: 30s
    scrape_timeout: 20s
    metrics_path: /custom
    scheme: https
    params: {module: [http_2xx, x]}
    honor_labels: true
    honor_timestamps: false
    sample_limit: 100
    target_limit: 5
    label_limit: 30
    label_name_length_limit: 64
    label_value_length_limit: 256
    body_size_limit: 10MB
    basic_auth: {username: u, password_file: secrets/pw}
    tls_config: {ca_file: ca.pem, cert_file: /abs/c.pem, key_file: k.pem, server_name: s, insecure_skip_verify: true}
    follow_redirects: false
    file_sd_configs:
      - files: [targets/*.json]
        refresh_interval: 1m
    relabel_configs:
      - source_labels: [__address__]
        target_label: instance
    metric_relabel_configs:
      - regex: go_.*
        source_labels: [__name__]
        action: drop
rule_files: [rules.yml]
remote_write: [{url: http://x}]
`);
    const j = c.scrapeConfigs[0];
    expect(j).toMatchObject({
      scrapeIntervalMs: 30_000, scrapeTimeoutMs: 20_000, metricsPath: '/custom', scheme: 'https', params: { module: ['http_2xx', 'x'] },
      honorLabels: true, honorTimestamps: false, sampleLimit: 100, targetLimit: 5, labelLimit: 30, labelNameLengthLimit: 64, labelValueLengthLimit: 256,
      bodySizeLimitBytes: 10 * 1024 * 1024,
    });
    expect(j.http).toMatchObject({
      basicAuth: { username: 'u', password: '', passwordFile: '/etc/infersight/secrets/pw' },
      tls: { caFile: '/etc/infersight/ca.pem', certFile: '/abs/c.pem', keyFile: '/etc/infersight/k.pem', serverName: 's', insecureSkipVerify: true },
      followRedirects: false,
    });
    expect(j.fileSdConfigs).toEqual([{ files: ['/etc/infersight/targets/*.json'], refreshIntervalMs: 60_000 }]);
    expect(j.relabelConfigs).toHaveLength(1);
    expect(j.metricRelabelConfigs[0].action).toBe('drop');
    // rule_files is read by the rules engine (src/server/rules-wiring.ts), not ignored.
    expect(c.ignoredSections).toEqual(['remote_write']);
  });

  it('turns bearer_token into a Bearer authorization; authorization defaults to Bearer', () => {
    expect(parse('scrape_configs: [{job_name: a, bearer_token: t}]').scrapeConfigs[0].http.authorization).toEqual({ type: 'Bearer', credentials: 't', credentialsFile: '' });
    expect(parse('scrape_configs: [{job_name: a, authorization: {credentials: t}}]').scrapeConfigs[0].http.authorization?.type).toBe('Bearer');
  });

  it('keeps scalars as written for string fields and honours anchors and merge keys', () => {
    const c = parse(['defaults: &d', '', 'scrape_configs:', '  - &base', '    job_name: 0x10', '    scrape_interval: 10s', '  - <<: *base', '    job_name: copy'].join('\n').replace('defaults: &d\n\n', ''));
    expect(c.scrapeConfigs.map((s) => [s.jobName, s.scrapeIntervalMs])).toEqual([['0x10', 10_000], ['copy', 10_000]]);
  });
});

describe('parseScrapeConfigFile: invalid configurations', () => {
  it.each([
    ['global: {scrape_intervall: 1m}', 'line 1: field scrape_intervall not found in type config.GlobalConfig'],
    ['scrape_configs:\n  - job_name: a\n    scrape_interva: 1m', 'line 3: field scrape_interva not found in type config.ScrapeConfig'],
    ['scrape_config: []', 'line 1: field scrape_config not found in type config.Config'],
    ['scrape_configs:\n  - job_name: a\n    scrape_interval: 1x', 'line 3: scrape_configs[0].scrape_interval: not a valid duration string: "1x"'],
    ['scrape_configs:\n  - scrape_interval: 1m', 'line 2: scrape_configs[0]: job_name is empty'],
    ['scrape_configs:\n  - job_name: a\n  - job_name: a', 'line 3: scrape_configs[1]: found multiple scrape configs with job name "a"'],
    ['scrape_configs:\n  - job_name: a\n    scrape_interval: 5s\n    scrape_timeout: 10s', 'scrape timeout greater than scrape interval for scrape config with job name "a"'],
    ['global:\n  scrape_interval: 5s\n  scrape_timeout: 10s', 'line 2: global: global scrape timeout greater than scrape interval'],
    ['global:\n  external_labels: {"a-b": x}', '"a-b" is not a valid label name'],
    ['scrape_configs:\n  - job_name: a\n    static_configs: [{targets: ["http://x:9100"]}]', 'line 3: scrape_configs[0].static_configs[0].targets[0]: "http://x:9100" is not a valid hostname'],
    ['scrape_configs:\n  - job_name: a\n    static_configs: [{targets: [x], labels: {"0a": b}}]', '"0a" is not a valid label name'],
    ['scrape_configs:\n  - job_name: a\n    static_configs: [{target: [x]}]', 'field target not found in type targetgroup.Group'],
    ['scrape_configs:\n  - job_name: a\n    scheme: ftp', 'line 3: scrape_configs[0].scheme: invalid scheme "ftp": want http or https'],
    ['scrape_configs:\n  - job_name: a\n    honor_labels: maybe', 'line 3: scrape_configs[0].honor_labels: cannot unmarshal !!str `maybe` into bool'],
    ['scrape_configs:\n  - job_name: a\n    sample_limit: lots', 'cannot unmarshal !!str `lots` into uint'],
    ['scrape_configs:\n  - job_name: [a]', 'cannot unmarshal !!seq into string'],
    ['scrape_configs:\n  - job_name: a\n    body_size_limit: 10 parsecs', 'invalid body_size_limit "10 parsecs"'],
    ['scrape_configs:\n  - job_name: a\n    kubernetes_sd_configs: [{role: pod}]', 'kubernetes_sd_configs is not supported by Infersight (supported service discovery: static_configs, file_sd_configs)'],
    ['scrape_configs:\n  - job_name: a\n    oauth2: {client_id: x}', "oauth2 is not supported by Infersight's scraper"],
    ['scrape_configs:\n  - job_name: a\n    basic_auth: {username: u, password: p, password_file: f}', 'at most one of basic_auth password & password_file must be configured'],
    ['scrape_configs:\n  - job_name: a\n    basic_auth: {username: u}\n    authorization: {credentials: c}', 'at most one of basic_auth, oauth2 & authorization must be configured'],
    ['scrape_configs:\n  - job_name: a\n    basic_auth: {username: u}\n    bearer_token: t', 'at most one of basic_auth, oauth2, bearer_token & bearer_token_file must be configured'],
    ['scrape_configs:\n  - job_name: a\n    authorization: {type: Basic, credentials: c}', 'authorization type cannot be set to "basic", use "basic_auth" instead'],
    ['scrape_configs:\n  - job_name: a\n    authorization: {credentials: c, credentials_file: f}', 'at most one of authorization credentials & credentials_file must be configured'],
    ['scrape_configs:\n  - job_name: a\n    tls_config: {cert_file: c}', 'exactly one of key or key_file must be configured when a client certificate is configured'],
    ['scrape_configs:\n  - job_name: a\n    tls_config: {key_file: k}', 'exactly one of cert or cert_file must be configured when a client key is configured'],
    ['scrape_configs:\n  - job_name: a\n    tls_config: {ca: x, ca_file: y}', 'at most one of ca and ca_file must be configured'],
    ['scrape_configs:\n  - job_name: a\n    file_sd_configs: [{files: ["targets/*/x.json"]}]', 'path name "targets/*/x.json" is not valid for file discovery'],
    ['scrape_configs:\n  - job_name: a\n    file_sd_configs: [{files: [targets.txt]}]', 'path name "targets.txt" is not valid for file discovery'],
    ['scrape_configs:\n  - job_name: a\n    file_sd_configs: [{refresh_interval: 1m}]', 'file service discovery config must contain at least one path name'],
    ['scrape_configs:\n  - job_name: a\n    relabel_configs: [{action: drop, regex: "(", source_labels: [a]}]', 'line 3: scrape_configs[0].relabel_configs[0].regex: error parsing regexp: missing closing )'],
    ['scrape_configs:\n  - ~', 'line 2: scrape_configs[0]: empty or null scrape config section'],
    ['scrape_configs:\n  - job_name: a\n    job_name: b', 'line 3: Map keys must be unique'],
    ['scrape_configs: [', 'line 1: '],
  ])('%j', (yaml, message) => {
    expect(() => parse(yaml)).toThrow(message);
  });
});

import { describe, expect, it } from 'vitest';
import { parseYamlDocument } from '../../config/index.js';
import { parseAlertingConfig } from './config.js';

/** Parses a whole configuration file's text and reads its `alerting:` section. */
function parse(yaml: string) {
  const root = parseYamlDocument(yaml);
  const f = root.struct('config.Config', ['global', 'alerting', 'scrape_configs']);
  return parseAlertingConfig(f.alerting, '/etc/infersight');
}

describe('parseAlertingConfig: defaults and fields', () => {
  it('no section, an empty one and a null one send nothing', () => {
    for (const y of ['', 'alerting:', 'alerting: {}']) expect(parse(y)).toEqual({ alertmanagers: [], alertRelabelConfigs: [], webhooks: [] });
  });

  it('applies Prometheus defaults to an Alertmanager entry', () => {
    const am = parse('alerting:\n  alertmanagers:\n  - static_configs:\n    - targets: [am1:9093, am2:9093]\n      labels: {dc: a}').alertmanagers[0];
    expect(am).toMatchObject({ scheme: 'http', pathPrefix: '', timeoutMs: 10_000, apiVersion: 'v2', fileSdConfigs: [], relabelConfigs: [] });
    expect(am.http).toMatchObject({ followRedirects: true, enableHttp2: true });
    expect(am.staticConfigs.map((g) => [g.source, g.targets.map((t) => t.get('__address__')), g.labels.get('dc')])).toEqual([['0', ['am1:9093', 'am2:9093'], 'a']]);
  });

  it('reads every supported field', () => {
    const c = parse(`
alerting:
  alert_relabel_configs:
  - action: labeldrop
    regex: replica
  alertmanagers:
  - scheme: https
    path_prefix: /am
    timeout: 3s
    api_version: v2
    basic_auth: {username: u, password_file: secret}
    tls_config: {ca_file: ca.pem, insecure_skip_verify: true}
    file_sd_configs: [{files: [am/*.json], refresh_interval: 30s}]
    relabel_configs:
    - source_labels: [__address__]
      regex: "(.*):9093"
      target_label: __address__
      replacement: "$1:9094"
  infersight_webhooks:
  - url: https://hooks.example.com/alerts
    timeout: 2s
    authorization: {credentials: tok}
  - name: pager
    url: http://pager:8080/
`);
    const am = c.alertmanagers[0];
    expect(am).toMatchObject({ scheme: 'https', pathPrefix: '/am', timeoutMs: 3000 });
    expect(am.http.basicAuth).toEqual({ username: 'u', password: '', passwordFile: '/etc/infersight/secret' });
    expect(am.http.tls).toMatchObject({ caFile: '/etc/infersight/ca.pem', insecureSkipVerify: true });
    expect(am.fileSdConfigs).toEqual([{ files: ['/etc/infersight/am/*.json'], refreshIntervalMs: 30_000 }]);
    expect(am.relabelConfigs.map((r) => [r.action, r.targetLabel, r.replacement])).toEqual([['replace', '__address__', '$1:9094']]);
    expect(c.alertRelabelConfigs.map((r) => r.action)).toEqual(['labeldrop']);
    expect(c.webhooks.map((w) => [w.name, w.url, w.timeoutMs, w.http.authorization?.credentials])).toEqual([
      ['https://hooks.example.com/alerts', 'https://hooks.example.com/alerts', 2000, 'tok'],
      ['pager', 'http://pager:8080/', 10_000, undefined],
    ]);
  });

  it('accepts URL-looking targets when relabel_configs may rewrite them, as Prometheus', () => {
    const y = 'alerting:\n  alertmanagers:\n  - static_configs: [{targets: ["http://x:9093"]}]\n    relabel_configs: [{action: keep, source_labels: [__address__], regex: ".*"}]';
    expect(parse(y).alertmanagers[0].staticConfigs[0].targets[0].get('__address__')).toBe('http://x:9093');
  });
});

describe('parseAlertingConfig: errors name the line and keep Prometheus wording', () => {
  // The messages after `line N: path:` are promtool 2.42's (`promtool check config`), except where
  // the comment says Infersight refuses what Prometheus accepts.
  it.each([
    ['alerting:\n  foo: 1', 'line 2: field foo not found in type config.plain'],
    ['alerting:\n  alertmanagers:\n  - foo: 1', 'line 3: field foo not found in type config.AlertmanagerConfig'],
    ['alerting:\n  alertmanagers:\n  - static_configs: [{targets: ["http://x:9093"]}]', 'line 3: alerting.alertmanagers[0].static_configs[0].targets[0]: "http://x:9093" is not a valid hostname'],
    ['alerting:\n  alert_relabel_configs: [~]', 'line 2: alerting.alert_relabel_configs[0]: empty or null alert relabeling rule'],
    ['alerting:\n  alertmanagers:\n  - relabel_configs: [~]', 'line 3: alerting.alertmanagers[0].relabel_configs[0]: empty or null Alertmanager target relabeling rule'],
    ['alerting:\n  alertmanagers:\n  - timeout: 1x', 'line 3: alerting.alertmanagers[0].timeout: not a valid duration string: "1x"'],
    ['alerting:\n  alertmanagers:\n  - api_version: v3', 'line 3: alerting.alertmanagers[0].api_version: expected Alertmanager api version to be one of [v2] but got v3'],
    // Prometheus 2.42 accepts v1; 3.x refuses it with this message (Infersight speaks v2 only).
    ['alerting:\n  alertmanagers:\n  - api_version: v1', 'expected Alertmanager api version to be one of [v2] but got v1'],
    // Prometheus accepts any scheme and fails when sending.
    ['alerting:\n  alertmanagers:\n  - scheme: ftp', 'line 3: alerting.alertmanagers[0].scheme: invalid scheme "ftp": want http or https'],
    // Prometheus accepts 0s, which times every request out at once.
    ['alerting:\n  alertmanagers:\n  - timeout: 0s', 'line 3: alerting.alertmanagers[0].timeout: timeout must be greater than 0'],
    // Prometheus 2.42 crashes (nil pointer) on a null entry.
    ['alerting:\n  alertmanagers:\n  - ~', 'line 3: alerting.alertmanagers[0]: empty or null Alertmanager config'],
    ['alerting:\n  alertmanagers:\n  - static_configs:\n    - targets: [a]\n      labels: {"0a": b}', '"0a" is not a valid label name'],
    ['alerting:\n  alertmanagers:\n  - basic_auth: {username: u, password: p, password_file: f}', 'at most one of basic_auth password & password_file must be configured'],
    ['alerting:\n  alertmanagers:\n  - file_sd_configs: [{files: [x.txt]}]', 'path name "x.txt" is not valid for file discovery'],
    ['alerting:\n  alert_relabel_configs:\n  - action: hashmod\n    target_label: x', 'line 3: alerting.alert_relabel_configs[0]: relabel configuration for hashmod requires non-zero modulus'],
    ['alerting:\n  alertmanagers:\n  - relabel_configs: [{action: foo}]', 'unknown relabel action "foo"'],
    ['alerting:\n  alertmanagers:\n  - kubernetes_sd_configs: [{role: pod}]', 'line 3: alerting.alertmanagers[0].kubernetes_sd_configs: kubernetes_sd_configs is not supported by Infersight (supported service discovery: static_configs, file_sd_configs)'],
    ['alerting:\n  alertmanagers:\n  - oauth2: {client_id: x}', "oauth2 is not supported by Infersight's notifier"],
    ['alerting:\n  alertmanagers:\n  - timeout: [1s]', 'line 3: alerting.alertmanagers[0].timeout: cannot unmarshal !!seq into string'],
    ['alerting:\n  infersight_webhooks:\n  - timeout: 1s', 'line 3: alerting.infersight_webhooks[0]: webhook url is empty'],
    ['alerting:\n  infersight_webhooks:\n  - url: "::"', 'line 3: alerting.infersight_webhooks[0].url: invalid webhook url "::"'],
    ['alerting:\n  infersight_webhooks:\n  - url: ftp://x/', 'invalid webhook url "ftp://x/": want an http or https URL'],
    ['alerting:\n  infersight_webhooks:\n  - url: http://a/\n  - url: http://a/', 'line 4: alerting.infersight_webhooks[1]: found multiple webhooks named "http://a/"'],
    ['alerting:\n  infersight_webhooks:\n  - url: http://a/\n    headers: {a: b}', 'line 4: field headers not found in type infersight.WebhookConfig'],
    ['alerting:\n  infersight_webhooks: [~]', 'line 2: alerting.infersight_webhooks[0]: empty or null webhook config'],
  ])('%j', (yaml, message) => {
    expect(() => parse(yaml)).toThrow(message);
  });
});

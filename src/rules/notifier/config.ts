import type { DurationMs } from '../../model/index.js';
import {
  HTTP_CLIENT_FIELDS,
  UNSUPPORTED_HTTP_FIELDS,
  parseFileSdConfigs,
  parseHttpClientConfig,
  parseRelabelConfigs,
  parseStaticConfigs,
  type FileSdConfig,
  type HttpClientConfig,
  type RelabelConfig,
  type TargetGroup,
  type YamlNode,
} from '../../config/index.js';

/** One `alertmanagers` entry of the `alerting:` section, defaults applied and validated. */
export interface AlertmanagerConfig {
  readonly scheme: 'http' | 'https';
  /** Put in front of `/api/v2/alerts` (`path_prefix`, default ''). */
  readonly pathPrefix: string;
  /** How long one POST may take, answer included (`timeout`, default 10 s). */
  readonly timeoutMs: DurationMs;
  /** Always `v2`: Infersight speaks only Alertmanager's API v2. */
  readonly apiVersion: 'v2';
  readonly http: HttpClientConfig;
  /** `static_configs`, each with its source (`0`, `1`, ...). */
  readonly staticConfigs: readonly TargetGroup[];
  readonly fileSdConfigs: readonly FileSdConfig[];
  /** `relabel_configs`: applied to the discovered targets (`__address__`, `__scheme__`, `__alerts_path__`). */
  readonly relabelConfigs: readonly RelabelConfig[];
}

/**
 * One generic webhook (`alerting.infersight_webhooks`, an Infersight extension that Prometheus
 * does not have): every batch of alerts is POSTed to `url` as JSON in the shape of Alertmanager's
 * webhook notification, so receivers written for Alertmanager's `webhook_configs` can read it.
 */
export interface WebhookConfig {
  /** Names the webhook in logs and statistics; default: the URL. */
  readonly name: string;
  readonly url: string;
  readonly timeoutMs: DurationMs;
  readonly http: HttpClientConfig;
}

/** Prometheus' `alerting:` section plus Infersight's webhooks. */
export interface AlertingConfig {
  readonly alertmanagers: readonly AlertmanagerConfig[];
  /** Applied to every alert before it is queued; an alert relabeled to nothing is not sent. */
  readonly alertRelabelConfigs: readonly RelabelConfig[];
  readonly webhooks: readonly WebhookConfig[];
}

/** The key of Infersight's webhook extension inside `alerting:`; no Prometheus field can take this name. */
export const WEBHOOKS_KEY = 'infersight_webhooks';

/** An `alerting:` section that sends nothing (the section is absent). */
export const EMPTY_ALERTING_CONFIG: AlertingConfig = { alertmanagers: [], alertRelabelConfigs: [], webhooks: [] };

/** Prometheus' default Alertmanager timeout. */
export const DEFAULT_NOTIFY_TIMEOUT_MS: DurationMs = 10_000;

const SUPPORTED_SD = ['static_configs', 'file_sd_configs'];
const AM_FIELDS = ['scheme', 'path_prefix', 'timeout', 'api_version', 'relabel_configs', ...SUPPORTED_SD, ...HTTP_CLIENT_FIELDS, ...UNSUPPORTED_HTTP_FIELDS];
const WEBHOOK_FIELDS = ['name', 'url', 'timeout', ...HTTP_CLIENT_FIELDS, ...UNSUPPORTED_HTTP_FIELDS];

/**
 * The HTTP client fields with the notifier's own wording for those Infersight lacks (the shared
 * parser's message names the scraper).
 */
function parseHttp(f: Partial<Record<string, YamlNode>>, at: YamlNode, dir: string): HttpClientConfig {
  for (const name of UNSUPPORTED_HTTP_FIELDS) {
    if (f[name] !== undefined) f[name].fail(`${name} is not supported by Infersight's notifier`);
  }
  return parseHttpClientConfig(f, at, dir);
}

/** A positive `timeout` (Prometheus accepts 0, which fails every request at once; Infersight refuses it). */
function parseTimeout(node: YamlNode | undefined): DurationMs {
  if (node === undefined) return DEFAULT_NOTIFY_TIMEOUT_MS;
  const ms = node.duration();
  if (ms <= 0) node.fail('timeout must be greater than 0');
  return ms;
}

/** Relabel rules where a null entry has its own message (Prometheus names which list it is in). */
function parseRelabelList(node: YamlNode | undefined, nullMessage: string): RelabelConfig[] {
  if (node === undefined) return [];
  for (const item of node.list()) if (item.isNull()) item.fail(nullMessage);
  return parseRelabelConfigs(node);
}

function parseAlertmanager(node: YamlNode, dir: string): AlertmanagerConfig {
  // Prometheus 2.42 crashes on a null entry (a nil pointer in SetDirectory); refuse it instead.
  if (node.isNull()) node.fail('empty or null Alertmanager config');
  // Discovery mechanisms Infersight lacks get a message that says so, not "field not found".
  for (const [key, value] of node.entries()) {
    if (key.endsWith('_sd_configs') && !SUPPORTED_SD.includes(key)) {
      value.fail(`${key} is not supported by Infersight (supported service discovery: ${SUPPORTED_SD.join(', ')})`);
    }
  }
  const f = node.struct('config.AlertmanagerConfig', AM_FIELDS);
  const http = parseHttp(f, node, dir);
  const scheme = f.scheme?.string() ?? 'http';
  // Prometheus accepts any scheme here and fails at send time; a typo is better caught at load.
  if (scheme !== 'http' && scheme !== 'https') (f.scheme ?? node).fail(`invalid scheme ${JSON.stringify(scheme)}: want http or https`);
  const version = f.api_version?.string() ?? 'v2';
  // Prometheus 2.42 still accepts v1; 3.x refuses it with this message, and Alertmanager 0.27
  // removed the v1 API. Infersight speaks only v2 (docs/rules.md, "Notification").
  if (version !== 'v2') (f.api_version ?? node).fail(`expected Alertmanager api version to be one of [v2] but got ${version}`);
  const relabelConfigs = parseRelabelList(f.relabel_configs, 'empty or null Alertmanager target relabeling rule');
  const statics = f.static_configs === undefined ? [] : parseStaticConfigs(f.static_configs, relabelConfigs.length === 0);
  return {
    scheme: scheme as 'http' | 'https',
    pathPrefix: f.path_prefix?.string() ?? '',
    timeoutMs: parseTimeout(f.timeout),
    apiVersion: 'v2',
    http,
    staticConfigs: statics.map((g, i) => ({ ...g, source: String(i) })),
    fileSdConfigs: f.file_sd_configs === undefined ? [] : parseFileSdConfigs(f.file_sd_configs, dir),
    relabelConfigs,
  };
}

function parseWebhook(node: YamlNode, dir: string): WebhookConfig {
  if (node.isNull()) node.fail('empty or null webhook config');
  const f = node.struct('infersight.WebhookConfig', WEBHOOK_FIELDS);
  const url = f.url?.string() ?? '';
  if (url === '') node.fail('webhook url is empty');
  let protocol = '';
  try {
    protocol = new URL(url).protocol;
  } catch {
    (f.url ?? node).fail(`invalid webhook url ${JSON.stringify(url)}`);
  }
  if (protocol !== 'http:' && protocol !== 'https:') (f.url ?? node).fail(`invalid webhook url ${JSON.stringify(url)}: want an http or https URL`);
  return { name: f.name?.string() || url, url, timeoutMs: parseTimeout(f.timeout), http: parseHttp(f, node, dir) };
}

/**
 * Reads Prometheus' `alerting:` section (`alertmanagers`, `alert_relabel_configs`) and
 * Infersight's `infersight_webhooks` with Prometheus' defaults, checks and messages. `node` is the
 * section (undefined or null: nothing is sent); `dir` is the directory that relative file paths
 * (file_sd files, TLS and password files) are resolved against. Throws a `ConfigError` that names
 * the line and the field. External labels are not part of this section: they come from
 * `global.external_labels`, which the caller passes to the notifier.
 */
export function parseAlertingConfig(node: YamlNode | undefined, dir: string): AlertingConfig {
  if (node === undefined || node.isNull()) return EMPTY_ALERTING_CONFIG;
  // yaml.v2 names the type of a struct decoded through a local `plain` type that way.
  const f = node.struct('config.plain', ['alertmanagers', 'alert_relabel_configs', WEBHOOKS_KEY]);
  const webhooks = (f[WEBHOOKS_KEY]?.list() ?? []).map((n) => parseWebhook(n, dir));
  const names = new Set<string>();
  for (const [i, w] of webhooks.entries()) {
    if (names.has(w.name)) (f[WEBHOOKS_KEY] as YamlNode).list()[i].fail(`found multiple webhooks named ${JSON.stringify(w.name)}`);
    names.add(w.name);
  }
  return {
    alertmanagers: (f.alertmanagers?.list() ?? []).map((n) => parseAlertmanager(n, dir)),
    alertRelabelConfigs: parseRelabelList(f.alert_relabel_configs, 'empty or null alert relabeling rule'),
    webhooks,
  };
}

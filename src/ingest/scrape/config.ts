import fs from 'node:fs/promises';
import path from 'node:path';
import { Labels, type DurationMs } from '../../model/index.js';
import { ConfigError, type FileSdConfig, HTTP_CLIENT_FIELDS, type HttpClientConfig, isValidLabelName, parseBodySize, parseFileSdConfigs, parseHttpClientConfig, parseRelabelConfigs, parseStaticConfigs, parseYamlDocument, type RelabelConfig, type TargetGroup, UNSUPPORTED_HTTP_FIELDS, type YamlNode } from '../../config/index.js';

export { ConfigError } from '../../config/index.js';

/** The `global` section, defaults applied. */
export interface GlobalConfig {
  readonly scrapeIntervalMs: DurationMs;
  readonly scrapeTimeoutMs: DurationMs;
  readonly evaluationIntervalMs: DurationMs;
  /** Parsed and validated; like Prometheus, the scraper never adds them to stored samples. */
  readonly externalLabels: Labels;
}

/** One `scrape_configs` entry, defaults applied and validated. */
export interface ScrapeConfig {
  readonly jobName: string;
  readonly scrapeIntervalMs: DurationMs;
  readonly scrapeTimeoutMs: DurationMs;
  readonly metricsPath: string;
  readonly scheme: 'http' | 'https';
  readonly params: Readonly<Record<string, readonly string[]>>;
  readonly honorLabels: boolean;
  readonly honorTimestamps: boolean;
  readonly staticConfigs: readonly TargetGroup[];
  readonly fileSdConfigs: readonly FileSdConfig[];
  readonly relabelConfigs: readonly RelabelConfig[];
  readonly metricRelabelConfigs: readonly RelabelConfig[];
  readonly http: HttpClientConfig;
  /** 0 means no limit, for every limit below; absent fields get `DEFAULT_SCRAPE_LIMITS`. */
  readonly sampleLimit: number;
  readonly targetLimit: number;
  readonly labelLimit: number;
  readonly labelNameLengthLimit: number;
  readonly labelValueLengthLimit: number;
  readonly bodySizeLimitBytes: number;
}

/** A whole Prometheus configuration file as far as scraping goes. */
export interface ScrapeConfigFile {
  readonly global: GlobalConfig;
  readonly scrapeConfigs: readonly ScrapeConfig[];
  /** Top-level Prometheus sections present in the file that the scraper ignores (rule_files, remote_write, ...). */
  readonly ignoredSections: readonly string[];
}

/** Prometheus' defaults: 1m interval, 10s timeout, 1m evaluation interval. */
export const DEFAULT_GLOBAL: GlobalConfig = { scrapeIntervalMs: 60_000, scrapeTimeoutMs: 10_000, evaluationIntervalMs: 60_000, externalLabels: Labels.EMPTY };

/**
 * The per-target limits a scrape config gets when it does not set them. Prometheus' defaults are
 * 0 (unlimited), which lets one target take gigabytes (a million series, a gzip bomb) and stall
 * every other target; these bound what one scrape may stage in memory (docs/scrape.md, "Limits")
 * and match the receivers' per-series limits. An explicit 0 still means unlimited, as in
 * Prometheus. `target_limit` keeps Prometheus' default (0).
 */
export const DEFAULT_SCRAPE_LIMITS = {
  /** 32 MiB of decoded body, as the receivers' `--ingest.max-body-size`. */
  bodySizeLimitBytes: 32 * 1024 * 1024,
  /** 100,000 samples after metric relabeling, as the receivers' series per request. */
  sampleLimit: 100_000,
  /** 64 labels, `__name__` and the target labels included. */
  labelLimit: 64,
  /** 256 bytes. */
  labelNameLengthLimit: 256,
  /** 4096 bytes (UTF-8), the metric name included (it is the value of `__name__`). */
  labelValueLengthLimit: 4096,
} as const;

const IGNORED_SECTIONS = ['remote_write', 'remote_read', 'storage', 'tracing'];
/** Sections the rules engine, the cost evaluator and the quality wiring read from the same file (src/server/rules-wiring.ts, cost-config.ts, quality-wiring.ts). */
const RULES_SECTIONS = ['rule_files', 'slo_files', 'alerting', 'cost', 'quality'];
const SUPPORTED_SD = ['static_configs', 'file_sd_configs'];
const UNSUPPORTED_SD = [
  'azure_sd_configs', 'consul_sd_configs', 'digitalocean_sd_configs', 'docker_sd_configs', 'dockerswarm_sd_configs', 'dns_sd_configs',
  'ec2_sd_configs', 'eureka_sd_configs', 'gce_sd_configs', 'hetzner_sd_configs', 'http_sd_configs', 'ionos_sd_configs',
  'kubernetes_sd_configs', 'kuma_sd_configs', 'lightsail_sd_configs', 'linode_sd_configs', 'marathon_sd_configs', 'nerve_sd_configs',
  'nomad_sd_configs', 'openstack_sd_configs', 'ovhcloud_sd_configs', 'puppetdb_sd_configs', 'scaleway_sd_configs',
  'serverset_sd_configs', 'triton_sd_configs', 'uyuni_sd_configs', 'vultr_sd_configs',
];
const SCRAPE_FIELDS = [
  'job_name', 'honor_labels', 'honor_timestamps', 'params', 'scrape_interval', 'scrape_timeout', 'metrics_path', 'scheme',
  'body_size_limit', 'sample_limit', 'target_limit', 'label_limit', 'label_name_length_limit', 'label_value_length_limit',
  'relabel_configs', 'metric_relabel_configs', ...SUPPORTED_SD, ...UNSUPPORTED_SD, ...HTTP_CLIENT_FIELDS, ...UNSUPPORTED_HTTP_FIELDS,
];

function parseLabelMap(node: YamlNode): Labels {
  const flat: string[] = [];
  for (const [name, value] of node.entries()) {
    if (!isValidLabelName(name)) value.fail(`${JSON.stringify(name)} is not a valid label name`);
    flat.push(name, value.string());
  }
  return Labels.fromPairs(flat);
}

function parseGlobal(node: YamlNode | undefined): GlobalConfig {
  if (node === undefined || node.isNull()) return DEFAULT_GLOBAL;
  const f = node.struct('config.GlobalConfig', ['scrape_interval', 'scrape_timeout', 'evaluation_interval', 'rule_query_offset', 'external_labels', 'query_log_file']);
  f.query_log_file?.string();
  f.rule_query_offset?.duration();
  const interval = f.scrape_interval?.duration() || DEFAULT_GLOBAL.scrapeIntervalMs;
  const timeoutGiven = f.scrape_timeout?.duration() ?? 0;
  if (timeoutGiven > interval) node.fail('global scrape timeout greater than scrape interval');
  return {
    scrapeIntervalMs: interval,
    scrapeTimeoutMs: timeoutGiven || Math.min(DEFAULT_GLOBAL.scrapeTimeoutMs, interval),
    evaluationIntervalMs: f.evaluation_interval?.duration() || DEFAULT_GLOBAL.evaluationIntervalMs,
    externalLabels: f.external_labels === undefined ? Labels.EMPTY : parseLabelMap(f.external_labels),
  };
}

function parseParams(node: YamlNode | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, values] of node?.entries() ?? []) out[name] = values.stringList();
  return out;
}

const D = DEFAULT_SCRAPE_LIMITS;

function parseScrapeConfig(node: YamlNode, global: GlobalConfig, dir: string): ScrapeConfig {
  if (node.isNull()) node.fail('empty or null scrape config section');
  const f = node.struct('config.ScrapeConfig', SCRAPE_FIELDS);
  for (const name of UNSUPPORTED_SD) {
    if (f[name] !== undefined) f[name].fail(`${name} is not supported by Infersight (supported service discovery: ${SUPPORTED_SD.join(', ')})`);
  }
  const jobName = f.job_name?.string() ?? '';
  if (jobName === '') node.fail('job_name is empty');
  const http = parseHttpClientConfig(f, node, dir);
  const relabelConfigs = f.relabel_configs === undefined ? [] : parseRelabelConfigs(f.relabel_configs);
  const staticConfigs = f.static_configs === undefined ? [] : parseStaticConfigs(f.static_configs, relabelConfigs.length === 0);
  const interval = f.scrape_interval?.duration() || global.scrapeIntervalMs;
  const timeoutGiven = f.scrape_timeout?.duration() ?? 0;
  if (timeoutGiven > interval) node.fail(`scrape timeout greater than scrape interval for scrape config with job name ${JSON.stringify(jobName)}`);
  const scheme = f.scheme?.string() ?? 'http';
  const schemeNode: YamlNode = f.scheme ?? node;
  if (scheme !== 'http' && scheme !== 'https') schemeNode.fail(`invalid scheme ${JSON.stringify(scheme)}: want http or https`);
  const metricsPath = f.metrics_path?.string() ?? '/metrics';
  return {
    jobName,
    scrapeIntervalMs: interval,
    scrapeTimeoutMs: timeoutGiven || (global.scrapeTimeoutMs > interval ? interval : global.scrapeTimeoutMs),
    metricsPath: metricsPath === '' ? '/metrics' : metricsPath,
    scheme,
    params: parseParams(f.params),
    honorLabels: f.honor_labels?.bool() ?? false,
    honorTimestamps: f.honor_timestamps?.bool() ?? true,
    staticConfigs: staticConfigs.map((g, i) => ({ ...g, source: String(i) })),
    fileSdConfigs: f.file_sd_configs === undefined ? [] : parseFileSdConfigs(f.file_sd_configs, dir),
    relabelConfigs,
    metricRelabelConfigs: f.metric_relabel_configs === undefined ? [] : parseRelabelConfigs(f.metric_relabel_configs),
    http,
    sampleLimit: f.sample_limit?.uint() ?? D.sampleLimit,
    targetLimit: f.target_limit?.uint() ?? 0,
    labelLimit: f.label_limit?.uint() ?? D.labelLimit,
    labelNameLengthLimit: f.label_name_length_limit?.uint() ?? D.labelNameLengthLimit,
    labelValueLengthLimit: f.label_value_length_limit?.uint() ?? D.labelValueLengthLimit,
    bodySizeLimitBytes: f.body_size_limit === undefined ? D.bodySizeLimitBytes : parseBodySize(f.body_size_limit),
  };
}

/**
 * Parses a Prometheus configuration file's text with Prometheus' defaults and checks. `dir` is
 * the directory relative file paths (file_sd files, TLS and password files) are resolved against.
 * Throws `ConfigError` naming the line and field.
 */
export function parseScrapeConfigFile(text: string, dir = '.'): ScrapeConfigFile {
  const root = parseYamlDocument(text);
  const f = root.struct('config.Config', ['global', 'scrape_configs', 'scrape_config_files', ...RULES_SECTIONS, ...IGNORED_SECTIONS]);
  if (f.scrape_config_files !== undefined) f.scrape_config_files.fail('scrape_config_files is not supported by Infersight');
  const global = parseGlobal(f.global);
  const scrapeConfigs: ScrapeConfig[] = [];
  const jobs = new Set<string>();
  for (const node of f.scrape_configs?.list() ?? []) {
    const sc = parseScrapeConfig(node, global, dir);
    if (jobs.has(sc.jobName)) node.fail(`found multiple scrape configs with job name ${JSON.stringify(sc.jobName)}`);
    jobs.add(sc.jobName);
    scrapeConfigs.push(sc);
  }
  return { global, scrapeConfigs, ignoredSections: IGNORED_SECTIONS.filter((s) => f[s] !== undefined) };
}

/** Reads and parses a configuration file; errors read `parsing YAML file <file>: ...` as in Prometheus. */
export async function loadScrapeConfigFile(file: string): Promise<ScrapeConfigFile> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`open ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (e as Error).message}`);
  }
  try {
    return parseScrapeConfigFile(text, path.dirname(file));
  } catch (e) {
    throw new ConfigError(`parsing YAML file ${file}: ${(e as Error).message}`);
  }
}

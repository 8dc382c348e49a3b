/**
 * Public surface of `src/config`: the pieces of Prometheus' configuration format that more than
 * one module reads. A position-keeping YAML reader whose errors keep yaml.v2's wording, Prometheus
 * durations, relabeling, `static_configs` / `file_sd_configs` (with the file_sd watcher) and the
 * HTTP client section. The scrape manager, the rules engine and the notifier all build on it.
 */
export { formatPromDuration, parsePromDuration } from './duration.js';
export { FileSdProvider, globElementRegExp, nodeFileSdFs, nodeWatchDirs, type FileSdFs, type WatchDirs } from './file-sd.js';
export {
  HTTP_CLIENT_FIELDS,
  UNSUPPORTED_HTTP_FIELDS,
  authorizationHeader,
  parseHttpClientConfig,
  type HttpClientConfig,
  type ReadTextFile,
  type TlsConfig,
} from './http-config.js';
export {
  LabelsBuilder,
  compileRelabelRegex,
  hashMod,
  isValidLabelName,
  parseRelabelConfigs,
  relabel,
  relabelBuilder,
  relabelConfig,
  validateRelabelConfig,
  type RelabelAction,
  type RelabelConfig,
} from './relabel.js';
export { checkTargetAddress, parseBodySize, parseFileSdConfigs, parseFileSdContent, parseStaticConfigs, type FileSdConfig, type TargetGroup } from './sd-config.js';
export { MAX_YAML_DEPTH, yamlNestingDepth } from './yaml-depth.js';
export { ConfigError, YamlNode, parseYamlDocument } from './yaml-reader.js';

/**
 * Public surface of `src/ingest` (receivers): Prometheus remote write (1.0 and 2.0) and
 * OTLP/HTTP metrics, each built from an `Appendable` only, as framework-free handlers; and the
 * scrape manager (`scrape/`, whose own index lists its surface).
 */
export { CardinalityTracker } from './cardinality.js';
export { INGEST_ERRORS, IngestError, IngestErrorCode, ingestStatusFor } from './errors.js';
export { DEFAULT_INGEST_LIMITS, type IngestLimits } from './limits.js';
export { header, type IngestHeaders, type IngestRequest, type IngestResponse } from './response.js';
export { RemoteWriteReceiver, remoteWriteProto, type RemoteWriteReceiverOptions } from './remote-write.js';
export { OtlpReceiver, otlpEncoding, type OtlpReceiverOptions } from './otlp/receiver.js';
export { labelName, metricName, unitSuffixes, type MetricKind } from './otlp/names.js';
export {
  ConfigError,
  DEFAULT_GLOBAL,
  DEFAULT_SCRAPE_LIMITS,
  SCRAPE_ACCEPT_HEADER,
  ScrapeManager,
  Target,
  httpScrapeFetch,
  loadScrapeConfigFile,
  parseScrapeConfigFile,
  populateLabels,
  systemTimers,
  type GlobalConfig,
  type ScrapeConfig,
  type ScrapeConfigFile,
  type ScrapeFetch,
  type ScrapeManagerOptions,
  type ScrapeRequest,
  type ScrapeResponse,
  type TargetHealth,
  type Timers,
} from './scrape/index.js';

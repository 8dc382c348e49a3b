/**
 * Public surface of the scrape manager: Prometheus `scrape_configs` parsing, the scrape loops
 * with staleness (relabeling and file_sd come from `src/config`), and the targets and their state
 * (`src/server` shows them as `/api/v1/targets`).
 */
export { ConfigError, DEFAULT_GLOBAL, DEFAULT_SCRAPE_LIMITS, loadScrapeConfigFile, parseScrapeConfigFile, type GlobalConfig, type ScrapeConfig, type ScrapeConfigFile } from './config.js';
export { SCRAPE_ACCEPT_HEADER } from './loop.js';
export { ScrapeManager, type ScrapeManagerOptions } from './manager.js';
export { httpScrapeFetch, type ScrapeFetch, type ScrapeRequest, type ScrapeResponse } from './scrape-http.js';
export { Target, populateLabels, type TargetHealth } from './target.js';
export { systemTimers, type Timers } from './timers.js';

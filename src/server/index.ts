/** The composition root: wiring, HTTP routes. Only `src/cli` imports it. */
export { startServer, type RunningServer, type ServeOptions, type ServerBackfill } from './serve.js';
export { LogfmtLogger } from './logger.js';
export { EMPTY_RULES_CONFIG, parseRulesConfig, ruleFilePorts, wireRules, type RulesConfig, type RulesWiring, type RulesWiringOptions } from './rules-wiring.js';
export { listen, sendApiError, sendJson, sendText, type Handler, type HttpListener, type Routes } from './http.js';
export { HISTORY_SCRAPE_BUDGET, MIN_FIT_HISTORY_MS, faultMenu, historyFit, isFreshDataDir, startDemo, type DemoGatewayOptions, type DemoOptions, type RunningDemo } from './demo.js';
export { replayHistory, type HistoryDeriver, type HistoryProgress, type HistoryReplayOptions, type HistoryReport } from './demo-history.js';
export { deferredAppendable, gatewayConfigForSim, gatewayModelsFromSim, startServerGateway, type ServerGatewayOptions } from './gateway.js';
export {
  COST_HISTORY_CHUNK_MS,
  COST_HISTORY_LAG_MS,
  costHistoryDeriver,
  costMetricFamilies,
  wireCost,
  type CostBenchmarkCatalog,
  type CostCatalogs,
  type CostEvaluatorPorts,
  type CostModule,
  type CostSource,
  type CostStats,
  type CostWiring,
  type CostWiringOptions,
} from './cost-wiring.js';
export { parseCostConfig, type CostConfig } from './cost-config.js';
export { wireDiagnosis, type DiagnoseWiring, type DiagnoseWiringOptions } from './diagnose-wiring.js';
export { appendableSink } from './series-sink.js';
export { parseTime } from './api/params.js';

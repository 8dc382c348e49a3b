/**
 * Prometheus' HTTP API (`/api/v1/*`) over a `QueryClient`: parameter parsing with Prometheus'
 * rules and texts, its JSON (byte for byte), its error envelope and statuses, gzip, CORS.
 */
import type { Routes } from '../http.js';
import { apiHandler, type ApiDeps } from './common.js';
import { costHandlers } from './cost.js';
import { dashboardHandlers } from './dashboards.js';
import { diagnosisHandlers } from './diagnosis.js';
import { qualityScoresHandler } from './quality-scores.js';
import { qualityHandlers } from './quality.js';
import { rulesHandlers } from './rules.js';
import { formatQueryHandler, parseQueryHandler, queryExemplarsHandler, queryHandler, queryRangeHandler } from './query.js';
import { labelNamesHandler, labelValuesHandler, metadataHandler, seriesHandler } from './series.js';
import { statusHandlers } from './status.js';

export { DEFAULT_API_LIMITS, type ApiDeps, type ApiLimits } from './common.js';
export type { RulesSource } from './rules.js';
export { costCatalogJson, costSummaryJson } from './cost.js';
export { causeJson, diagnosisJson, insightJson, type DiagnosisSource } from './diagnosis.js';
export { qualityScoresHandler, type QualityScoresDeps } from './quality-scores.js';
export { SAMPLES_DEFAULT_LIMIT, SAMPLES_MAX_LIMIT, driftEventJson, sampleJson, type QualitySource } from './quality.js';
export type { BuildInfo, RuntimeInfo, StatusSources, TsdbStatus } from './status.js';
export { tsdbStatus } from './tsdb-status.js';

/** Adds every `/api/v1` route to `routes` (GET and POST where Prometheus has both, OPTIONS for CORS preflights). */
export function registerApiRoutes(routes: Routes, deps: ApiDeps): void {
  const status = statusHandlers(deps);
  const dashboards = dashboardHandlers(deps);
  const rules = rulesHandlers(deps);
  const diagnosis = diagnosisHandlers(deps);
  const quality = qualityHandlers(deps);
  const cost = costHandlers(deps);
  const table: [path: string, methods: ('GET' | 'POST')[], handler: ReturnType<typeof queryHandler>][] = [
    ['/api/v1/query', ['GET', 'POST'], queryHandler(deps)],
    ['/api/v1/query_range', ['GET', 'POST'], queryRangeHandler(deps)],
    ['/api/v1/query_exemplars', ['GET', 'POST'], queryExemplarsHandler(deps)],
    ['/api/v1/format_query', ['GET', 'POST'], formatQueryHandler(deps)],
    ['/api/v1/parse_query', ['GET', 'POST'], parseQueryHandler(deps)],
    ['/api/v1/series', ['GET', 'POST'], seriesHandler(deps)],
    ['/api/v1/labels', ['GET', 'POST'], labelNamesHandler(deps)],
    ['/api/v1/label/:name/values', ['GET'], labelValuesHandler(deps)],
    ['/api/v1/metadata', ['GET'], metadataHandler(deps)],
    ['/api/v1/status/buildinfo', ['GET'], status.buildinfo],
    ['/api/v1/status/runtimeinfo', ['GET'], status.runtimeinfo],
    ['/api/v1/status/flags', ['GET'], status.flags],
    ['/api/v1/status/tsdb', ['GET'], status.tsdb],
    ['/api/v1/rules', ['GET'], rules.rules],
    ['/api/v1/alerts', ['GET'], rules.alerts],
    ['/api/v1/alertmanagers', ['GET'], rules.alertmanagers],
    ['/api/v1/rules/pack', ['GET'], rules.pack],
    ['/api/v1/diagnosis', ['GET'], diagnosis.diagnosis],
    ['/api/v1/insights', ['GET'], diagnosis.insights],
    ['/api/v1/quality/scores', ['POST'], qualityScoresHandler({ ingest: deps.qualityScores ?? (() => null), clock: deps.clock, logger: deps.logger, bodyRead: deps.bodyRead })],
    ['/api/v1/quality/samples', ['GET'], quality.samples],
    ['/api/v1/quality/samples/:id', ['GET'], quality.sample],
    ['/api/v1/quality/drift', ['GET'], quality.drift],
    ['/api/v1/quality/status', ['GET'], quality.status],
    ['/api/v1/cost/summary', ['GET'], cost.summary],
    ['/api/v1/cost/catalog', ['GET'], cost.catalog],
    ['/api/v1/dashboards', ['GET'], dashboards.list],
    ['/api/v1/dashboards/:id', ['GET'], dashboards.get],
    ['/api/v1/dashboards/:id/grafana', ['GET'], dashboards.grafana],
  ];
  const preflight = apiHandler(deps, async () => ({ data: null }));
  for (const [path, methods, handler] of table) {
    for (const m of methods) routes.set(`${m} ${path}`, handler);
    routes.set(`OPTIONS ${path}`, preflight);
  }
}

/**
 * What each route of the server's listeners demands (docs/security.md): the scope, and for
 * state-changing routes the content types they accept (which also makes them refuse cross-site
 * requests). One table for the main listener and the OTLP listener, keyed like the route table
 * (`METHOD path`); a route missing from it is refused to everyone but `admin` callers with
 * browser checks (fail closed), and `route-policy.test.ts` fails until it is listed.
 */
import type { RoutePolicy } from '../http/index.js';

const READ: RoutePolicy = { scope: 'read' };
const PREFLIGHT: RoutePolicy = { scope: null };
const PROTOBUF = 'application/x-protobuf';
const JSON_TYPE = 'application/json';
/** State-changing routes without a body: cross-site refused, any content type. */
const ADMIN_ACTION: RoutePolicy = { scope: 'admin', contentTypes: [] };

/** The key of the static UI handler (GET/HEAD outside /api/ that no route matches). */
export const FALLBACK_ROUTE = 'GET (static UI)';

/** The key for a request that matched no route (404/405): credentials are still needed, so that routes cannot be probed. */
export const UNMATCHED_ROUTE = '(no route)';

const READ_ROUTES = [
  'GET /-/healthy',
  'GET /-/ready',
  'GET /metrics',
  'GET /federate',
  'POST /federate',
  'GET /api/v1/targets',
  'GET /api/v1/targets/metadata',
  'GET /api/v1/label/:name/values',
  'GET /api/v1/metadata',
  'GET /api/v1/status/buildinfo',
  'GET /api/v1/status/runtimeinfo',
  'GET /api/v1/status/flags',
  'GET /api/v1/status/tsdb',
  'GET /api/v1/rules',
  'GET /api/v1/alerts',
  'GET /api/v1/alertmanagers',
  'GET /api/v1/rules/pack',
  'GET /api/v1/diagnosis',
  'GET /api/v1/insights',
  // Sampled prompts and responses are read with the metrics' `read` scope (redacted before they were stored).
  'GET /api/v1/quality/samples',
  'GET /api/v1/quality/samples/:id',
  'GET /api/v1/quality/drift',
  'GET /api/v1/quality/status',
  'GET /api/v1/cost/summary',
  'GET /api/v1/cost/catalog',
  'GET /api/v1/dashboards',
  'GET /api/v1/dashboards/:id',
  'GET /api/v1/dashboards/:id/grafana',
  'GET /api/v1/sim/ground-truth',
  'GET /api/v1/sim/faults',
  'GET /api/v1/sim/targets',
  // Queries are reads, in GET and in form POST (Grafana's and promtool's way); never state-changing.
  ...['query', 'query_range', 'query_exemplars', 'format_query', 'parse_query', 'series', 'labels'].flatMap((p) => [`GET /api/v1/${p}`, `POST /api/v1/${p}`]),
  // The OTLP listener's banner.
  'GET /',
  FALLBACK_ROUTE,
  UNMATCHED_ROUTE,
];

/** Every route's policy, by route key. */
export const ROUTE_POLICIES: ReadonlyMap<string, RoutePolicy> = new Map<string, RoutePolicy>([
  ...READ_ROUTES.map((k): [string, RoutePolicy] => [k, READ]),
  ['POST /api/v1/write', { scope: 'write', contentTypes: [PROTOBUF] }],
  ['POST /api/v1/otlp/v1/metrics', { scope: 'write', contentTypes: [PROTOBUF, JSON_TYPE] }],
  ['POST /v1/metrics', { scope: 'write', contentTypes: [PROTOBUF, JSON_TYPE] }],
  ['POST /api/v1/quality/scores', { scope: 'write', contentTypes: [JSON_TYPE] }],
  ['POST /api/v1/sim/faults', { scope: 'admin', contentTypes: [JSON_TYPE] }],
  ['DELETE /api/v1/sim/faults/:id', ADMIN_ACTION],
  ['POST /-/reload', ADMIN_ACTION],
  ['PUT /-/reload', ADMIN_ACTION],
  ['POST /-/quit', ADMIN_ACTION],
  ['PUT /-/quit', ADMIN_ACTION],
  ...['snapshot', 'delete_series', 'clean_tombstones'].flatMap((p): [string, RoutePolicy][] => [
    [`POST /api/v1/admin/tsdb/${p}`, ADMIN_ACTION],
    [`PUT /api/v1/admin/tsdb/${p}`, ADMIN_ACTION],
  ]),
]);

/** A route nobody listed: only `admin` callers, with the browser checks of a state-changing route. */
const UNLISTED: RoutePolicy = ADMIN_ACTION;

/** The policy of a route key (`OPTIONS …` preflights need no credentials: browsers never send them). */
export function serverRoutePolicy(routeKey: string): RoutePolicy {
  if (routeKey.startsWith('OPTIONS ')) return PREFLIGHT;
  return ROUTE_POLICIES.get(routeKey) ?? UNLISTED;
}

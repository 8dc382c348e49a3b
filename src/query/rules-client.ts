/**
 * The read contract of rule and alert state, beside `QueryClient` rather than inside it: only the
 * consumers that show rules (the UI, Grafana-like tools) need it, and a `QueryClient` backend
 * (the embedded engine, a remote PromQL API) should not have to implement it. `HttpRulesClient`
 * reads Prometheus' `/api/v1/rules` and `/api/v1/alerts` from any compatible server.
 */
import type { QueryResponse, RequestOptions } from './client.js';
import { ApiTransport, isObject, isRecordOfStrings, type Params, type TransportOptions } from './http-transport.js';
import type { AlertsData, RulesData } from './wire.js';

/** Options of `RulesClient.rules`. */
export interface RulesOptions extends RequestOptions {
  /** Only alerting (`alert`) or only recording (`record`) rules; every group is still listed. */
  readonly type?: 'alert' | 'record';
}

/**
 * Rule groups and active alerts of a server, in Prometheus' API shapes (src/query/wire.ts). Both
 * calls are reads without side effects and may run concurrently; answers are snapshots (a group
 * evaluated between two calls shows its new state in the second). Failures reject with
 * `QueryClientError`: `not_found` (HTTP 404) when the server has no rules API, `bad_response`
 * when the answer is not of the documented shape, `canceled` when `signal` aborted the call.
 */
export interface RulesClient {
  /** `GET /api/v1/rules`: every group with its rules, their health and, for alerting rules, their alerts. */
  rules(opts?: RulesOptions): Promise<QueryResponse<RulesData>>;
  /** `GET /api/v1/alerts`: the pending and firing alerts. */
  alerts(opts?: RequestOptions): Promise<QueryResponse<AlertsData>>;
}

/** A `RulesClient` over HTTP (`fetch`; runs in browsers and Node). Stateless; share one per server. */
export class HttpRulesClient implements RulesClient {
  private readonly transport: ApiTransport;

  constructor(options: TransportOptions) {
    this.transport = new ApiTransport(options);
  }

  rules(opts: RulesOptions = {}): Promise<QueryResponse<RulesData>> {
    const p: Params = opts.type === undefined ? [] : [['type', opts.type]];
    return this.transport.call('/api/v1/rules', p, 'GET', opts, isRulesData);
  }

  alerts(opts: RequestOptions = {}): Promise<QueryResponse<AlertsData>> {
    return this.transport.call('/api/v1/alerts', [], 'GET', opts, (d) => isObject(d) && Array.isArray(d.alerts) && d.alerts.every(isAlert));
  }
}

function isAlert(a: unknown): boolean {
  return isObject(a) && isRecordOfStrings(a.labels) && (a.state === 'firing' || a.state === 'pending') && typeof a.value === 'string';
}

/** Checks the parts the UI relies on; unknown extra fields (newer Prometheus versions) are kept. */
function isRulesData(d: unknown): boolean {
  if (!isObject(d) || !Array.isArray(d.groups)) return false;
  return d.groups.every(
    (g) =>
      isObject(g) &&
      typeof g.name === 'string' &&
      typeof g.file === 'string' &&
      Array.isArray(g.rules) &&
      g.rules.every(
        (r) =>
          isObject(r) &&
          typeof r.name === 'string' &&
          typeof r.query === 'string' &&
          (r.type === 'recording' || (r.type === 'alerting' && Array.isArray(r.alerts) && r.alerts.every(isAlert))),
      ),
  );
}

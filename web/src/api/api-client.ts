/**
 * The UI's typed client of the Infersight HTTP API: PromQL and metadata through `src/query`'s
 * `HttpQueryClient`, rules and alerts through its `HttpRulesClient`, cost through its `HttpCostClient`, plus the non-query routes the UI reads (scrape targets in Prometheus'
 * shape, dashboard definitions, the server's flags). Talks only HTTP; the base URL is the page's origin. Every request
 * goes through `authFetch` (auth.ts): stored credentials, and the login prompt on a 401.
 */
import type { Dashboard } from '../../../src/dashboards/types.js';
import {
  HttpCostClient,
  HttpDiagnosisClient,
  HttpQueryClient,
  HttpRulesClient,
  QueryClientError,
  errorTypeForHttpStatus,
  type CostClient,
  type DiagnosisClient,
  type QualitySamplesData,
  type QualityStatusData,
  type QueryClient,
  type SampleWire,
  type RulesClient,
  type TargetDiscovery,
} from '../../../src/query/index.js';
import { authFetch } from './auth.js';

/** One scrape target, as `/api/v1/targets` writes it: the API's wire type (`src/query`). */
export type { ActiveTarget } from '../../../src/query/index.js';

/** The `data` of `/api/v1/targets` (`src/query`'s `TargetDiscovery`). */
export type TargetsData = TargetDiscovery;

/** The client. One per page; stateless. */
export class InfersightApi {
  /** PromQL, series, labels and metadata. */
  readonly query: QueryClient;
  /** `/api/v1/rules` and `/api/v1/alerts`. */
  readonly rules: RulesClient;
  /** `/api/v1/diagnosis` and `/api/v1/insights`. */
  readonly diagnosis: DiagnosisClient;
  /** `/api/v1/cost/summary` and `/api/v1/cost/catalog`. */
  readonly cost: CostClient;

  constructor(private readonly baseUrl: string) {
    this.query = new HttpQueryClient({ url: baseUrl, fetch: authFetch });
    this.rules = new HttpRulesClient({ url: baseUrl, fetch: authFetch });
    this.diagnosis = new HttpDiagnosisClient({ url: baseUrl, fetch: authFetch });
    this.cost = new HttpCostClient({ url: baseUrl, fetch: authFetch });
  }

  /** `GET /api/v1/targets`. */
  targets(signal?: AbortSignal): Promise<TargetsData> {
    return this.getJson<TargetsData>('/api/v1/targets', signal);
  }

  /** `GET /api/v1/dashboards/<id>`: a dashboard definition (src/dashboards/types.ts). */
  dashboard(id: string, signal?: AbortSignal): Promise<Dashboard> {
    return this.getJson<Dashboard>(`/api/v1/dashboards/${encodeURIComponent(id)}`, signal);
  }

  /** `GET /api/v1/status/flags`: the server's flags (the demo's `speed` among them). */
  flags(signal?: AbortSignal): Promise<Record<string, string>> {
    return this.getJson<Record<string, string>>('/api/v1/status/flags', signal);
  }

  /** `GET /api/v1/quality/samples` with the sample browser's filters (`model`, `dimension`, `min_score`, …, as the route names them). */
  qualitySamples(params: readonly (readonly [string, string])[], signal?: AbortSignal): Promise<QualitySamplesData> {
    const q = new URLSearchParams(params.map(([k, v]) => [k, v])).toString();
    return this.getJson<QualitySamplesData>(`/api/v1/quality/samples${q === '' ? '' : `?${q}`}`, signal);
  }

  /** `GET /api/v1/quality/samples/<id>`: one pair with every evaluation. */
  qualitySample(id: string, signal?: AbortSignal): Promise<SampleWire> {
    return this.getJson<SampleWire>(`/api/v1/quality/samples/${encodeURIComponent(id)}`, signal);
  }

  /** `GET /api/v1/quality/status`: the sample store and the pipeline. */
  qualityStatus(signal?: AbortSignal): Promise<QualityStatusData> {
    return this.getJson<QualityStatusData>('/api/v1/quality/status', signal);
  }

  /** GETs an API route and unwraps Prometheus' `{status, data}` envelope; failures reject with `QueryClientError`. */
  private async getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
    let res: Response;
    try {
      res = await authFetch(this.baseUrl.replace(/\/+$/, '') + path, { headers: { Accept: 'application/json' }, signal });
    } catch (e) {
      if (signal?.aborted === true) throw new QueryClientError('canceled', `${path}: request canceled`, 499);
      throw new QueryClientError('unavailable', `${path}: cannot reach the server: ${e instanceof Error ? e.message : String(e)}`, 503);
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (typeof body === 'object' && body !== null && 'status' in body) {
      const b = body as { status: string; data?: unknown; error?: string };
      if (b.status === 'success') return b.data as T;
      if (typeof b.error === 'string') throw new QueryClientError(errorTypeForHttpStatus(res.status), b.error, res.status);
    }
    throw new QueryClientError(errorTypeForHttpStatus(res.status), `${path}: HTTP ${res.status}`, res.status);
  }
}

let shared: InfersightApi | undefined;

/** The page's client (base URL: the page's origin). */
export function api(): InfersightApi {
  shared ??= new InfersightApi(window.location.origin);
  return shared;
}

/** The message to show for a failed call. */
export function errorMessage(e: unknown): string {
  if (e instanceof QueryClientError) return e.message;
  if (e instanceof Error) return e.message;
  return String(e);
}

/** Whether `e` is the rejection of an aborted call (stale: never shown). */
export function isCanceled(e: unknown): boolean {
  return (e instanceof QueryClientError && e.errorType === 'canceled') || (e instanceof DOMException && e.name === 'AbortError');
}

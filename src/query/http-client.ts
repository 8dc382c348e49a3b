import type { DurationMs, UnixMs } from '../model/index.js';
import type { LabelOptions, MetadataOptions, QueryClient, QueryOptions, QueryResponse, SeriesOptions } from './client.js';
import { formatDurationParam, formatTimeParam } from './format.js';
import { ApiTransport, isObject, isRecordOfStrings, type Params } from './http-transport.js';
import type { InstantQueryData, MetadataData, Metric, RangeQueryData } from './wire.js';

/** Options of `HttpQueryClient`. */
export interface HttpQueryClientOptions {
  /**
   * The server's base URL; `/api/v1/...` is appended. `http://127.0.0.1:9090` for Prometheus,
   * `http://vmselect:8481/select/0/prometheus` for a VictoriaMetrics cluster.
   */
  readonly url: string;
  /**
   * How `query`, `query_range`, `series` and `labels` are sent: `POST` (default) with a form body,
   * as Grafana does, so long queries do not hit URL length limits; falls back to `GET` when the
   * server answers 405 or 501. Label values and metadata are always `GET` (Prometheus has no POST
   * route for them).
   */
  readonly method?: 'GET' | 'POST';
  /** Extra request headers (authorization, tenant ids). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The fetch implementation; defaults to the global `fetch` (browsers and Node 18+). */
  readonly fetch?: typeof fetch;
}

/**
 * A `QueryClient` that speaks Prometheus' HTTP API to any compatible server: Prometheus,
 * VictoriaMetrics, Mimir, Thanos, Infersight. It uses only `fetch`, `URLSearchParams` and
 * `AbortSignal`, so it runs in browsers and in Node alike. Stateless; share one per server.
 */
export class HttpQueryClient implements QueryClient {
  private readonly transport: ApiTransport;
  private readonly method: 'GET' | 'POST';

  constructor(options: HttpQueryClientOptions) {
    this.transport = new ApiTransport(options);
    this.method = options.method ?? 'POST';
  }

  instant(query: string, timeMs: UnixMs, opts: QueryOptions = {}): Promise<QueryResponse<InstantQueryData>> {
    const p: Params = [['query', query], ['time', formatTimeParam(timeMs)], ...queryParams(opts)];
    return this.transport.call('/api/v1/query', p, this.method, opts, checkInstantData);
  }

  range(query: string, startMs: UnixMs, endMs: UnixMs, stepMs: DurationMs, opts: QueryOptions = {}): Promise<QueryResponse<RangeQueryData>> {
    const p: Params = [
      ['query', query],
      ['start', formatTimeParam(startMs)],
      ['end', formatTimeParam(endMs)],
      ['step', formatDurationParam(stepMs)],
      ...queryParams(opts),
    ];
    return this.transport.call('/api/v1/query_range', p, this.method, opts, (d) => checkInstantData(d) && (d as RangeQueryData).resultType === 'matrix');
  }

  series(match: readonly string[], opts: SeriesOptions = {}): Promise<QueryResponse<Metric[]>> {
    const p: Params = [...match.map((m): [string, string] => ['match[]', m]), ...windowParams(opts)];
    return this.transport.call('/api/v1/series', p, this.method, opts, (d) => Array.isArray(d) && d.every(isRecordOfStrings));
  }

  labelNames(opts: LabelOptions = {}): Promise<QueryResponse<string[]>> {
    const p: Params = [...(opts.match ?? []).map((m): [string, string] => ['match[]', m]), ...windowParams(opts)];
    return this.transport.call('/api/v1/labels', p, this.method, opts, isStringArray);
  }

  labelValues(name: string, opts: LabelOptions = {}): Promise<QueryResponse<string[]>> {
    const p: Params = [...(opts.match ?? []).map((m): [string, string] => ['match[]', m]), ...windowParams(opts)];
    return this.transport.call(`/api/v1/label/${encodeURIComponent(name)}/values`, p, 'GET', opts, isStringArray);
  }

  metadata(opts: MetadataOptions = {}): Promise<QueryResponse<MetadataData>> {
    const p: Params = [];
    if (opts.metric !== undefined) p.push(['metric', opts.metric]);
    if (opts.limit !== undefined) p.push(['limit', String(opts.limit)]);
    return this.transport.call('/api/v1/metadata', p, 'GET', opts, (d) => typeof d === 'object' && d !== null && !Array.isArray(d));
  }
}

function queryParams(o: QueryOptions): Params {
  const p: Params = [];
  if (o.timeoutMs !== undefined) p.push(['timeout', formatDurationParam(o.timeoutMs)]);
  if (o.lookbackDeltaMs !== undefined) p.push(['lookback_delta', formatDurationParam(o.lookbackDeltaMs)]);
  if (o.stats === true) p.push(['stats', 'all']);
  if (o.noCache === true) p.push(['nocache', '1']);
  return p;
}

function windowParams(o: SeriesOptions): Params {
  const p: Params = [];
  if (o.startMs !== undefined) p.push(['start', formatTimeParam(o.startMs)]);
  if (o.endMs !== undefined) p.push(['end', formatTimeParam(o.endMs)]);
  if (o.limit !== undefined && o.limit > 0) p.push(['limit', String(o.limit)]);
  return p;
}

function isStringArray(v: unknown): boolean {
  return Array.isArray(v) && v.every((s) => typeof s === 'string');
}

function isPair(v: unknown): boolean {
  return Array.isArray(v) && v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'string';
}

function checkInstantData(d: unknown): boolean {
  if (!isObject(d)) return false;
  switch (d.resultType) {
    case 'scalar':
    case 'string':
      return isPair(d.result);
    case 'vector':
      return Array.isArray(d.result) && d.result.every((s) => isObject(s) && isRecordOfStrings(s.metric) && isPair(s.value));
    case 'matrix':
      return Array.isArray(d.result) && d.result.every((s) => isObject(s) && isRecordOfStrings(s.metric) && Array.isArray(s.values) && s.values.every(isPair));
    default:
      return false;
  }
}

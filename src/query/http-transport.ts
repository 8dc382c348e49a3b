/**
 * What the HTTP clients of `src/query` share: sending a request to a Prometheus-compatible API
 * with `fetch` and unwrapping its `{status, data}` envelope into data or a `QueryClientError`
 * (Prometheus' and VictoriaMetrics' error answers mapped onto `ErrorType`). Internal to the module.
 */
import type { QueryResponse, RequestOptions } from './client.js';
import { QueryClientError, errorTypeForHttpStatus } from './errors.js';
import { ERROR_TYPES, type ErrorType } from './wire.js';

/** Request parameters, in order (repeated names allowed). */
export type Params = [string, string][];

/** Where and how requests go. */
export interface TransportOptions {
  /** The server's base URL; `/api/v1/...` is appended. */
  readonly url: string;
  /** Extra request headers (authorization, tenant ids). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The fetch implementation; defaults to the global `fetch`. */
  readonly fetch?: typeof fetch;
}

/** Sends API requests and checks their answers. Stateless. */
export class ApiTransport {
  /** The base URL without a trailing slash. */
  readonly base: string;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly options: TransportOptions) {
    this.base = options.url.replace(/\/+$/, '');
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /**
   * Calls `path` with `params` (a form body for POST, the query string for GET); a POST answered
   * 405 or 501 is sent again as GET. Resolves with the data when `check` accepts it; rejects with
   * `QueryClientError` otherwise (`bad_response` for data of the wrong shape or a body that is not
   * the API's JSON).
   */
  async call<T>(path: string, params: Params, method: 'GET' | 'POST', opts: RequestOptions, check: (data: unknown) => boolean): Promise<QueryResponse<T>> {
    const form = new URLSearchParams(params).toString();
    let res = await this.send(path, form, method, opts.signal);
    if (method === 'POST' && (res.status === 405 || res.status === 501)) res = await this.send(path, form, 'GET', opts.signal);
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      throw this.transportError(path, e, opts.signal);
    }
    const body = parseJson(text);
    if (isObject(body) && body.status === 'success' && 'data' in body) {
      if (!check(body.data)) throw new QueryClientError('bad_response', `unexpected data in the response of ${path}: ${text.slice(0, 200)}`, res.status);
      return { data: body.data as T, warnings: stringList(body.warnings), infos: stringList(body.infos) };
    }
    if (isObject(body) && body.status === 'error' && typeof body.error === 'string') {
      // VictoriaMetrics writes the HTTP status code into errorType; take Prometheus' names only.
      const named = ERROR_TYPES.find((t) => t === body.errorType && t !== 'bad_response');
      const type: ErrorType = named ?? errorTypeForHttpStatus(res.status);
      throw new QueryClientError(type, body.error, res.status, stringList(body.warnings));
    }
    const type = res.ok ? 'bad_response' : errorTypeForHttpStatus(res.status);
    const snippet = text.trim().slice(0, 200);
    throw new QueryClientError(type, `${path}: HTTP ${res.status}${snippet === '' ? '' : `: ${snippet}`}`, res.status);
  }

  private async send(path: string, form: string, method: 'GET' | 'POST', signal: AbortSignal | undefined): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json', ...this.options.headers };
    const init: RequestInit = { method, headers, signal };
    let url = this.base + path;
    if (method === 'POST') {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      init.body = form;
    } else if (form !== '') {
      url += `?${form}`;
    }
    try {
      return await this.fetchFn(url, init);
    } catch (e) {
      throw this.transportError(path, e, signal);
    }
  }

  private transportError(path: string, e: unknown, signal: AbortSignal | undefined): QueryClientError {
    if (signal?.aborted === true) return new QueryClientError('canceled', `${path}: request canceled`, 499);
    const msg = e instanceof Error ? e.message : String(e);
    return new QueryClientError('unavailable', `${path}: cannot reach ${this.base}: ${msg}`, 503);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Whether `v` is a plain JSON object. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether `v` is an object whose values are all strings (a label set). */
export function isRecordOfStrings(v: unknown): boolean {
  return isObject(v) && Object.values(v).every((s) => typeof s === 'string');
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
}

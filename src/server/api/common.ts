import type http from 'node:http';
import type { Clock, Logger, UnixMs } from '../../model/index.js';
import type { ParserOptions } from '../../promql/index.js';
import type { QueryClient } from '../../query/index.js';
import type { Handler } from '../http.js';
import type { BodyReadSettings } from '../../http/index.js';
import { readForm, type Form } from './form.js';
import { ApiError, goQuote, invalidParam, nsToMs, parseDurationNs, parseTime } from './params.js';
import { describeError, respond, respondError, type ApiResult } from './respond.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './stream.js';
import type { StatusSources } from './status.js';
import type { RulesSource } from './rules.js';
import type { DiagnosisSource } from './diagnosis.js';
import type { ScoreIngest } from '../../quality/index.js';
import type { QualitySource } from './quality.js';
import type { CostSource } from '../cost-wiring.js';

/** Limits on what one API request may carry. */
export interface ApiLimits {
  /** Longest `query` or `match[]` value, in bytes (UTF-8); longer ones are refused with `bad_data`. */
  readonly maxQueryBytes: number;
  /** Largest form-encoded POST body, in bytes. */
  readonly maxBodyBytes: number;
  /**
   * Most bytes of JSON (before gzip) one query answer may have (`--query.max-response-bytes`).
   * An answer known to pass it before streaming starts is refused with `execution` (422); one
   * that passes it while streaming has its connection cut (docs/api.md).
   */
  readonly maxResponseBytes: number;
}

/**
 * Default limits: 64 KiB per query, 10 MiB per form body (Go's `maxFormSize`, which Prometheus
 * inherits), 512 MiB per answer (about 18 M points; V8's longest string is about as long).
 */
export const DEFAULT_API_LIMITS: ApiLimits = { maxQueryBytes: 64 * 1024, maxBodyBytes: 10 * 1024 * 1024, maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES };

/** What the `/api/v1` routes need from the server. */
export interface ApiDeps {
  /** The query client; null while the store is not ready (the API then answers 503 `unavailable`). */
  readonly client: () => QueryClient | null;
  /** Parser feature flags for `format_query`, `parse_query` and `query_exemplars` (the engine's). */
  readonly parserOptions: ParserOptions;
  /** The engine's per-query timeout; a `timeout` parameter can only shorten it (as in Prometheus). */
  readonly defaultTimeoutMs: number;
  readonly limits: ApiLimits;
  readonly status: StatusSources;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Form body time limits and their timers (default 30 s idle, 60 s in all; tests inject timers). */
  readonly bodyRead?: BodyReadSettings;
  /** The rules and alerts `/api/v1/rules`, `/api/v1/alerts` and `/api/v1/alertmanagers` show; none when absent or null. */
  readonly rules?: () => RulesSource | null;
  /** The diagnoser and insights `/api/v1/diagnosis` and `/api/v1/insights` read; `unavailable` when absent or null. */
  readonly diagnosis?: () => DiagnosisSource | null;
  /** The quality path behind `POST /api/v1/quality/scores`; `unavailable` when absent or null (src/server/quality-ingest-wiring.ts). */
  readonly qualityScores?: () => ScoreIngest | null;
  /** The sample store and drift events the `/api/v1/quality/*` read routes show; `unavailable` when absent or null. */
  readonly quality?: () => QualitySource | null;
  /** The cost evaluator and catalogs `/api/v1/cost/*` read; `unavailable` when absent or null. */
  readonly cost?: () => CostSource | null;
}

/** One API request as a handler sees it. */
export interface ApiContext {
  readonly req: http.IncomingMessage;
  readonly form: Form;
  /** Decoded `:name` path segments. */
  readonly params: Readonly<Record<string, string>>;
  /** Aborted when the client goes away before the answer is written. */
  readonly signal: AbortSignal;
}

/** Wraps an API function into a route handler: form parsing, CORS, cancellation, the envelopes. */
export function apiHandler(deps: ApiDeps, fn: (ctx: ApiContext) => Promise<ApiResult>): Handler {
  return async (req, res, url, params) => {
    const ac = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) ac.abort();
    });
    try {
      const form = await readForm(req, deps.limits.maxBodyBytes, deps.bodyRead);
      const result = await fn({ req, form, params, signal: ac.signal });
      if (!res.destroyed) await respond(req, res, result, { maxBytes: deps.limits.maxResponseBytes, logger: deps.logger });
    } catch (e) {
      if (res.destroyed || res.headersSent) return;
      const { errorType, message } = describeError(e, deps.logger, url.pathname);
      await respondError(req, res, errorType, message, e instanceof ApiError && e.closeConnection, e instanceof ApiError ? e.httpStatus : undefined);
    }
  };
}

/** The query client, or `unavailable` while the store is still opening. */
export function readyClient(deps: ApiDeps): QueryClient {
  const c = deps.client();
  if (c === null) throw new ApiError('unavailable', 'the store is not ready yet: replaying the write-ahead log');
  return c;
}

/** A time parameter with a default (Prometheus' `parseTimeParam`). */
export function timeParam(form: Form, name: string, fallback: UnixMs | undefined): UnixMs | undefined {
  const v = form.get(name);
  if (v === '') return fallback;
  try {
    return parseTime(v);
  } catch (e) {
    throw invalidParam(name, `Invalid time value for '${name}': ${(e as Error).message}`);
  }
}

/** A required time parameter (Prometheus' `parseTime` in `query_range`). */
export function requiredTimeParam(form: Form, name: string): UnixMs {
  try {
    return parseTime(form.get(name));
  } catch (e) {
    throw invalidParam(name, (e as Error).message);
  }
}

/** An optional duration parameter in nanoseconds (undefined when absent). */
export function durationNsParam(form: Form, name: string): number | undefined {
  const v = form.get(name);
  if (v === '') return undefined;
  try {
    return parseDurationNs(v);
  } catch (e) {
    throw invalidParam(name, (e as Error).message);
  }
}

/** `timeout` and `lookback_delta` as the engine takes them. */
export function evalOptions(deps: ApiDeps, form: Form): { timeoutMs: number; lookbackDeltaMs: number | undefined } {
  const timeoutNs = durationNsParam(form, 'timeout');
  const lookbackNs = durationNsParam(form, 'lookback_delta');
  const requested = timeoutNs === undefined ? deps.defaultTimeoutMs : Math.max(0, nsToMs(timeoutNs) || 0);
  return {
    timeoutMs: Math.min(requested, deps.defaultTimeoutMs),
    lookbackDeltaMs: lookbackNs !== undefined && lookbackNs > 0 ? Math.max(1, nsToMs(lookbackNs)) : undefined,
  };
}

/** The `limit` parameter (Prometheus 2.51+): a non-negative integer, 0 for none. */
export function limitParam(form: Form): number {
  const v = form.get('limit');
  if (v === '') return 0;
  if (!/^[+-]?\d+$/.test(v)) throw invalidParam('limit', `strconv.Atoi: parsing ${goQuote(v)}: invalid syntax`);
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw invalidParam('limit', `strconv.Atoi: parsing ${goQuote(v)}: value out of range`);
  if (n < 0) throw invalidParam('limit', 'limit must be non-negative');
  return n;
}

/** Refuses a query or selector longer than the limit before anything parses it. */
export function checkQuerySize(deps: ApiDeps, name: string, text: string): string {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > deps.limits.maxQueryBytes) {
    throw invalidParam(name, `the value is ${bytes} bytes long, more than the limit of ${deps.limits.maxQueryBytes} bytes`);
  }
  return text;
}

/**
 * The read contract of Infersight's diagnosis routes, beside `QueryClient` as `RulesClient` is:
 * `GET /api/v1/diagnosis` (ranked causes of a regression at one time) and `GET /api/v1/insights`
 * (the regressions the online runner opened). The wire types are the JSON the server writes
 * (times in Unix seconds, as every Prometheus API time); the CLI's `diagnose` table and the UI
 * read them through `HttpDiagnosisClient`. docs/api.md describes the routes.
 */
import type { UnixMs } from '../model/index.js';
import type { QueryResponse, RequestOptions } from './client.js';
import { ApiTransport, isObject, isRecordOfStrings, type Params, type TransportOptions } from './http-transport.js';
import { formatTimeParam } from './format.js';

/** One piece of evidence: a query and its value over the baseline and the incident windows (null: no data). */
export interface EvidenceWire {
  readonly query: string;
  readonly baseline: number | null;
  readonly incident: number | null;
}

/** One ranked cause as the API writes it. */
export interface CauseWire {
  /** A cause id (src/diagnose's `CAUSE_IDS`: `kv-cache-pressure`, …, `none`). */
  readonly cause: string;
  /** In [0, 1]. */
  readonly confidence: number;
  /** Catalog label names to values; empty when fleet-wide. */
  readonly scope: Readonly<Record<string, string>>;
  /** Unix seconds when the cause's own signal started; null when unknown. */
  readonly onset: number | null;
  readonly summary: string;
  readonly evidence: readonly EvidenceWire[];
}

/** The `data` of `GET /api/v1/diagnosis`. */
export interface DiagnosisData {
  /** The diagnosed time, Unix seconds. */
  readonly time: number;
  /** Highest confidence first; `none` first when nothing is wrong. */
  readonly causes: readonly CauseWire[];
  /** Causes considered and ruled out, each with why not. */
  readonly ruledOut: readonly { readonly cause: string; readonly reason: string }[];
}

/** One insight as the API writes it (times in Unix seconds). */
export interface InsightWire {
  readonly id: string;
  /** `ttft`, `itl`, `e2e`, `tps` or `errors`. */
  readonly symptom: string;
  readonly scope: Readonly<Record<string, string>>;
  readonly onset: number;
  readonly detected: number;
  /** Null while open. */
  readonly resolved: number | null;
  readonly causes: readonly CauseWire[];
  /** The PromQL the symptom is watched with, narrowed to the scope (what the UI charts beside the evidence); absent when unknown. */
  readonly query?: string;
}

/** The `data` of `GET /api/v1/insights`. */
export interface InsightsData {
  /** Oldest onset first. */
  readonly insights: readonly InsightWire[];
}

/** What `diagnosis` asks. */
export interface DiagnosisOptions extends RequestOptions {
  /** The time to diagnose; the server's now when absent. */
  readonly timeMs?: UnixMs;
  /** Series selectors narrowing the fleet (`match[]`). */
  readonly match?: readonly string[];
  /** `ttft`, `itl`, `e2e`, `tps` or `errors`; the one that regressed most when absent. */
  readonly symptom?: string;
}

/** What `insights` asks: the insights open at some time in `[startMs, endMs]` (each bound open when absent). */
export interface InsightsOptions extends RequestOptions {
  readonly startMs?: UnixMs;
  readonly endMs?: UnixMs;
}

/**
 * Diagnoses and insights of a server. Both calls are reads without side effects and may run
 * concurrently. Failures reject with `QueryClientError`: `bad_data` for a parameter the server
 * refuses (its message names it), `not_found` (HTTP 404) when the server has no diagnosis API,
 * `unavailable` when it cannot diagnose now, `bad_response` when the answer is not of the
 * documented shape, `canceled` when `signal` aborted the call.
 */
export interface DiagnosisClient {
  /** `GET /api/v1/diagnosis`. */
  diagnosis(opts?: DiagnosisOptions): Promise<QueryResponse<DiagnosisData>>;
  /** `GET /api/v1/insights`. */
  insights(opts?: InsightsOptions): Promise<QueryResponse<InsightsData>>;
}

/** A `DiagnosisClient` over HTTP (`fetch`; runs in browsers and Node). Stateless; share one per server. */
export class HttpDiagnosisClient implements DiagnosisClient {
  private readonly transport: ApiTransport;

  constructor(options: TransportOptions) {
    this.transport = new ApiTransport(options);
  }

  diagnosis(opts: DiagnosisOptions = {}): Promise<QueryResponse<DiagnosisData>> {
    const p: Params = [];
    if (opts.timeMs !== undefined) p.push(['time', formatTimeParam(opts.timeMs)]);
    for (const m of opts.match ?? []) p.push(['match[]', m]);
    if (opts.symptom !== undefined) p.push(['symptom', opts.symptom]);
    return this.transport.call('/api/v1/diagnosis', p, 'GET', opts, isDiagnosisData);
  }

  insights(opts: InsightsOptions = {}): Promise<QueryResponse<InsightsData>> {
    const p: Params = [];
    if (opts.startMs !== undefined) p.push(['start', formatTimeParam(opts.startMs)]);
    if (opts.endMs !== undefined) p.push(['end', formatTimeParam(opts.endMs)]);
    return this.transport.call('/api/v1/insights', p, 'GET', opts, (d) => isObject(d) && Array.isArray(d.insights) && d.insights.every(isInsight));
  }
}

const numberOrNull = (v: unknown): boolean => v === null || typeof v === 'number';

function isCause(c: unknown): boolean {
  return (
    isObject(c) &&
    typeof c.cause === 'string' &&
    typeof c.confidence === 'number' &&
    isRecordOfStrings(c.scope) &&
    numberOrNull(c.onset) &&
    typeof c.summary === 'string' &&
    Array.isArray(c.evidence) &&
    c.evidence.every((e) => isObject(e) && typeof e.query === 'string' && numberOrNull(e.baseline) && numberOrNull(e.incident))
  );
}

/** Checks the parts the CLI and the UI rely on; unknown extra fields are kept. */
function isDiagnosisData(d: unknown): boolean {
  return (
    isObject(d) &&
    typeof d.time === 'number' &&
    Array.isArray(d.causes) &&
    d.causes.every(isCause) &&
    Array.isArray(d.ruledOut) &&
    d.ruledOut.every((r) => isObject(r) && typeof r.cause === 'string' && typeof r.reason === 'string')
  );
}

function isInsight(i: unknown): boolean {
  return (
    isObject(i) &&
    typeof i.id === 'string' &&
    typeof i.symptom === 'string' &&
    isRecordOfStrings(i.scope) &&
    typeof i.onset === 'number' &&
    typeof i.detected === 'number' &&
    numberOrNull(i.resolved) &&
    Array.isArray(i.causes) &&
    i.causes.every(isCause) &&
    (i.query === undefined || typeof i.query === 'string')
  );
}

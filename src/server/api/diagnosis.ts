/**
 * `GET /api/v1/diagnosis` and `GET /api/v1/insights` (Infersight's own, issue 17): the ranked
 * causes of a regression at one time, and the insights the online runner opened, in the JSON of
 * src/query's `DiagnosisData` and `InsightsData` (times in Unix seconds) inside Prometheus'
 * envelope. Parameters are read with the query API's rules (`time` as Prometheus parses it,
 * `match[]` as series selectors), and refused in its error shape (`bad_data`, 400).
 */
import type { Cause, Diagnoser, Diagnosis, Insight, Symptom } from '../../diagnose/index.js';
import { SYMPTOMS } from '../../diagnose/index.js';
import { MAX_TIME_MS, MIN_TIME_MS, type UnixMs } from '../../model/index.js';
import { ParseError, QueryError, isStackOverflow, parseMetricSelector } from '../../promql/index.js';
import type { CauseWire, DiagnosisData, InsightWire, InsightsData } from '../../query/index.js';
import type { Handler } from '../http.js';
import { apiHandler, checkQuerySize, timeParam, type ApiDeps } from './common.js';
import type { Form } from './form.js';
import { ApiError, goQuote, invalidParam } from './params.js';

/** What the two routes read: the diagnoser over the server's query client, and the online runner's insights. */
export interface DiagnosisSource {
  readonly diagnose: Diagnoser;
  /** The insights open at some time in `[startMs, endMs]`, oldest onset first, each with its symptom's query where known. */
  insights(startMs: UnixMs, endMs: UnixMs): readonly (Insight & { readonly query?: string })[];
}

/** Unix ms to the API's Unix seconds. */
const seconds = (tMs: UnixMs): number => tMs / 1000;

/** JSON has no NaN or infinities: a value that is not finite is written as null (no data). */
const finiteOrNull = (v: number | null): number | null => (v !== null && Number.isFinite(v) ? v : null);

/** A cause as the API writes it. */
export function causeJson(c: Cause): CauseWire {
  return {
    cause: c.cause,
    confidence: Number.isFinite(c.confidence) ? c.confidence : 0,
    scope: { ...c.scope },
    onset: c.onsetMs === null ? null : seconds(c.onsetMs),
    summary: c.summary,
    evidence: c.evidence.map((e) => ({ query: e.query, baseline: finiteOrNull(e.baseline), incident: finiteOrNull(e.incident) })),
  };
}

/** A diagnosis as the API writes it. */
export function diagnosisJson(d: Diagnosis): DiagnosisData {
  return { time: seconds(d.timeMs), causes: d.causes.map(causeJson), ruledOut: d.ruledOut.map((r) => ({ cause: r.cause, reason: r.reason })) };
}

/** An insight as the API writes it. */
export function insightJson(i: Insight & { readonly query?: string }): InsightWire {
  return {
    id: i.id,
    symptom: i.symptom,
    scope: { ...i.scope },
    onset: seconds(i.onsetMs),
    detected: seconds(i.detectedMs),
    resolved: i.resolvedMs === null ? null : seconds(i.resolvedMs),
    causes: i.causes.map(causeJson),
    ...(i.query === undefined ? {} : { query: i.query }),
  };
}

/**
 * The `match[]` values, each checked as a series selector with the wording of `/api/v1/series`
 * (the parser's message, or Prometheus' refusal of a selector that matches every series).
 */
function matchParam(deps: ApiDeps, form: Form): string[] {
  const prefix = `invalid parameter ${goQuote('match[]')}: `;
  return form.all('match[]').map((m) => {
    checkQuerySize(deps, 'match[]', m);
    let matchers;
    try {
      matchers = parseMetricSelector(m);
    } catch (e) {
      if (e instanceof ParseError || e instanceof QueryError) throw new ApiError('bad_data', prefix + e.message);
      if (isStackOverflow(e)) throw new ApiError('bad_data', `${prefix}the selector is nested too deeply`);
      throw e;
    }
    if (matchers.every((x) => x.matchesEmpty())) throw new ApiError('bad_data', `${prefix}match[] must contain at least one non-empty matcher`);
    return m;
  });
}

/** The `symptom` parameter: absent, or one of `SYMPTOMS`. */
function symptomParam(form: Form): Symptom | undefined {
  const v = form.get('symptom');
  if (v === '') return undefined;
  const s = SYMPTOMS.find((x) => x === v);
  if (s === undefined) throw invalidParam('symptom', `unknown symptom ${goQuote(v)}; want one of ${SYMPTOMS.join(', ')}`);
  return s;
}

/** The source, or `unavailable` while the store is not open (or no diagnoser is wired). */
function readySource(deps: ApiDeps): DiagnosisSource {
  const s = deps.diagnosis?.() ?? null;
  if (s === null) throw new ApiError('unavailable', deps.client() === null ? 'the store is not ready yet: replaying the write-ahead log' : 'diagnosis is not available on this server');
  return s;
}

/** The handlers of `/api/v1/diagnosis` and `/api/v1/insights`. */
export function diagnosisHandlers(deps: ApiDeps): { diagnosis: Handler; insights: Handler } {
  return {
    diagnosis: apiHandler(deps, async ({ form, signal }) => {
      if (form.error !== null) throw new ApiError('bad_data', `error parsing form values: ${form.error}`);
      const timeMs = timeParam(form, 'time', deps.clock()) ?? deps.clock();
      const match = matchParam(deps, form);
      const symptom = symptomParam(form);
      const source = readySource(deps);
      const d = await source.diagnose({ timeMs, ...(match.length > 0 ? { match } : {}), ...(symptom === undefined ? {} : { symptom }), signal });
      return { data: diagnosisJson(d) };
    }),
    insights: apiHandler(deps, async ({ form }) => {
      if (form.error !== null) throw new ApiError('bad_data', `error parsing form values: ${form.error}`);
      const startMs = timeParam(form, 'start', MIN_TIME_MS) ?? MIN_TIME_MS;
      const endMs = timeParam(form, 'end', MAX_TIME_MS) ?? MAX_TIME_MS;
      if (endMs < startMs) throw invalidParam('end', 'end timestamp must not be before start time');
      const data: InsightsData = { insights: readySource(deps).insights(startMs, endMs).map(insightJson) };
      return { data };
    }),
  };
}

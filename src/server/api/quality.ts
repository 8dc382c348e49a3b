/**
 * The read routes of answer quality (issue 18): `GET /api/v1/quality/samples` (the sample
 * browser's list, filtered), `/api/v1/quality/samples/{id}` (one pair with every evaluation),
 * `/api/v1/quality/drift` (drift events) and `/api/v1/quality/status` (the store and the
 * pipeline), in src/query's wire types (quality-wire.ts) inside Prometheus' envelope. Parameters
 * are checked with the query API's rules and refused in its error shape (`bad_data`, 400); texts
 * leave as JSON strings, so a response carrying markup is data to the reader, never markup.
 */
import { MAX_TIME_MS, MIN_TIME_MS, parseGoFloat, type UnixMs } from '../../model/index.js';
import { QUALITY_DIMENSIONS, STAGE1_FLAGS, type DriftEvent, type Evaluation, type SampleFilter, type SampleRecord, type SampleStore } from '../../quality/index.js';
import type { DriftEventWire, EvaluationWire, QualityDriftData, QualitySamplesData, QualityStatusData, SampleWire } from '../../query/index.js';
import type { Handler } from '../http.js';
import { apiHandler, limitParam, timeParam, type ApiDeps } from './common.js';
import type { Form } from './form.js';
import { ApiError, goQuote, invalidParam } from './params.js';

/** What the quality read routes read (src/server/quality-wiring.ts provides it once the sample store is open). */
export interface QualitySource {
  readonly store: SampleStore;
  /** Drift events with an onset or detection in `[startMs, endMs]`, oldest onset first. */
  drift(startMs: UnixMs, endMs: UnixMs): readonly DriftEvent[];
  status(): Promise<QualityStatusData>;
}

/** Pairs one list answer holds when `limit` is absent, and at most. */
export const SAMPLES_DEFAULT_LIMIT = 100;
export const SAMPLES_MAX_LIMIT = 1000;

/** The longest `model`, `component` or `id` accepted (longer is no name the gateway writes). */
const MAX_NAME_BYTES = 1024;

const seconds = (tMs: UnixMs): number => tMs / 1000;

function evaluationJson(e: Evaluation): EvaluationWire {
  return {
    stage: e.stage,
    evaluator: e.evaluator,
    dimension: e.dimension,
    score: e.score !== null && Number.isFinite(e.score) ? e.score : null,
    flag: e.flag,
    detail: e.detail,
    error: e.error,
    durationSeconds: e.durationS,
    judgeTokens: e.judgeTokens === null ? null : { input: e.judgeTokens.input, output: e.judgeTokens.output },
    time: seconds(e.tMs),
  };
}

/** A stored pair and its evaluations as the API writes them. */
export function sampleJson(r: SampleRecord): SampleWire {
  const p = r.pair;
  return {
    pair: {
      id: p.id,
      time: seconds(p.tMs),
      endpoint: p.endpoint,
      component: p.component,
      model: p.model,
      prompt: p.prompt,
      response: p.response,
      status: p.status,
      finishReason: p.finishReason,
      promptTokens: p.promptTokens,
      completionTokens: p.completionTokens,
      wantJson: p.wantJson,
      ttftSeconds: p.ttftS,
      e2eSeconds: p.e2eS,
    },
    evaluations: r.evaluations.map(evaluationJson),
  };
}

/** A drift event as the API writes it. */
export function driftEventJson(e: DriftEvent): DriftEventWire {
  return {
    id: e.id,
    model: e.model,
    component: e.component,
    subject: e.subject.kind === 'score' ? { kind: 'score', dimension: e.subject.dimension } : { kind: 'input', feature: e.subject.feature },
    test: e.test,
    statistic: Number.isFinite(e.statistic) ? e.statistic : 0,
    threshold: e.threshold,
    onset: seconds(e.onsetMs),
    detected: seconds(e.detectedMs),
    summary: e.summary,
  };
}

/** A name parameter (`model`, `component`): absent, or at most `MAX_NAME_BYTES` long. */
function nameParam(form: Form, name: string): string | undefined {
  const v = form.get(name);
  if (v === '') return undefined;
  if (Buffer.byteLength(v, 'utf8') > MAX_NAME_BYTES) throw invalidParam(name, `longer than ${MAX_NAME_BYTES} bytes`);
  return v;
}

/** A parameter that must be one of `allowed`. */
function oneOf<T extends string>(form: Form, name: string, allowed: readonly T[]): T | undefined {
  const v = form.get(name);
  if (v === '') return undefined;
  const found = allowed.find((x) => x === v);
  if (found === undefined) throw invalidParam(name, `unknown ${name} ${goQuote(v.slice(0, 64))}; want one of ${allowed.join(', ')}`);
  return found;
}

/** A score bound: a number in [0, 1]. */
function scoreParam(form: Form, name: string): number | undefined {
  const v = form.get(name);
  if (v === '') return undefined;
  const f = parseGoFloat(v);
  if (f === undefined || !(f >= 0 && f <= 1)) throw invalidParam(name, `want a score between 0 and 1, got ${goQuote(v.slice(0, 64))}`);
  return f;
}

/** The filter of the list route, checked. */
export function sampleFilterParams(form: Form): SampleFilter {
  const minScore = scoreParam(form, 'min_score');
  const maxScore = scoreParam(form, 'max_score');
  if (minScore !== undefined && maxScore !== undefined && maxScore < minScore) throw invalidParam('max_score', 'max_score must not be below min_score');
  const startMs = timeParam(form, 'start', undefined);
  const endMs = timeParam(form, 'end', undefined);
  if (startMs !== undefined && endMs !== undefined && endMs < startMs) throw invalidParam('end', 'end timestamp must not be before start time');
  const limit = limitParam(form);
  const f: { -readonly [K in keyof SampleFilter]: SampleFilter[K] } = { limit: limit === 0 ? SAMPLES_DEFAULT_LIMIT : Math.min(limit, SAMPLES_MAX_LIMIT) };
  const set = <K extends keyof SampleFilter>(k: K, v: SampleFilter[K] | undefined): void => {
    if (v !== undefined) f[k] = v;
  };
  set('model', nameParam(form, 'model'));
  set('component', nameParam(form, 'component'));
  set('dimension', oneOf(form, 'dimension', QUALITY_DIMENSIONS));
  set('flag', oneOf(form, 'flag', STAGE1_FLAGS));
  set('minScore', minScore);
  set('maxScore', maxScore);
  set('startMs', startMs);
  set('endMs', endMs);
  return f;
}

/** The source, or `unavailable` while no sample store is open. */
function readySource(deps: ApiDeps): QualitySource {
  const s = deps.quality?.() ?? null;
  if (s === null) throw new ApiError('unavailable', 'quality samples are not available on this server: no sample store is open (docs/quality.md)');
  return s;
}

/** Refuses a form that did not parse, with the query API's wording. */
function checkForm(form: Form): void {
  if (form.error !== null) throw new ApiError('bad_data', `error parsing form values: ${form.error}`);
}

/** The handlers of the quality read routes. */
export function qualityHandlers(deps: ApiDeps): { samples: Handler; sample: Handler; drift: Handler; status: Handler } {
  return {
    samples: apiHandler(deps, async ({ form }) => {
      checkForm(form);
      const filter = sampleFilterParams(form);
      const records = await readySource(deps).store.find(filter);
      const data: QualitySamplesData = { samples: records.slice(0, filter.limit).map(sampleJson) };
      return { data };
    }),
    sample: apiHandler(deps, async ({ form, params }) => {
      checkForm(form);
      const id = params.id ?? '';
      if (id === '' || Buffer.byteLength(id, 'utf8') > MAX_NAME_BYTES) throw invalidParam('id', `want a sample id of 1 to ${MAX_NAME_BYTES} bytes`);
      const r = await readySource(deps).store.get(id);
      if (r === null) throw new ApiError('not_found', `no sampled pair with id ${goQuote(id.slice(0, 128))}`);
      return { data: sampleJson(r) };
    }),
    drift: apiHandler(deps, async ({ form }) => {
      checkForm(form);
      const startMs = timeParam(form, 'start', MIN_TIME_MS) ?? MIN_TIME_MS;
      const endMs = timeParam(form, 'end', MAX_TIME_MS) ?? MAX_TIME_MS;
      if (endMs < startMs) throw invalidParam('end', 'end timestamp must not be before start time');
      const data: QualityDriftData = { events: readySource(deps).drift(startMs, endMs).map(driftEventJson) };
      return { data };
    }),
    status: apiHandler(deps, async ({ form }) => {
      checkForm(form);
      return { data: await readySource(deps).status() };
    }),
  };
}

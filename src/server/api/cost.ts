/**
 * `GET /api/v1/cost/summary` and `GET /api/v1/cost/catalog` (Infersight's own, issue 19): the cost
 * view at one time (src/cost's `CostSummary`) and the catalogs in force, in the JSON of src/query's
 * `CostSummaryData` and `CostCatalogData` (times in Unix seconds, no NaN) inside Prometheus'
 * envelope. `time` is read as the query API reads it and refused in its error shape (`bad_data`, 400).
 */
import type { CostSummary } from '../../cost/index.js';
import type { CostCatalogData, CostSummaryData } from '../../query/index.js';
import type { CostCatalogs, CostSource } from '../cost-wiring.js';
import type { Handler } from '../http.js';
import { apiHandler, timeParam, type ApiDeps } from './common.js';
import { ApiError, invalidParam } from './params.js';

/** The longest `time` value read (RFC 3339 with nanoseconds and a zone is 35). */
const MAX_TIME_PARAM_CHARS = 64;

/** Unix ms to the API's Unix seconds. */
const seconds = (tMs: number): number => tMs / 1000;

/** JSON has no NaN or infinities: a value that is not finite is written as null (no data), or 0 where the field is never null. */
const orNull = (v: number | null): number | null => (v !== null && Number.isFinite(v) ? v : null);
const orZero = (v: number): number => (Number.isFinite(v) ? v : 0);

/** A summary as the API writes it. */
export function costSummaryJson(s: CostSummary): CostSummaryData {
  return {
    time: seconds(s.timeMs),
    catalog: { ...s.catalog },
    components: s.components.map((c) => ({
      endpoint: c.endpoint,
      component: c.component,
      model: c.model,
      dollarsPerHour: orZero(c.dollarsPerHour),
      gpus: orZero(c.gpus),
      dollarsPerMillionInputTokens: orNull(c.dollarsPerMillionInputTokens),
      dollarsPerMillionOutputTokens: orNull(c.dollarsPerMillionOutputTokens),
      benchmarkEfficiency: orNull(c.benchmarkEfficiency),
    })),
    idle: { gpus: orZero(s.idle.gpus), dollarsPerHour: orZero(s.idle.dollarsPerHour) },
    verdicts: s.verdicts.map((v) => ({
      replica: v.replica,
      instance: v.instance,
      component: v.component,
      model: v.model,
      bound: v.bound,
      inputs: {
        smActive: orNull(v.inputs.smActive),
        tensorActive: orNull(v.inputs.tensorActive),
        dramActive: orNull(v.inputs.dramActive),
        memCopyUtil: orNull(v.inputs.memCopyUtil),
        mfu: orNull(v.inputs.mfu),
        mbu: orNull(v.inputs.mbu),
      },
      reason: v.reason,
    })),
    findings: s.findings.map((f) => ({ kind: f.kind, scope: { ...f.scope }, text: f.text, dollarsPerDay: orZero(f.dollarsPerDay), since: seconds(f.sinceMs), query: f.query })),
  };
}

/** The catalogs as the API writes them: instance types sorted by name, benchmarks in catalog order. */
export function costCatalogJson(c: CostCatalogs): CostCatalogData {
  const instances = [...c.prices.instances.values()].sort((a, b) => (a.instanceType < b.instanceType ? -1 : a.instanceType > b.instanceType ? 1 : 0));
  return {
    prices: { takenOn: c.prices.takenOn, region: c.prices.region, file: c.priceCatalogFile, instances: instances.map((p) => ({ ...p })) },
    benchmarks: { file: c.benchmarkFile, entries: c.benchmarks.entries.map((e) => ({ ...e, points: e.points.map((p) => ({ ...p })) })) },
  };
}

/** The source, or `unavailable` while the store is not open or cost is off. */
function readySource(deps: ApiDeps): CostSource {
  const s = deps.cost?.() ?? null;
  if (s === null) throw new ApiError('unavailable', deps.client() === null ? 'the store is not ready yet: replaying the write-ahead log' : 'cost is not available on this server');
  return s;
}

/** The handlers of `/api/v1/cost/summary` and `/api/v1/cost/catalog`. */
export function costHandlers(deps: ApiDeps): { summary: Handler; catalog: Handler } {
  return {
    summary: apiHandler(deps, async ({ form, signal }) => {
      if (form.error !== null) throw new ApiError('bad_data', `error parsing form values: ${form.error}`);
      // A time is a few dozen characters: a longer one is refused without being echoed back.
      if (form.get('time').length > MAX_TIME_PARAM_CHARS) throw invalidParam('time', `Invalid time value for 'time': longer than ${MAX_TIME_PARAM_CHARS} characters`);
      const timeMs = timeParam(form, 'time', deps.clock()) ?? deps.clock();
      const source = readySource(deps);
      return { data: costSummaryJson(await source.summary(timeMs, signal)) };
    }),
    catalog: apiHandler(deps, async ({ form }) => {
      if (form.error !== null) throw new ApiError('bad_data', `error parsing form values: ${form.error}`);
      return { data: costCatalogJson(readySource(deps).catalogs()) };
    }),
  };
}

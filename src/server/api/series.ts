import type { Handler } from '../http.js';
import { apiHandler, checkQuerySize, limitParam, readyClient, timeParam, type ApiDeps } from './common.js';
import type { Form } from './form.js';
import { ApiError, goQuote } from './params.js';

function matchParam(deps: ApiDeps, form: Form): string[] {
  return form.all('match[]').map((m) => checkQuerySize(deps, 'match[]', m));
}

/** `GET|POST /api/v1/series` (Prometheus' `api.series`). */
export function seriesHandler(deps: ApiDeps): Handler {
  return apiHandler(deps, async ({ form, signal }) => {
    const client = readyClient(deps);
    if (form.error !== null) throw new ApiError('bad_data', `error parsing form values: ${form.error}`);
    if (form.all('match[]').length === 0) throw new ApiError('bad_data', 'no match[] parameter provided');
    const startMs = timeParam(form, 'start', undefined);
    const endMs = timeParam(form, 'end', undefined);
    const limit = limitParam(form);
    const r = await client.series(matchParam(deps, form), { startMs, endMs, limit, signal });
    return { data: r.data, warnings: r.warnings, infos: r.infos };
  });
}

/** `GET|POST /api/v1/labels` (Prometheus' `api.labelNames`). */
export function labelNamesHandler(deps: ApiDeps): Handler {
  return apiHandler(deps, async ({ form, signal }) => {
    const client = readyClient(deps);
    const startMs = timeParam(form, 'start', undefined);
    const endMs = timeParam(form, 'end', undefined);
    const limit = limitParam(form);
    const r = await client.labelNames({ match: matchParam(deps, form), startMs, endMs, limit, signal });
    return { data: r.data, warnings: r.warnings, infos: r.infos };
  });
}

/** `GET /api/v1/label/:name/values` (Prometheus' `api.labelValues`; the name must be a valid label name). */
export function labelValuesHandler(deps: ApiDeps): Handler {
  return apiHandler(deps, async ({ form, params, signal }) => {
    const client = readyClient(deps);
    const name = params.name ?? '';
    if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(name)) throw new ApiError('bad_data', `invalid label name: ${goQuote(name)}`);
    const startMs = timeParam(form, 'start', undefined);
    const endMs = timeParam(form, 'end', undefined);
    const limit = limitParam(form);
    const r = await client.labelValues(name, { match: matchParam(deps, form), startMs, endMs, limit, signal });
    return { data: r.data, warnings: r.warnings, infos: r.infos };
  });
}

/** `GET /api/v1/metadata` (Prometheus' `api.metricMetadata`): `limit` and `metric` filter. */
export function metadataHandler(deps: ApiDeps): Handler {
  return apiHandler(deps, async ({ form, signal }) => {
    const client = readyClient(deps);
    const limitText = form.get('limit');
    let limit: number | undefined;
    if (limitText !== '') {
      if (!/^[+-]?\d+$/.test(limitText) || !Number.isSafeInteger(Number(limitText))) throw new ApiError('bad_data', 'limit must be a number');
      limit = Number(limitText);
    }
    const metric = form.get('metric');
    const r = await client.metadata({ metric: metric === '' ? undefined : metric, limit: limit !== undefined && limit >= 0 ? limit : undefined, signal });
    return { data: r.data, warnings: r.warnings, infos: r.infos };
  });
}

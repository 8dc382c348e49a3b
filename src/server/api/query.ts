import type http from 'node:http';
import { MAX_TIME_MS, MIN_TIME_MS } from '../../model/index.js';
import { MAX_POINTS_PER_SERIES, NESTED_TOO_DEEPLY, ParseError, isStackOverflow, parseExpr, prettify, walkExpr, type Expr } from '../../promql/index.js';
import { astToJson } from './ast-json.js';
import { apiHandler, checkQuerySize, evalOptions, readyClient, requiredTimeParam, timeParam, type ApiDeps } from './common.js';
import type { Form } from './form.js';
import { queryDataJson } from './json.js';
import { ApiError, invalidParam, nsToMs, parseDurationNs } from './params.js';
import type { Handler } from '../http.js';

/** `GET|POST /api/v1/query`: an instant query (Prometheus' `api.query`). */
export function queryHandler(deps: ApiDeps): Handler {
  return apiHandler(deps, async ({ req, form, signal }) => {
    const client = readyClient(deps);
    const t = timeParam(form, 'time', deps.clock())!;
    const opts = evalOptions(deps, form);
    const query = checkQuerySize(deps, 'query', form.get('query'));
    const r = await client.instant(query, t, { ...opts, signal, stats: form.get('stats') !== '', noCache: noCacheAsked(req, form) });
    return { data: queryDataJson(r.data), warnings: r.warnings, infos: r.infos };
  });
}

/** `GET|POST /api/v1/query_range`: a range query, parameters checked in Prometheus' order (`api.queryRange`). */
export function queryRangeHandler(deps: ApiDeps): Handler {
  return apiHandler(deps, async ({ req, form, signal }) => {
    const client = readyClient(deps);
    const startMs = requiredTimeParam(form, 'start');
    const endMs = requiredTimeParam(form, 'end');
    if (endMs < startMs) throw invalidParam('end', 'end timestamp must not be before start time');
    const stepNs = stepParam(form);
    if (!(stepNs > 0)) throw invalidParam('step', 'zero or negative query resolution step widths are not accepted. Try a positive integer');
    if (Math.floor(((endMs - startMs) * 1e6) / stepNs) > MAX_POINTS_PER_SERIES) {
      throw new ApiError('bad_data', 'exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)');
    }
    const opts = evalOptions(deps, form);
    const query = checkQuerySize(deps, 'query', form.get('query'));
    // Steps are whole milliseconds, as everywhere in PromQL; a finer step becomes 1 ms.
    const r = await client.range(query, startMs, endMs, Math.max(1, nsToMs(stepNs)), {
      ...opts,
      signal,
      stats: form.get('stats') !== '',
      noCache: noCacheAsked(req, form),
    });
    return { data: queryDataJson(r.data), warnings: r.warnings, infos: r.infos };
  });
}

/**
 * Whether the request asks to skip the result cache: `nocache=1` (VictoriaMetrics' parameter) or
 * `Cache-Control: no-cache` / `no-store` (the header Grafana and Thanos' query-frontend send).
 */
export function noCacheAsked(req: http.IncomingMessage, form: Form): boolean {
  const p = form.get('nocache');
  if (p === '1' || p === 'true') return true;
  const header = req.headers['cache-control'];
  if (header === undefined) return false;
  return header
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .some((d) => d === 'no-cache' || d === 'no-store');
}

function stepParam(form: Form): number {
  try {
    return parseDurationNs(form.get('step'));
  } catch (e) {
    throw invalidParam('step', (e as Error).message);
  }
}

function parse(deps: ApiDeps, text: string, prefixed: boolean): Expr {
  try {
    return parseExpr(text, deps.parserOptions);
  } catch (e) {
    if (e instanceof ParseError) throw prefixed ? invalidParam('query', e.message) : new ApiError('bad_data', e.message);
    if (isStackOverflow(e)) throw prefixed ? invalidParam('query', NESTED_TOO_DEEPLY) : new ApiError('bad_data', NESTED_TOO_DEEPLY);
    throw e;
  }
}

/**
 * `GET|POST /api/v1/query_exemplars`. Infersight keeps no exemplars yet: a query with selectors
 * answers `[]`, one without answers 204 as Prometheus does; parameters are still checked.
 */
export function queryExemplarsHandler(deps: ApiDeps): Handler {
  return apiHandler(deps, async ({ form }) => {
    const start = timeParam(form, 'start', MIN_TIME_MS)!;
    const end = timeParam(form, 'end', MAX_TIME_MS)!;
    if (end < start) throw new ApiError('bad_data', 'end timestamp must not be before start timestamp');
    const expr = parse(deps, checkQuerySize(deps, 'query', form.get('query')), false);
    let selectors = 0;
    walkExpr(expr, (n) => {
      if (n.type === 'VectorSelector') selectors++;
    });
    return { data: selectors === 0 ? null : [] };
  });
}

/** `GET|POST /api/v1/format_query`: the query, prettified as Prometheus' `Pretty(0)` prints it. */
export function formatQueryHandler(deps: ApiDeps): Handler {
  return apiHandler(deps, async ({ form }) => ({ data: prettify(parse(deps, checkQuerySize(deps, 'query', form.get('query')), true)) }));
}

/** `GET|POST /api/v1/parse_query`: the query's syntax tree as JSON (Prometheus 2.49+'s `translateAST`). */
export function parseQueryHandler(deps: ApiDeps): Handler {
  return apiHandler(deps, async ({ form }) => ({ data: astToJson(parse(deps, checkQuerySize(deps, 'query', form.get('query')), true)) }));
}

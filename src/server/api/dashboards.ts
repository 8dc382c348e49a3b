/**
 * The dashboards API (src/dashboards over HTTP, for the web UI and for Grafana users):
 *
 * - `GET /api/v1/dashboards`: `[{id, title, description}]` in the success envelope;
 * - `GET /api/v1/dashboards/<id>`: the definition (panels, queries with `$variables`);
 * - `GET /api/v1/dashboards/<id>/grafana`: the Grafana dashboard JSON itself, no envelope, as an
 *   attachment named `infersight-<id>.grafana.json`.
 *
 * An unknown id (any text that is not a known id, encoded slashes and dot segments included)
 * answers 404 `not_found` in Prometheus' error envelope.
 */
import { DASHBOARDS, dashboardById, grafanaJson, type Dashboard } from '../../dashboards/index.js';
import type { Handler } from '../http.js';
import { apiHandler, type ApiDeps } from './common.js';
import { ApiError, goQuote } from './params.js';
import { describeError, respondError, writeJson } from './respond.js';

function lookup(id: string | undefined): Dashboard {
  const d = id === undefined ? undefined : dashboardById(id);
  if (d === undefined) throw new ApiError('not_found', `dashboard ${goQuote(id ?? '')} not found`);
  return d;
}

/** The three dashboard routes' handlers. */
export function dashboardHandlers(deps: ApiDeps): { list: Handler; get: Handler; grafana: Handler } {
  const grafana: Handler = async (req, res, url, params) => {
    try {
      const d = lookup(params.id);
      res.setHeader('Content-Disposition', `attachment; filename="infersight-${d.id}.grafana.json"`);
      await writeJson(req, res, 200, grafanaJson(d));
    } catch (e) {
      const { errorType, message } = describeError(e, deps.logger, url.pathname);
      await respondError(req, res, errorType, message);
    }
  };
  return {
    list: apiHandler(deps, async () => ({ data: DASHBOARDS.map((d) => ({ id: d.id, title: d.title, description: d.description })) })),
    get: apiHandler(deps, async ({ params }) => ({ data: lookup(params.id) })),
    grafana,
  };
}

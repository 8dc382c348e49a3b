/**
 * One HTTP listener for the whole simulated fleet. A path per target scales to thousands of
 * targets in one process without a port each:
 *
 * - `GET /targets/<id>/metrics`: the target's exposition (text 0.0.4; OpenMetrics 1.0 when the
 *   Accept header asks and the exporter supports it); 503 while the process is not up.
 * - `POST /targets/<replica-target-id>/v1/chat/completions` and `/v1/completions`: that replica's
 *   OpenAI-compatible server; `GET /targets/<id>/v1/models`.
 * - `POST /v1/chat/completions`, `/v1/completions`: through the front door and router of the
 *   component whose model (or name) the body names; `GET /v1/models`.
 * - `/api/v1/sim/*`: the control API (api.ts), `DELETE /api/v1/sim/faults/<id>` included.
 *   `GET /-/healthy`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestUrl } from '../http/index.js';
import type { SimApiHandlers } from './api.js';
import { handleCompletion, sendOpenAiError, type OpenAiContext } from './openai.js';
import { targetMetrics } from './target-metrics.js';
import type { TargetRegistry } from './targets.js';

/** What the listener serves. */
export interface SimHttpContext extends OpenAiContext {
  readonly targets: TargetRegistry;
  readonly api: SimApiHandlers;
}

function text(res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** A path segment decoded; one that is not valid percent-encoding stays as sent (the handler refuses it). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function models(ctx: SimHttpContext, names: string[]): string {
  const created = Math.floor(ctx.wallNow() / 1000);
  return JSON.stringify({ object: 'list', data: names.map((id) => ({ id, object: 'model', created, owned_by: 'infersight-sim' })) });
}

/** Serves one request; resolves when the response is complete. */
export async function handleSimRequest(ctx: SimHttpContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = requestUrl(req);
  if (url === null) {
    text(res, 400, 'malformed request target\n');
    return;
  }
  const path = url.pathname;
  const method = req.method ?? 'GET';
  const m = /^\/targets\/([^/]+)(\/.*)$/.exec(path);
  if (m !== null) {
    const id = decodeSegment(m[1]);
    const target = ctx.targets.get(id);
    if (target === undefined) {
      text(res, 404, 'no such target\n');
      return;
    }
    const sub = m[2];
    if (sub === '/metrics' && (method === 'GET' || method === 'HEAD')) {
      const r = targetMetrics(ctx.targets, id, req.headers.accept ?? '');
      text(res, r.status, r.body, r.contentType);
      return;
    }
    const r = target.replica;
    if (r === undefined) {
      text(res, 404, 'not an engine target\n');
      return;
    }
    if (sub === '/v1/models' && method === 'GET') {
      // A real engine answers nothing while it loads: health checks see 503 until it serves.
      if (!r.up) sendOpenAiError(res, 503, 'the engine is starting');
      else text(res, 200, models(ctx, [r.component.model.name]), 'application/json');
      return;
    }
    if (method === 'POST' && (sub === '/v1/chat/completions' || sub === '/v1/completions')) {
      if (!r.up) {
        sendOpenAiError(res, 503, 'the engine is starting');
        return;
      }
      return handleCompletion(ctx, req, res, sub === '/v1/chat/completions', r.component, r.id);
    }
    text(res, 404, 'not found\n');
    return;
  }
  if (method === 'POST' && (path === '/v1/chat/completions' || path === '/v1/completions')) return handleCompletion(ctx, req, res, path === '/v1/chat/completions', undefined);
  if (method === 'GET' && path === '/v1/models') {
    text(res, 200, models(ctx, ctx.sim.fleet.components.map((c) => c.model.name)), 'application/json');
    return;
  }
  if (path === '/api/v1/sim/ground-truth' && method === 'GET') return ctx.api.getGroundTruth(req, res);
  if (path === '/api/v1/sim/faults' && method === 'GET') return ctx.api.getFaults(req, res);
  if (path === '/api/v1/sim/faults' && method === 'POST') return ctx.api.postFault(req, res);
  if (path === '/api/v1/sim/targets' && method === 'GET') return ctx.api.getTargets(req, res);
  const faultPath = /^\/api\/v1\/sim\/faults\/([^/]+)$/.exec(path);
  if (faultPath !== null && method === 'DELETE') return ctx.api.deleteFault(req, res, decodeSegment(faultPath[1]));
  if (path === '/-/healthy') {
    text(res, 200, 'Infersight simulator is Healthy.\n');
    return;
  }
  text(res, 404, 'not found\n');
}

/**
 * One scrape of one simulated target, as its exporter would answer `GET /metrics`: the status, the
 * content type negotiated from the Accept header, and the body. The HTTP listener (http.ts) sends
 * it; `infersight demo`'s history replay hands it to the scrape manager in-process, so both go
 * through the same rendering.
 */
import { TEXT_CONTENT_TYPE } from '../wire/index.js';
import { OPENMETRICS_CONTENT_TYPE } from './openmetrics.js';
import type { TargetRegistry } from './targets.js';

/** What a target's `/metrics` answers. */
export interface TargetMetricsResponse {
  readonly status: 200 | 404 | 503;
  readonly contentType: string;
  readonly body: string;
}

const PLAIN = 'text/plain; charset=utf-8';

/**
 * Renders target `id`'s exposition: 404 for an unknown target, 503 while its process is not
 * serving, else OpenMetrics 1.0 when `accept` asks for it and the exporter speaks it, text 0.0.4
 * otherwise.
 */
export function targetMetrics(targets: TargetRegistry, id: string, accept: string): TargetMetricsResponse {
  const target = targets.get(id);
  if (target === undefined) return { status: 404, contentType: PLAIN, body: 'no such target\n' };
  if (!target.available()) return { status: 503, contentType: PLAIN, body: 'not ready\n' };
  const om = target.openMetrics && accept.includes('application/openmetrics-text');
  const fs = target.families();
  return om ? { status: 200, contentType: OPENMETRICS_CONTENT_TYPE, body: fs.renderOpenMetrics() } : { status: 200, contentType: TEXT_CONTENT_TYPE, body: fs.renderText() };
}

/**
 * What one finished request leaves behind: its status class, finish reasons and token counts,
 * the settlement of its token reservation, its latencies (TTFT, E2E, model, overhead) and, when
 * sampled, the sample handed to the sink. Called exactly once per request, by `proxy.ts`.
 */
import type { ProxyContext } from './context.js';
import { statusClass, type ScopeInstruments } from './instruments.js';
import type { ResponseObserver } from './observe.js';
import type { ModelPool, Replica } from './pool.js';
import type { CompletionRequest } from './request.js';
import type { GatewaySample } from './sampling.js';

/** A finished request, as `recordOutcome` needs it. Times are monotonic ms; -1: never happened. */
export interface Outcome {
  readonly status: number;
  /** Whether an upstream answer arrived whole (latencies are observed only then). */
  readonly complete: boolean;
  readonly stream: boolean;
  readonly scope: ScopeInstruments;
  readonly replica: Replica | null;
  readonly pool: ModelPool | null;
  readonly request: CompletionRequest | null;
  readonly observer: ResponseObserver | null;
  /** Tokens reserved at admission; -1 when the request was never admitted. */
  readonly reservedTokens: number;
  readonly sampled: boolean;
  readonly t0: number;
  readonly tEnd: number;
  readonly tUp0: number;
  readonly tUpEnd: number;
}

/** Records `o`: metrics, limits, the sample. */
export function recordOutcome(ctx: ProxyContext, o: Outcome): void {
  const { observer: obs, request: r, scope } = o;
  scope.requests[o.stream ? 1 : 0][statusClass(o.status)].inc();
  let usage: GatewaySample['usage'] = null;
  if (obs !== null && r !== null) {
    if (obs.usage !== null) usage = { ...obs.usage, estimated: false };
    else if (o.status === 200 && obs.contentChunks + obs.contentChars > 0) usage = { promptTokens: r.promptTokensEstimate, completionTokens: o.stream ? obs.contentChunks : Math.ceil(obs.contentChars / 4), estimated: true };
    for (const reason of obs.finishReasons) scope.finished(reason).inc();
  }
  if (usage !== null) {
    const how = usage.estimated ? 'estimated' : 'reported';
    scope.tokens('input', how).observe(usage.promptTokens);
    scope.tokens('output', how).observe(usage.completionTokens);
  }
  if (o.pool !== null && o.reservedTokens >= 0) o.pool.limits.release(o.reservedTokens, usage === null ? null : usage.promptTokens + usage.completionTokens);
  const lat = o.replica === null ? null : o.replica.metrics.latency(o.stream);
  const ttftMs = obs !== null && obs.firstContentMs >= 0 ? obs.firstContentMs - o.t0 : -1;
  if (lat !== null && ttftMs >= 0) lat.ttft?.observe(ttftMs / 1000);
  const e2eMs = o.tEnd - o.t0;
  const modelMs = o.complete && o.tUpEnd >= 0 ? o.tUpEnd - o.tUp0 : -1;
  const overheadMs = Math.max(0, e2eMs - modelMs);
  if (lat !== null && modelMs >= 0) {
    lat.duration.observe(e2eMs / 1000);
    lat.modelLatency.observe(modelMs / 1000);
    lat.overhead.observe(overheadMs / 1000);
  }
  if (!o.sampled || r === null || ctx.sink === null) return;
  const s = ctx.sampler;
  ctx.sink.write({
    tMs: ctx.now(),
    model: o.pool?.config.name ?? r.model,
    stream: r.stream,
    status: o.status,
    labels: o.replica?.labels ?? {},
    request: s.redactValue(r.body),
    response: { text: s.redact(obs?.text ?? ''), finishReasons: obs?.finishReasons ?? [], error: obs?.upstreamError ?? null },
    usage,
    timings: {
      ttftS: ttftMs >= 0 ? ttftMs / 1000 : null,
      e2eS: e2eMs / 1000,
      modelS: modelMs >= 0 ? modelMs / 1000 : null,
      overheadS: modelMs >= 0 ? overheadMs / 1000 : null,
      chunks: obs?.contentChunks ?? 0,
      meanItlS: obs !== null && obs.contentChunks > 1 ? (obs.lastContentMs - obs.firstContentMs) / (obs.contentChunks - 1) / 1000 : null,
    },
  });
}

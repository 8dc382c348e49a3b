/**
 * One completion request through the gateway (`Exchange`): read and check the body, find the
 * model's pool, apply its limits, pick a replica, send the request upstream (asking for usage on
 * streams), and pass the answer back: SSE event by event as it arrives, non-streaming answers
 * whole. Failures before anything reached the client are retried on another replica; a stream
 * that breaks later ends with an OpenAI error event. Every outcome is measured once, in `finish`.
 */
import type http from 'node:http';
import { isClientAbort } from '../http/index.js';
import type { GatewayConfig } from './config.js';
import type { ProxyContext } from './context.js';
import { sendOpenAiError, sseErrorEvent, type OpenAiErrorCode } from './errors.js';
import type { ScopeInstruments } from './instruments.js';
import { ResponseObserver, USAGE_ONLY } from './observe.js';
import { recordOutcome } from './outcome.js';
import type { EjectionReason, ModelPool, Replica } from './pool.js';
import { checkCompletionRequest, readBody, type CompletionRequest, type RequestProblem } from './request.js';
import { hasRoute, pickReplica } from './router.js';
import { SseFramer, cut } from './sse.js';
import { UpstreamAttempt, type FailureKind } from './upstream.js';

export type { ProxyContext } from './context.js';

const FAILURE_ERROR_CLASS: Readonly<Record<FailureKind, string>> = { connect: 'connect', timeout: 'timeout', reset: 'reset' };
const FAILURE_EJECTION: Readonly<Record<FailureKind, EjectionReason>> = { connect: 'connect_error', timeout: 'timeout', reset: 'reset' };

/** Handles `POST /v1/chat/completions` (`chat`) or `/v1/completions`. */
export function handleCompletion(ctx: ProxyContext, req: http.IncomingMessage, res: http.ServerResponse, chat: boolean): Promise<void> {
  return new Exchange(ctx, req, res, chat).run();
}

class Exchange {
  private readonly t0: number;
  private readonly cfg: GatewayConfig;
  private done = false;
  private started = false;
  private clientGone = false;
  private cancelDeadline: () => void = () => undefined;
  private r: CompletionRequest | null = null;
  private pool: ModelPool | null = null;
  private reserved = -1;
  private payload: Buffer | null = null;
  private readonly tried: Replica[] = [];
  private replica: Replica | null = null;
  private attempt: UpstreamAttempt | null = null;
  private staleRetried = false;
  private tUp0 = -1;
  private tUpEnd = -1;
  private observer: ResponseObserver | null = null;
  private readonly sampled: boolean;
  private lastFailure: { kind: FailureKind; status: number; message: string } | null = null;
  private resolveRun: () => void = () => undefined;

  constructor(
    private readonly ctx: ProxyContext,
    private readonly req: http.IncomingMessage,
    private readonly res: http.ServerResponse,
    private readonly chat: boolean,
  ) {
    this.t0 = ctx.monotonic();
    this.cfg = ctx.config();
    this.sampled = ctx.sink !== null && ctx.sampler.pick();
  }

  run(): Promise<void> {
    const finished = new Promise<void>((resolve) => (this.resolveRun = resolve));
    this.res.on('close', () => {
      if (!this.res.writableFinished) this.onClientGone();
    });
    this.cancelDeadline = this.ctx.timers.setTimeout(() => this.onDeadline(), this.cfg.limits.requestTimeoutMs);
    this.start().catch((e: unknown) => {
      // A client that went away is not a fault of the gateway: no error line for each one.
      if (isClientAbort(e)) this.ctx.logger.debug('gateway: client went away', { err: (e as Error).message });
      else this.ctx.logger.error('gateway: request failed', { err: e instanceof Error ? e.message : String(e) });
      this.attempt?.abort();
      this.fail('internal_error', 'The gateway failed to handle the request.');
    });
    return finished;
  }

  private get stream(): boolean {
    return this.r?.stream ?? false;
  }

  private get scope(): ScopeInstruments {
    return this.replica?.metrics ?? this.pool?.scope ?? this.ctx.unscoped;
  }

  private async start(): Promise<void> {
    const body = await readBody(this.req, this.cfg.limits.maxBodyBytes, this.cfg.limits.bodyTimeoutMs, this.ctx.timers);
    if (this.done) return;
    if (!Buffer.isBuffer(body)) {
      this.refuse(body, { Connection: 'close' });
      return;
    }
    const r = checkCompletionRequest(body, this.chat);
    if ('code' in r) {
      this.refuse(r);
      return;
    }
    this.r = r;
    const pool = this.ctx.pool(r.model);
    if (pool === undefined) {
      this.refuse({ code: 'model_not_found', message: `The model '${r.model}' does not exist or is not served by this gateway.`, param: 'model' });
      return;
    }
    this.pool = pool;
    const admission = pool.limits.tryAcquire(r.promptTokensEstimate + (r.maxTokens ?? pool.config.defaultMaxTokens));
    if (!admission.ok) {
      const secs = Math.max(1, Math.ceil(admission.retryAfterMs / 1000));
      const what = admission.reason === 'concurrency' ? `${pool.config.maxConcurrency} concurrent requests` : `${pool.config.tokensPerMinute} tokens per minute`;
      this.refuse({ code: 'rate_limit_exceeded', message: `Rate limit reached for ${pool.config.name}: ${what}. Please try again in ${secs}s.`, param: null }, { 'Retry-After': String(secs), 'retry-after-ms': String(admission.retryAfterMs) });
      return;
    }
    this.reserved = admission.reservedTokens;
    const upstreamBody: Record<string, unknown> = { ...r.body, model: pool.config.upstreamModel };
    if (r.stream) upstreamBody.stream_options = { ...(r.body.stream_options as object | undefined), include_usage: true };
    this.payload = Buffer.from(JSON.stringify(upstreamBody));
    this.next(false);
  }

  /** Sends the request to the next replica, or answers with the last failure when none is left. */
  private next(retry: boolean): void {
    const pool = this.pool!;
    const route = pickReplica(pool, this.ctx.now(), this.tried, this.cfg.localAz, this.cfg.crossAzPenalty);
    if (route === null) {
      const f = this.lastFailure;
      if (f !== null) {
        this.fail(f.kind === 'timeout' ? 'upstream_timeout' : 'upstream_error', f.message);
        return;
      }
      pool.scope.error('no_healthy_replica').inc();
      this.refuse({ code: 'no_healthy_upstream', message: `No healthy replica of ${pool.config.name} is available.`, param: null });
      return;
    }
    const rep = route.replica;
    this.replica = rep;
    this.tried.push(rep);
    rep.outstanding++;
    rep.metrics.inFlight!.add(1);
    rep.metrics.routing(route.decision, retry ? 'retry' : 'first').inc();
    const lat = rep.metrics.latency(this.stream);
    this.observer = new ResponseObserver(this.sampled, (gapMs) => lat.itl?.observe(gapMs / 1000));
    const headers: Record<string, string> = { accept: this.stream ? 'text/event-stream' : 'application/json' };
    const auth = this.req.headers.authorization;
    if (auth !== undefined) headers.authorization = auth;
    this.tUp0 = this.ctx.monotonic();
    this.attempt = new UpstreamAttempt(this.ctx.agent, rep, this.chat ? '/v1/chat/completions' : '/v1/completions', this.payload!, headers, this.cfg.upstream, this.ctx.timers, {
      onResponse: (ures) => this.onResponse(ures),
      onFailure: (kind, err, afterResponse, stale) => this.onFailure(kind, err, afterResponse, stale),
    });
  }

  /** Ends the current attempt's bookkeeping (outstanding counts); idempotent. */
  private endAttempt(): void {
    const rep = this.replica;
    if (this.attempt === null || rep === null) return;
    this.attempt.settle();
    this.attempt = null;
    rep.outstanding--;
    rep.metrics.inFlight!.add(-1);
  }

  private retryOrFail(kind: FailureKind, status: number, message: string): void {
    this.lastFailure = { kind, status, message };
    this.endAttempt();
    if (this.tried.length <= this.cfg.upstream.retries) this.next(true);
    else this.fail(kind === 'timeout' ? 'upstream_timeout' : 'upstream_error', message);
  }

  private failure(rep: Replica, reason: EjectionReason): void {
    if (this.pool!.recordFailure(rep, this.ctx.now(), this.cfg.ejection)) this.ctx.ejected(rep, reason);
  }

  private onFailure(kind: FailureKind, err: Error, _afterResponse: boolean, stale: boolean): void {
    if (this.done) return;
    const rep = this.replica!;
    if (this.started) {
      // The client already has part of the stream: close it with an error event.
      this.tUpEnd = this.ctx.monotonic();
      this.failure(rep, FAILURE_EJECTION[kind]);
      rep.metrics.midStreamError(kind === 'timeout' ? 'timeout' : 'upstream_reset').inc();
      this.res.end(sseErrorEvent(kind === 'timeout' ? 'upstream_timeout' : 'upstream_error', `The upstream stream failed: ${err.message}`));
      this.finish(200, false);
      return;
    }
    if (stale && !this.staleRetried) {
      // A keep-alive connection the replica had closed: not its fault; try it again once.
      this.staleRetried = true;
      this.endAttempt();
      this.tried.pop();
      this.next(true);
      return;
    }
    rep.metrics.error(FAILURE_ERROR_CLASS[kind]).inc();
    this.failure(rep, FAILURE_EJECTION[kind]);
    this.retryOrFail(kind, kind === 'timeout' ? 504 : 502, `The upstream ${rep.labels.replica ?? rep.config.url} failed: ${err.message}`);
  }

  private onResponse(ures: http.IncomingMessage): void {
    if (this.done) return;
    const status = ures.statusCode ?? 502;
    const type = ures.headers['content-type'] ?? '';
    if (status === 200 && type.includes('text/event-stream')) this.relayStream(ures, type);
    else this.relayWhole(ures, status, type);
  }

  private relayStream(ures: http.IncomingMessage, type: string): void {
    const framer = new SseFramer(this.cfg.limits.maxResponseBytes);
    const obs = this.observer!;
    const dropUsage = !this.r!.clientWantsUsage;
    let drops: number[] | null = null;
    ures.on('data', (chunk: Buffer) => {
      if (this.done) return;
      const t = this.ctx.monotonic();
      let out: Buffer;
      try {
        out = framer.push(chunk, (buf, s, e) => {
          if (obs.onEvent(buf, s, e, t) === USAGE_ONLY && dropUsage) (drops ??= []).push(s, e);
        });
      } catch (err) {
        this.attempt?.abort();
        this.onFailure('reset', err as Error, true, false);
        return;
      }
      if (drops !== null) {
        out = cut(out, drops);
        drops = null;
      }
      if (out.length === 0) return;
      if (!this.started) {
        this.started = true;
        this.res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
      }
      if (!this.res.write(out)) {
        ures.pause();
        this.res.once('drain', () => ures.resume());
      }
    });
    ures.on('end', () => {
      if (this.done) return;
      this.tUpEnd = this.ctx.monotonic();
      const rest = framer.takeRest();
      if (rest.length > 0) obs.onEvent(rest, 0, rest.length, this.tUpEnd);
      const rep = this.replica!;
      if (!this.started && rest.length === 0) {
        rep.metrics.error('empty_response').inc();
        this.failure(rep, 'reset');
        this.retryOrFail('reset', 502, 'The upstream ended the stream without sending anything.');
        return;
      }
      if (!this.started) {
        this.started = true;
        this.res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
      }
      if (rest.length > 0) this.res.write(rest);
      this.pool!.recordSuccess(rep, this.ctx.now(), this.cfg.ejection);
      if (!obs.done && obs.upstreamError === null) {
        rep.metrics.midStreamError('upstream_truncated').inc();
        this.res.write(`${rest.length > 0 ? '\n\n' : ''}${sseErrorEvent('upstream_error', 'The upstream stream ended before it was complete.')}`);
      } else if (obs.upstreamError !== null) rep.metrics.midStreamError('upstream_error').inc();
      this.res.end();
      this.finish(200, true);
    });
  }

  private relayWhole(ures: http.IncomingMessage, status: number, type: string): void {
    const chunks: Buffer[] = [];
    let size = 0;
    ures.on('data', (c: Buffer) => {
      if (size > this.cfg.limits.maxResponseBytes) return; // already given up on
      size += c.length;
      if (size > this.cfg.limits.maxResponseBytes) {
        this.attempt?.abort();
        this.replica!.metrics.error('response_too_large').inc();
        this.retryOrFail('reset', 502, `The upstream answer exceeds ${this.cfg.limits.maxResponseBytes} bytes.`);
        return;
      }
      chunks.push(c);
    });
    ures.on('end', () => {
      if (this.done) return;
      this.tUpEnd = this.ctx.monotonic();
      const rep = this.replica!;
      const body = Buffer.concat(chunks, size);
      if (status >= 500) this.failure(rep, '5xx');
      else this.pool!.recordSuccess(rep, this.ctx.now(), this.cfg.ejection);
      // A 5xx or 429 is retried only when another replica can take the request; else it is the answer.
      if ((status >= 500 || status === 429) && this.tried.length <= this.cfg.upstream.retries && hasRoute(this.pool!, this.ctx.now(), this.tried)) {
        this.endAttempt();
        this.next(true);
        return;
      }
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        // not JSON: wrapped below when it is an error
      }
      let out = body;
      let outType = type || 'application/json';
      if (status >= 400 && (typeof parsed !== 'object' || parsed === null || !('error' in parsed))) {
        const text = body.toString('utf8', 0, Math.min(size, 1024)).trim();
        out = Buffer.from(JSON.stringify({ error: { message: text === '' ? `The upstream answered ${status}.` : text, type: status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: `upstream_${status}` } }));
        outType = 'application/json';
      }
      if (parsed !== null) this.observer!.onObject(parsed, this.tUpEnd, false);
      const headers: Record<string, string> = { 'Content-Type': outType, 'Content-Length': String(out.length) };
      const ra = ures.headers['retry-after'];
      if (typeof ra === 'string') headers['Retry-After'] = ra;
      this.started = true;
      this.res.writeHead(status, headers);
      this.res.end(out);
      this.finish(status, true);
    });
  }

  private refuse(p: RequestProblem, headers: Readonly<Record<string, string>> = {}): void {
    if (this.done) return;
    const status = sendOpenAiError(this.res, p.code, p.message, p.param, headers);
    if (headers.Connection === 'close') this.req.resume();
    this.finish(status === 0 ? 500 : status, false);
  }

  private fail(code: OpenAiErrorCode, message: string): void {
    const status = sendOpenAiError(this.res, code, message);
    this.finish(status === 0 ? 502 : status, false);
  }

  private onClientGone(): void {
    if (this.done) return;
    this.clientGone = true;
    this.attempt?.abort();
    if (this.started) this.scope.midStreamError('client_disconnect').inc();
    else this.scope.error('client_disconnect').inc();
    this.finish(this.started ? 200 : 499, false);
  }

  private onDeadline(): void {
    if (this.done) return;
    this.attempt?.abort();
    const msg = `The request did not complete within ${this.cfg.limits.requestTimeoutMs} ms.`;
    if (this.started) {
      this.scope.midStreamError('timeout').inc();
      this.res.end(sseErrorEvent('request_timeout', msg));
      this.finish(200, false);
      return;
    }
    this.scope.error('timeout').inc();
    this.fail('request_timeout', msg);
  }

  /** Records the outcome once: limits, outstanding counts, metrics, the sample. */
  private finish(status: number, complete: boolean): void {
    if (this.done) return;
    this.done = true;
    this.cancelDeadline();
    this.endAttempt();
    recordOutcome(this.ctx, {
      status,
      complete,
      stream: this.stream,
      scope: this.scope,
      replica: this.replica,
      pool: this.pool,
      request: this.r,
      observer: this.observer,
      reservedTokens: this.reserved,
      sampled: this.sampled,
      t0: this.t0,
      tEnd: this.ctx.monotonic(),
      tUp0: this.tUp0,
      tUpEnd: this.tUpEnd,
    });
    this.resolveRun();
  }
}

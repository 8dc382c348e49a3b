/**
 * One attempt at one replica: a node:http request over the shared keep-alive agent, with a
 * connect timeout and an idle timeout (silence before the headers or between chunks), and every
 * failure reported once, classified: `connect` (never connected), `timeout`, or `reset` (the
 * connection broke). `abort()` cancels the attempt silently (the client went away).
 */
import http from 'node:http';
import type { DurationMs } from '../model/index.js';
import type { Replica } from './pool.js';
import type { Timers } from './timers.js';

/** How an attempt failed. */
export type FailureKind = 'connect' | 'timeout' | 'reset';

/** Callbacks of an attempt; at most one of `onResponse`/`onFailure` before the response, `onFailure` at most once. */
export interface AttemptHandlers {
  onResponse(res: http.IncomingMessage): void;
  /**
   * The attempt failed. `afterResponse`: the failure broke a response already being received.
   * `staleSocket`: a reused keep-alive connection was found closed before anything came back (safe
   * to retry on the same replica, not the replica's fault).
   */
  onFailure(kind: FailureKind, err: Error, afterResponse: boolean, staleSocket: boolean): void;
}

const CONNECT_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EADDRNOTAVAIL']);

/** One upstream request in flight. */
export class UpstreamAttempt {
  private failed = false;
  private aborted = false;
  private timedOut = false;
  private connected = false;
  private responded = false;
  private cancelConnect: (() => void) | null = null;
  private readonly req: http.ClientRequest;

  /** Sends `body` as `POST <replica><path>`. */
  constructor(
    agent: http.Agent,
    replica: Replica,
    path: string,
    body: Buffer,
    headers: Readonly<Record<string, string>>,
    timeouts: { readonly connectTimeoutMs: DurationMs; readonly idleTimeoutMs: DurationMs },
    timers: Timers,
    private readonly h: AttemptHandlers,
  ) {
    const req = http.request({
      agent,
      host: replica.host,
      port: replica.port,
      method: 'POST',
      path: replica.pathPrefix + path,
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(body.length) },
    });
    this.req = req;
    req.setTimeout(timeouts.idleTimeoutMs, () => {
      this.timedOut = true;
      req.destroy(new Error(`no data from the upstream for ${timeouts.idleTimeoutMs} ms`));
    });
    req.on('socket', (socket) => {
      if (!socket.connecting) {
        this.connected = true;
        return;
      }
      this.cancelConnect = timers.setTimeout(() => {
        this.timedOut = true;
        req.destroy(new Error(`connecting to the upstream took longer than ${timeouts.connectTimeoutMs} ms`));
      }, timeouts.connectTimeoutMs);
      socket.once('connect', () => {
        this.connected = true;
        this.cancelConnect?.();
      });
    });
    req.on('response', (res) => {
      this.responded = true;
      res.on('error', (e) => this.fail(e));
      res.on('close', () => {
        if (!res.complete) this.fail(new Error('the upstream connection closed mid-response'));
      });
      this.h.onResponse(res);
    });
    req.on('error', (e) => this.fail(e));
    req.end(body);
  }

  private fail(err: Error): void {
    this.cancelConnect?.();
    if (this.failed || this.aborted) return;
    this.failed = true;
    const code = (err as { code?: string }).code ?? '';
    const kind: FailureKind = this.timedOut ? (this.connected ? 'timeout' : 'connect') : !this.connected || CONNECT_CODES.has(code) ? 'connect' : 'reset';
    const stale = kind === 'reset' && !this.responded && this.req.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE');
    this.h.onFailure(kind, err, this.responded, stale);
  }

  /** Cancels the attempt: the upstream sees its connection close; no callback follows. */
  abort(): void {
    this.aborted = true;
    this.cancelConnect?.();
    this.req.destroy();
  }

  /** Marks the attempt finished (the response ended): later socket events are ignored. */
  settle(): void {
    this.aborted = true;
    this.cancelConnect?.();
  }
}

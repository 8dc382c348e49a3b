/**
 * Reading a request body: the one reader of every listener (the API's form bodies, the write
 * receivers, the gateway, the simulator's JSON bodies). It bounds the size and the time: a body
 * must keep arriving (idle timeout) and must be complete within a total budget, so a sender that
 * trickles bytes cannot hold a connection and its buffers for Node's five-minute request timeout.
 * A client that goes away mid-body is an outcome, not an error: nobody is left to answer.
 */
import type http from 'node:http';
import { systemTimers, type DurationMs, type Timers } from '../model/index.js';

/** The time limits of one body read. */
export interface BodyTimeouts {
  /** The longest gap between two chunks (and before the first one). */
  readonly idleMs: DurationMs;
  /** The longest time from the start of the read to the last byte. */
  readonly totalMs: DurationMs;
}

/**
 * The default limits: 30 s without a byte, 60 s in all. A remote-write batch or a form body of a
 * few MiB arrives in well under a second on any link a sender should use; Prometheus' own
 * `--web.read-timeout` (5 m) is what made the slow-body hold possible.
 */
export const DEFAULT_BODY_TIMEOUTS: BodyTimeouts = { idleMs: 30_000, totalMs: 60_000 };

/**
 * Node's own `requestTimeout` on the listeners that use this reader: a backstop for bodies no
 * handler reads (Node discards them after the answer), later than the reader's own total, since
 * Node checks it only every 30 s.
 */
export const BACKSTOP_REQUEST_TIMEOUT_MS: DurationMs = DEFAULT_BODY_TIMEOUTS.totalMs + 30_000;

/** What a body read needs. */
export interface BodyReadOptions {
  /** The largest body accepted, in bytes; a `Content-Length` over it is refused before reading. */
  readonly maxBytes: number;
  /** Defaults to `DEFAULT_BODY_TIMEOUTS`. */
  readonly timeouts?: BodyTimeouts;
  /** Defaults to `systemTimers`; tests inject virtual ones. */
  readonly timers?: Timers;
}

/** What a route's reader is configured with beyond the size limit, which each route sets itself. */
export type BodyReadSettings = Omit<BodyReadOptions, 'maxBytes'>;

/** Why a body was not read to its end. */
export type BodyProblem =
  /** Over `maxBytes` (declared or counted). */
  | { readonly kind: 'too_large'; readonly message: string }
  /** The idle or the total timeout ran out: answer 408. */
  | { readonly kind: 'timeout'; readonly message: string }
  /** The client went away (reset, premature close): there is nobody to answer. */
  | { readonly kind: 'aborted'; readonly message: string };

/** The body, or why there is none. On a problem the rest is left unread: answer with `Connection: close`. */
export type BodyResult = { readonly ok: true; readonly body: Buffer } | { readonly ok: false; readonly problem: BodyProblem };

/** Reads the whole body of `req` under the size and time limits. Never rejects. */
export function readBody(req: http.IncomingMessage, options: BodyReadOptions): Promise<BodyResult> {
  const { maxBytes } = options;
  const timeouts = options.timeouts ?? DEFAULT_BODY_TIMEOUTS;
  const timers = options.timers ?? systemTimers;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.pause();
    return Promise.resolve({ ok: false, problem: { kind: 'too_large', message: `the request body is ${declared} bytes, over the limit of ${maxBytes} bytes` } });
  }
  if (req.complete && req.readableEnded) return Promise.resolve({ ok: true, body: Buffer.alloc(0) });
  // Events rather than `for await`: leaving an async iterator early destroys the socket, and the
  // client would get a reset instead of the answer.
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    let cancelIdle = (): void => {};
    const settle = (r: BodyResult): void => {
      if (settled) return;
      settled = true;
      cancelIdle();
      cancelTotal();
      for (const [event, fn] of listeners) req.off(event, fn);
      if (!r.ok) req.pause();
      resolve(r);
    };
    const fail = (kind: BodyProblem['kind'], message: string): void => settle({ ok: false, problem: { kind, message } });
    const armIdle = (): void => {
      cancelIdle();
      cancelIdle = timers.setTimeout(() => fail('timeout', `the request body stalled: no byte for ${timeouts.idleMs} ms`), timeouts.idleMs);
    };
    const cancelTotal = timers.setTimeout(() => fail('timeout', `the request body did not arrive within ${timeouts.totalMs} ms`), timeouts.totalMs);
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        fail('too_large', `the request body is over the limit of ${maxBytes} bytes`);
        return;
      }
      chunks.push(chunk);
      armIdle();
    };
    const onEnd = (): void => {
      if (!req.complete) fail('aborted', 'the client closed the connection before the body was complete');
      else settle({ ok: true, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size) });
    };
    const onGone = (): void => fail('aborted', 'the client closed the connection before the body was complete');
    const onClose = (): void => {
      if (!req.complete) onGone();
    };
    const listeners: readonly [string, (chunk: Buffer) => void][] = [
      ['data', onData],
      ['end', onEnd],
      ['error', onGone],
      ['aborted', onGone],
      ['close', onClose],
    ];
    armIdle();
    for (const [event, fn] of listeners) req.on(event, fn);
  });
}

/** The status a problem is answered with where the endpoint has no status of its own: 413, 408, or 400. */
export function bodyProblemStatus(p: BodyProblem): 413 | 408 | 400 {
  return p.kind === 'too_large' ? 413 : p.kind === 'timeout' ? 408 : 400;
}

const ABORT_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED']);

/**
 * Whether an error only says that the client went away (a reset, a premature close, an aborted
 * request): logged at debug level, since a client that gives up is not a fault of the server.
 */
export function isClientAbort(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as NodeJS.ErrnoException).code;
  return (code !== undefined && ABORT_CODES.has(code)) || e.message === 'aborted' || e.name === 'AbortError';
}

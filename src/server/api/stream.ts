/**
 * Writing a big JSON answer in parts, with backpressure and a cap on its size. Small answers go
 * out exactly as `writeJson` sends them (one body with `Content-Length`, gzipped when asked);
 * past `STREAM_AFTER_BYTES` the answer is streamed (chunked transfer encoding), so no single
 * string of the whole answer is ever built.
 */
import type http from 'node:http';
import type { EventEmitter } from 'node:events';
import type { Writable } from 'node:stream';
import zlib from 'node:zlib';
import type { Logger } from '../../model/index.js';
import type { JsonParts } from './json.js';
import { acceptsGzip, writeJson } from './respond.js';

/** Answers shorter than this are sent as one body with a `Content-Length`. */
export const STREAM_AFTER_BYTES = 1024 * 1024;

/** Default of `--query.max-response-bytes`: the most bytes of (uncompressed) JSON one answer may have. */
export const DEFAULT_MAX_RESPONSE_BYTES = 512 * 1024 * 1024;

/** How `writeJsonParts` ended. */
export type StreamOutcome = 'sent' | 'too_large' | 'client_gone' | 'cut';

/**
 * Sends `body` with status 200. Returns `too_large` without sending anything when the answer
 * passes `maxBytes` before its first `STREAM_AFTER_BYTES` are out (the caller then answers with
 * an error); past that point a cap overflow destroys the connection (`cut`: the client sees a
 * truncated chunked body, never a complete but invalid JSON document).
 */
export async function writeJsonParts(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: JsonParts,
  maxBytes: number,
  logger: Logger,
): Promise<StreamOutcome> {
  if (body.minBytes > maxBytes) return 'too_large';
  const parts = body.parts()[Symbol.iterator]();
  // Buffer the start: most answers are small and go out as one body, exactly as before.
  const head: string[] = [];
  let bytes = 0;
  for (;;) {
    const r = parts.next();
    if (r.done === true) {
      await writeJson(req, res, 200, head.join(''));
      return 'sent';
    }
    head.push(r.value);
    bytes += Buffer.byteLength(r.value, 'utf8');
    if (bytes > maxBytes) return 'too_large';
    if (bytes >= STREAM_AFTER_BYTES) break;
  }
  const headers: http.OutgoingHttpHeaders = { 'Content-Type': 'application/json' };
  const gzip = acceptsGzip(req);
  if (gzip) {
    headers['Content-Encoding'] = 'gzip';
    headers.Vary = 'Accept-Encoding';
  }
  res.writeHead(200, headers);
  const compressor = gzip ? zlib.createGzip() : null;
  const out: Writable = compressor ?? res;
  if (compressor !== null) {
    compressor.on('error', () => res.destroy());
    compressor.pipe(res);
  }
  let sent = false;
  const write = async (text: string): Promise<boolean> => {
    if (res.destroyed) return false;
    // Backpressure: wait until the socket (or the compressor) has taken what it holds.
    if (!out.write(text)) await firstOf(out, 'drain', res, 'close');
    return !res.destroyed;
  };
  try {
    if (!(await write(head.join('')))) return 'client_gone';
    head.length = 0;
    for (let r = parts.next(); r.done !== true; r = parts.next()) {
      bytes += Buffer.byteLength(r.value, 'utf8');
      if (bytes > maxBytes) {
        logger.warn('query answer cut: it passed --query.max-response-bytes while streaming', { maxBytes, path: req.url ?? '' });
        res.destroy();
        return 'cut';
      }
      if (!(await write(r.value))) return 'client_gone';
    }
    out.end();
    if (!res.writableFinished && !res.destroyed) await firstOf(res, 'finish', res, 'close');
    sent = true;
    return res.destroyed && !res.writableFinished ? 'client_gone' : 'sent';
  } finally {
    if (!sent) compressor?.destroy();
  }
}

/** Resolves at the first of two events, removing both listeners (one wait per write must not pile up). */
function firstOf(a: EventEmitter, aEvent: string, b: EventEmitter, bEvent: string): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      a.off(aEvent, done);
      b.off(bEvent, done);
      resolve();
    };
    a.on(aEvent, done);
    b.on(bEvent, done);
  });
}

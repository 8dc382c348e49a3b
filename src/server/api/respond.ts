import type http from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Logger } from '../../model/index.js';
import { httpStatusForErrorType, isQueryClientError, type ErrorType } from '../../query/index.js';
import { errorJson, JsonParts, successJson, successParts } from './json.js';
import { ApiError } from './params.js';
import { writeJsonParts } from './stream.js';

const gzip = promisify(zlib.gzip);

/** What an API handler produces: the answer's `data` (or `null` for 204 No Content) with its annotations. */
export interface ApiResult {
  readonly data: unknown;
  readonly warnings?: readonly string[];
  readonly infos?: readonly string[];
}

/** Reports whether the client accepts gzip (a `gzip` token without `q=0`). */
export function acceptsGzip(req: http.IncomingMessage): boolean {
  const header = req.headers['accept-encoding'];
  if (header === undefined) return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().split(';');
    if (coding.trim().toLowerCase() !== 'gzip') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** Writes a JSON body with `status`, gzipped when the client accepts it. */
export function writeJson(req: http.IncomingMessage, res: http.ServerResponse, status: number, json: string, close = false): Promise<void> {
  return writeText(req, res, status, json, 'application/json', close);
}

/** Writes a text body of `contentType` with `status`, gzipped when the client accepts it. */
export async function writeText(req: http.IncomingMessage, res: http.ServerResponse, status: number, text: string, contentType: string, close = false): Promise<void> {
  let body: Buffer = Buffer.from(text, 'utf8');
  const headers: http.OutgoingHttpHeaders = { 'Content-Type': contentType };
  if (acceptsGzip(req)) {
    body = await gzip(body);
    headers['Content-Encoding'] = 'gzip';
    headers.Vary = 'Accept-Encoding';
  }
  headers['Content-Length'] = body.length;
  if (close) headers.Connection = 'close';
  res.writeHead(status, headers);
  res.end(body);
}

/** The `errorType` and message for anything a handler threw; unknown errors are `internal` and logged. */
export function describeError(e: unknown, logger: Logger, path: string): { errorType: ErrorType; message: string } {
  if (e instanceof ApiError) return { errorType: e.errorType, message: e.message };
  if (isQueryClientError(e)) return { errorType: e.errorType === 'bad_response' ? 'internal' : e.errorType, message: e.message };
  logger.error('api request failed', { path, err: e instanceof Error ? e.message : String(e) });
  return { errorType: 'internal', message: e instanceof Error ? e.message : String(e) };
}

/** How big an answer may be, and where to report one cut short. */
export interface ResponseLimits {
  /** The most bytes of JSON (before gzip) an answer given in `JsonParts` may have. */
  readonly maxBytes: number;
  readonly logger: Logger;
}

/**
 * Answers with Prometheus' success envelope, or 204 when `data` is null. Data given as
 * `JsonParts` (query results) is streamed under `limits`; one sure to pass them is refused with
 * `execution` (422) before anything is sent.
 */
export async function respond(req: http.IncomingMessage, res: http.ServerResponse, r: ApiResult, limits?: ResponseLimits): Promise<void> {
  if (r.data === null) {
    // Prometheus' compression handler announces gzip even on an empty 204; so do we.
    res.writeHead(204, acceptsGzip(req) ? { 'Content-Encoding': 'gzip' } : {});
    res.end();
    return;
  }
  if (r.data instanceof JsonParts && limits !== undefined) {
    const outcome = await writeJsonParts(req, res, successParts(r.data, r.warnings, r.infos), limits.maxBytes, limits.logger);
    if (outcome === 'too_large') await respondError(req, res, 'execution', responseTooLargeMessage(limits.maxBytes));
    return;
  }
  await writeJson(req, res, 200, successJson(r.data, r.warnings, r.infos));
}

/** The error of an answer refused for its size. */
export function responseTooLargeMessage(maxBytes: number): string {
  return `the answer would take more than ${maxBytes} bytes of JSON (--query.max-response-bytes); select fewer series, a shorter range or a larger step`;
}

/** Answers with Prometheus' error envelope and the status its `errorType` maps to (or `status`). */
export async function respondError(req: http.IncomingMessage, res: http.ServerResponse, errorType: ErrorType, message: string, close = false, status = httpStatusForErrorType(errorType)): Promise<void> {
  await writeJson(req, res, status, errorJson(errorType, message), close);
}

import type { Logger } from '../model/index.js';
import { ingestStatusFor } from './errors.js';

/** Request headers as Node hands them over: lower-case names, a string (or a list) per name. */
export type IngestHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** One write request as a receiver sees it: the raw body (as sent, maybe compressed) and the headers. */
export interface IngestRequest {
  readonly body: Uint8Array;
  readonly headers: IngestHeaders;
}

/** What a receiver answers; the HTTP layer writes it as is. */
export interface IngestResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Empty for 204. */
  readonly body: Uint8Array | string;
}

/** The first value of header `name` (lower case), or ''. */
export function header(headers: IngestHeaders, name: string): string {
  const v = headers[name];
  if (v === undefined) return '';
  return typeof v === 'string' ? v : (v[0] ?? '');
}

/**
 * The answer to a refused request: the status from `ingestStatusFor` and the message as a plain
 * text body, as Prometheus' write handlers answer (Go's `http.Error`). 5xx answers are logged:
 * they mean the store is in trouble, not the sender.
 */
export function errorResponse(e: unknown, logger: Logger, what: string, extraHeaders: Readonly<Record<string, string>> = {}): IngestResponse {
  const status = ingestStatusFor(e);
  const message = e instanceof Error ? e.message : String(e);
  if (status >= 500) logger.error(`${what} failed`, { status, err: message });
  else logger.debug(`${what} refused`, { status, err: message });
  return {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', ...extraHeaders },
    body: message + '\n',
  };
}

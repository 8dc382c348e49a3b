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

/** Longest error message sent back: whatever a sender sent, a refusal stays small. */
const MAX_MESSAGE_CHARS = 4096;

/**
 * The status (`ingestStatusFor`) and message of a refused request, logged: 5xx as errors (the
 * store is in trouble, not the sender), 4xx at debug level. The message is cut to 4096 characters.
 */
export function refusal(e: unknown, logger: Logger, what: string): { status: number; message: string } {
  const status = ingestStatusFor(e);
  let message = e instanceof Error ? e.message : String(e);
  if (message.length > MAX_MESSAGE_CHARS) message = `${message.slice(0, MAX_MESSAGE_CHARS - 3)}...`;
  if (status >= 500) logger.error(`${what} failed`, { status, err: message });
  else logger.debug(`${what} refused`, { status, err: message });
  return { status, message };
}

/**
 * The answer to a refused request: `refusal`'s status and message as a plain text body, as
 * Prometheus' write handlers answer (Go's `http.Error`), which is what remote write senders log.
 */
export function errorResponse(e: unknown, logger: Logger, what: string, extraHeaders: Readonly<Record<string, string>> = {}): IngestResponse {
  const { status, message } = refusal(e, logger, what);
  return {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', ...extraHeaders },
    body: message + '\n',
  };
}

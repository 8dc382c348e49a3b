/**
 * The gateway's error registry: the stable `ERR_GATEWAY_…` code of a bad configuration, and the
 * OpenAI-shaped error bodies the proxy answers with. Clients of an OpenAI-compatible API match on
 * `error.type` and `error.code`, so those strings are part of the contract (docs/gateway.md lists
 * them); the message is for people and may change.
 */
import type { ServerResponse } from 'node:http';
import { codesOf, type ErrorRegistry, type ErrorSpec } from '../model/index.js';

/** The registry of the stable codes of errors the gateway throws across a module boundary (docs/errors.md is generated from it). */
export const GATEWAY_ERRORS = {
  CONFIG: {
    code: 'ERR_GATEWAY_CONFIG',
    meaning: 'The gateway configuration is invalid; the message names the field (`models[0].replicas[1].url: want an http:// URL`).',
    status: null,
    errorType: null,
    note: 'The command exits 1.',
  },
} as const satisfies ErrorRegistry;

/** The codes of `GATEWAY_ERRORS` by key. */
export const GatewayErrorCode = codesOf(GATEWAY_ERRORS);

/** One of the codes in `GatewayErrorCode`. */
export type GatewayErrorCode = (typeof GatewayErrorCode)[keyof typeof GatewayErrorCode];

/** A configuration error: `path` names the field (`models[0].replicas[1].url`), '' for the document. */
export class GatewayConfigError extends Error {
  readonly code = GatewayErrorCode.CONFIG;
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(path === '' ? `gateway config: ${message}` : `gateway config: ${path}: ${message}`);
    this.name = 'GatewayConfigError';
  }

  /** The registry entry of `code`. */
  get spec(): ErrorSpec {
    return GATEWAY_ERRORS.CONFIG;
  }
}

/** The `error.type` values of OpenAI's error bodies that the gateway uses. */
export type OpenAiErrorType = 'invalid_request_error' | 'rate_limit_error' | 'server_error' | 'timeout_error';

/**
 * The `error.code` values the gateway itself answers with (an upstream's own error bodies are
 * passed through unchanged). Each has one HTTP status.
 */
export const OPENAI_ERRORS = {
  invalid_json: { status: 400, type: 'invalid_request_error' },
  invalid_request: { status: 400, type: 'invalid_request_error' },
  not_found: { status: 404, type: 'invalid_request_error' },
  method_not_allowed: { status: 405, type: 'invalid_request_error' },
  model_not_found: { status: 404, type: 'invalid_request_error' },
  request_too_large: { status: 413, type: 'invalid_request_error' },
  request_body_timeout: { status: 408, type: 'invalid_request_error' },
  invalid_api_key: { status: 401, type: 'invalid_request_error' },
  insufficient_scope: { status: 403, type: 'invalid_request_error' },
  unsupported_media_type: { status: 415, type: 'invalid_request_error' },
  rate_limit_exceeded: { status: 429, type: 'rate_limit_error' },
  no_healthy_upstream: { status: 503, type: 'server_error' },
  upstream_error: { status: 502, type: 'server_error' },
  upstream_timeout: { status: 504, type: 'timeout_error' },
  request_timeout: { status: 504, type: 'timeout_error' },
  internal_error: { status: 500, type: 'server_error' },
} as const satisfies Record<string, { status: number; type: OpenAiErrorType }>;

/** One of the gateway's own `error.code` values. */
export type OpenAiErrorCode = keyof typeof OPENAI_ERRORS;

/** The JSON body of an OpenAI error: `{"error":{"message","type","param","code"}}`. */
export function openAiErrorBody(code: OpenAiErrorCode, message: string, param: string | null = null): string {
  return JSON.stringify({ error: { message, type: OPENAI_ERRORS[code].type, param, code } });
}

/** The status of a gateway error code. */
export function statusOf(code: OpenAiErrorCode): number {
  return OPENAI_ERRORS[code].status;
}

/**
 * Answers with an OpenAI error body (when nothing was sent yet). `headers` adds e.g. `Retry-After`.
 * Returns the status sent, or 0 when the response had already started.
 */
export function sendOpenAiError(res: ServerResponse, code: OpenAiErrorCode, message: string, param: string | null = null, headers: Readonly<Record<string, string>> = {}): number {
  if (res.headersSent || res.writableEnded) return 0;
  const body = openAiErrorBody(code, message, param);
  const status = statusOf(code);
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
  return status;
}

/** The SSE event that ends a stream that failed after it had started (OpenAI's mid-stream error shape). */
export function sseErrorEvent(code: OpenAiErrorCode, message: string): string {
  return `data: ${openAiErrorBody(code, message)}\n\n`;
}

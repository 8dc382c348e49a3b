import type http from 'node:http';
import { readBody, type BodyProblem, type BodyReadSettings } from '../../http/index.js';
import { ApiError } from './params.js';

/**
 * The parameters of an API request, as Go's `Request.ParseForm` collects them: the values of a
 * `application/x-www-form-urlencoded` POST body first, then those of the URL query.
 */
export interface Form {
  /** The first value of `name`, or '' (Go's `FormValue`). */
  get(name: string): string;
  /** Every value of `name`, body values first (Go's `Form[name]`). */
  all(name: string): string[];
  /** The first syntax error met while parsing (Go's `ParseForm` error); the other pairs are still there. */
  readonly error: string | null;
}

const utf8 = new TextDecoder('utf-8');

/** Go's `url.QueryUnescape`: `+` is a space, `%XX` a byte (runs of them decode as UTF-8); a bad escape is an error. */
function queryUnescape(s: string): string | { error: string } {
  if (!s.includes('%') && !s.includes('+')) return s;
  const bad = /%(?![0-9a-fA-F]{2})/.exec(s);
  if (bad) return { error: `invalid URL escape ${JSON.stringify(s.slice(bad.index, bad.index + 3))}` };
  return s.replace(/\+/g, ' ').replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => utf8.decode(Uint8Array.from(run.slice(1).split('%'), (h) => parseInt(h, 16))));
}

/** Go's `url.ParseQuery` into `into`; returns the first error. */
export function parseQueryInto(into: Map<string, string[]>, query: string): string | null {
  let err: string | null = null;
  for (const pair of query.split('&')) {
    if (pair.includes(';')) {
      err ??= 'invalid semicolon separator in query';
      continue;
    }
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const k = queryUnescape(eq < 0 ? pair : pair.slice(0, eq));
    const v = queryUnescape(eq < 0 ? '' : pair.slice(eq + 1));
    if (typeof k !== 'string' || typeof v !== 'string') {
      err ??= typeof k !== 'string' ? k.error : (v as { error: string }).error;
      continue;
    }
    const list = into.get(k);
    if (list) list.push(v);
    else into.set(k, [v]);
  }
  return err;
}

/**
 * Reads a request's parameters. A form body larger than `maxBodyBytes` is refused with
 * `bad_data` (`error parsing form values: http: POST too large`) without reading the rest, one
 * that does not arrive within the body timeouts with `bad_data` and status 408; the connection is
 * closed after the answer. Bodies of other content types are ignored, as Go does.
 */
export async function readForm(req: http.IncomingMessage, maxBodyBytes: number, read: BodyReadSettings = {}): Promise<Form> {
  const values = new Map<string, string[]>();
  let error: string | null = null;
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if ((req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH') && type === 'application/x-www-form-urlencoded') {
    const r = await readBody(req, { ...read, maxBytes: maxBodyBytes });
    if (!r.ok) throw bodyError(r.problem);
    error = parseQueryInto(values, r.body.toString('utf8'));
  }
  // The raw request target, not `url.search`: Node hands bytes over as latin1, and the WHATWG
  // parser would re-encode them; Go reads them as UTF-8.
  const target = req.url ?? '';
  const q = target.indexOf('?');
  const rawQuery = q < 0 ? '' : Buffer.from(target.slice(q + 1), 'latin1').toString('utf8');
  const queryErr = parseQueryInto(values, rawQuery);
  error ??= queryErr;
  return {
    get: (name) => values.get(name)?.[0] ?? '',
    all: (name) => values.get(name) ?? [],
    error,
  };
}

/**
 * The refusal of a body that was not read. Every one closes the connection: the rest of the body
 * is unread (or the client is gone, and the answer goes nowhere).
 */
function bodyError(p: BodyProblem): ApiError {
  if (p.kind === 'too_large') return new ApiError('bad_data', 'error parsing form values: http: POST too large', true);
  if (p.kind === 'timeout') return new ApiError('bad_data', `error parsing form values: ${p.message}`, true, 408);
  return new ApiError('bad_data', `error parsing form values: ${p.message}`, true);
}

/**
 * `GET|POST /federate`: Prometheus' federation endpoint (web/federate.go of Prometheus 2.42).
 * Another Prometheus scrapes it with `honor_labels: true` and `match[]` parameters, and gets the
 * latest sample of every matching series within the lookback delta, in text exposition format
 * 0.0.4, with timestamps.
 */
import type http from 'node:http';
import zlib from 'node:zlib';
import { formatGoFloatG, isStaleNaN, type Clock, type Labels, type Logger, type Matcher, type SeriesIterator, type UnixMs } from '../model/index.js';
import { ParseError, QueryError, isStackOverflow, parseMetricSelector } from '../promql/index.js';
import { mergeSeriesSets, type Queryable } from '../storage/index.js';
import { TEXT_CONTENT_TYPE } from '../wire/index.js';
import type { ApiLimits } from './api/index.js';
import type { BodyReadSettings } from '../http/index.js';
import { readForm } from './api/form.js';
import { ApiError } from './api/params.js';
import type { Handler, Routes } from './http.js';

/** What `/federate` needs from the server. */
export interface FederateDeps {
  /** The store; null while the WAL is replayed (answered 503, as Prometheus before it is ready). */
  readonly queryable: () => Queryable | null;
  readonly clock: Clock;
  /** How far back the latest sample may lie (`--query.lookback-delta`, 5 m by default). */
  readonly lookbackDeltaMs: number;
  /** Longest `match[]` value and largest form body (the query API's limits). */
  readonly limits: ApiLimits;
  readonly logger: Logger;
  /** Form body time limits and their timers (default 30 s idle, 60 s in all; tests inject timers). */
  readonly bodyRead?: BodyReadSettings;
}

/** A refusal: the status and the plain-text message Prometheus writes with `http.Error`. */
class FederateError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly closeConnection = false,
  ) {
    super(message);
  }
}

/** One series of the answer: its name, labels and latest sample. */
interface Latest {
  readonly name: string;
  readonly labels: Labels;
  readonly tMs: UnixMs;
  readonly value: number;
}

/**
 * Parses the `match[]` values into matcher lists. Throws `FederateError` 400 with the parser's
 * message (Prometheus writes it without a parameter prefix) or when a value is over the limit.
 */
export function parseFederateMatchers(match: readonly string[], maxQueryBytes: number): Matcher[][] {
  // Prometheus 2.42 answers an empty 200 here; a federation job without match[] is a mistake.
  if (match.length === 0) throw new FederateError(400, 'no match[] parameter provided');
  return match.map((m) => {
    const bytes = Buffer.byteLength(m, 'utf8');
    if (bytes > maxQueryBytes) throw new FederateError(400, `invalid parameter "match[]": the value is ${bytes} bytes long, more than the limit of ${maxQueryBytes} bytes`);
    try {
      return parseMetricSelector(m);
    } catch (e) {
      if (e instanceof ParseError || e instanceof QueryError) throw new FederateError(400, e.message);
      if (isStackOverflow(e)) throw new FederateError(400, 'the selector is nested too deeply');
      throw e;
    }
  });
}

/** The latest sample at or before `nowMs` and after `nowMs - lookbackDeltaMs`; null when none or stale. */
function latestOf(it: SeriesIterator): { tMs: UnixMs; value: number } | null {
  let tMs = 0;
  let value = 0;
  let found = false;
  while (it.next()) {
    const s = it.at();
    tMs = s.tMs;
    value = s.value;
    found = true;
  }
  const err = it.err();
  if (err !== null) throw err;
  // The exposition format has no stale markers: a series that ended is left out (as Prometheus does).
  return found && !isStaleNaN(value) ? { tMs, value } : null;
}

/**
 * Selects the latest sample of every series matching any of `matcherSets` in
 * `[nowMs - lookbackDeltaMs, nowMs]`, sorted by metric name (stable: label order within a name).
 * An empty matcher list (`{}`) selects nothing, as in Prometheus' index.
 */
export function selectLatest(queryable: Queryable, matcherSets: readonly Matcher[][], nowMs: UnixMs, lookbackDeltaMs: number): Latest[] {
  const minT = nowMs - lookbackDeltaMs;
  const q = queryable.querier(minT, nowMs);
  try {
    const hints = { startMs: minT, endMs: nowMs };
    const set = mergeSeriesSets(matcherSets.filter((ms) => ms.length > 0).map((ms) => q.select(ms, hints)));
    const out: Latest[] = [];
    let it: SeriesIterator | undefined;
    while (set.next()) {
      const s = set.at();
      const name = s.labels.metricName;
      it = s.iterator(it);
      const latest = latestOf(it);
      // Nameless series cannot be written in the exposition format (Prometheus logs and skips them).
      if (latest !== null && name !== '') out.push({ name, labels: s.labels, ...latest });
    }
    const err = set.err();
    if (err !== null) throw err;
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } finally {
    q.close();
  }
}

function escapeLabelValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

/**
 * Formats series as Prometheus' federation writes them through `expfmt`: one `# TYPE name
 * untyped` line per metric name (no HELP), labels in label order without `__name__`, then
 * `instance=""` when the series has no instance (so that the scraping Prometheus adds none of
 * its own under `honor_labels`), the value as Go's `writeFloat` (`-0` as `0`), the timestamp in ms.
 */
export function formatFederation(series: readonly Latest[]): string {
  const out: string[] = [];
  let last: string | null = null;
  for (const s of series) {
    if (s.name !== last) {
      out.push(`# TYPE ${s.name} untyped\n`);
      last = s.name;
    }
    let line = `${s.name}{`;
    let first = true;
    s.labels.forEach((n, v) => {
      if (n === '__name__' || v === '') return;
      line += `${first ? '' : ','}${n}="${escapeLabelValue(v)}"`;
      first = false;
    });
    if (s.labels.get('instance') === '') line += `${first ? '' : ','}instance=""`;
    out.push(`${line}} ${s.value === 0 ? '0' : formatGoFloatG(s.value)} ${String(s.tMs)}\n`);
  }
  return out.join('');
}

/** Prometheus' `CompressionHandler`: the first `Accept-Encoding` token that is exactly `gzip` or `deflate`. */
function negotiateEncoding(req: http.IncomingMessage): 'gzip' | 'deflate' | null {
  for (const token of (req.headers['accept-encoding'] ?? '').split(',')) {
    const t = token.trim();
    if (t === 'gzip' || t === 'deflate') return t;
  }
  return null;
}

function write(req: http.IncomingMessage, res: http.ServerResponse, status: number, headers: http.OutgoingHttpHeaders, text: string, close = false): void {
  let body: Buffer = Buffer.from(text, 'utf8');
  // Like Prometheus, error answers are compressed too: the handler wraps the whole response.
  const encoding = negotiateEncoding(req);
  if (encoding !== null) {
    body = encoding === 'gzip' ? zlib.gzipSync(body) : zlib.deflateSync(body);
    headers['Content-Encoding'] = encoding;
  }
  headers['Content-Length'] = body.length;
  if (close) headers.Connection = 'close';
  res.writeHead(status, headers);
  res.end(body);
}

/** Go's `http.Error`: plain text, `nosniff`, the message and a newline. */
function writeError(req: http.IncomingMessage, res: http.ServerResponse, status: number, message: string, close = false): void {
  write(req, res, status, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' }, `${message}\n`, close);
}

/**
 * The `/federate` handler. Accept negotiation as Prometheus 2.42 does it for the formats we
 * write: every `Accept` header gets text 0.0.4 (Prometheus would answer protobuf to a client
 * that prefers it; its scraper always accepts text).
 */
export function federateHandler(deps: FederateDeps): Handler {
  return async (req, res) => {
    try {
      const db = deps.queryable();
      if (db === null) {
        res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Service Unavailable');
        return;
      }
      const form = await readForm(req, deps.limits.maxBodyBytes, deps.bodyRead).catch((e: unknown) => {
        throw e instanceof ApiError ? new FederateError(e.httpStatus ?? 400, e.message, e.closeConnection) : e;
      });
      if (form.error !== null) throw new FederateError(400, `error parsing form values: ${form.error}`);
      const matcherSets = parseFederateMatchers(form.all('match[]'), deps.limits.maxQueryBytes);
      const body = formatFederation(selectLatest(db, matcherSets, deps.clock(), deps.lookbackDeltaMs));
      write(req, res, 200, { 'Content-Type': TEXT_CONTENT_TYPE }, body);
    } catch (e) {
      if (res.headersSent) return;
      if (e instanceof FederateError) {
        writeError(req, res, e.status, e.message, e.closeConnection);
        return;
      }
      deps.logger.error('federation failed', { err: e instanceof Error ? e.message : String(e) });
      writeError(req, res, 500, e instanceof Error ? e.message : String(e));
    }
  };
}

/** Adds `GET /federate` and `POST /federate` (a form body, like the query API; Prometheus 2.42 has GET only). */
export function registerFederateRoutes(routes: Routes, deps: FederateDeps): void {
  const handler = federateHandler(deps);
  routes.set('GET /federate', handler);
  routes.set('POST /federate', handler);
}

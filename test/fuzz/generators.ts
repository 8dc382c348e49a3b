/**
 * Hostile requests for every endpoint, as fast-check arbitraries: valid inputs, valid inputs
 * with bytes mutated, and garbage, each with right and wrong content types. One `FuzzEndpoint`
 * per route family; `endpoints.test.ts` sends them to the built CLI.
 */
import fc from 'fast-check';
import { FAULT_KINDS } from '../../src/sim/index.js';
import { encodeOtlpMetrics, encodeRemoteWriteV1, encodeRemoteWriteV2, snappyEncode, type OtlpMetricsInit } from '../../src/wire/index.js';

/** One request to send: the raw path (not normalized), headers and body. */
export interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Uint8Array;
}

/** Where a request goes: the server's main listener or the gateway's. */
export type Listener = 'main' | 'gateway';

/** A family of routes and its inputs. */
export interface FuzzEndpoint {
  readonly name: string;
  readonly listener: Listener;
  /** The scope its routes need (`docs/security.md`), for the auth-guarded run. */
  readonly scope: 'read' | 'write' | 'admin';
  readonly requests: fc.Arbitrary<FuzzRequest>;
  /** 5xx statuses the endpoint documents (an upstream's failure, a query timeout); any other 5xx fails. */
  readonly documented5xx?: readonly number[];
  /** What the body of a documented 5xx must match (its error type), when the status alone says too little. */
  readonly documented5xxBody?: RegExp;
}

const enc = new TextEncoder();
const NOW = Date.now();

/** Printable ASCII (what a header value may hold). */
const printable = (max: number) => fc.stringMatching(new RegExp(`^[ -~]{0,${max}}$`));
/** Any string, unpaired surrogates and control characters included. */
const anyText = (max: number) => fc.string({ unit: 'binary', maxLength: max });
const ident = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_:]{0,20}$/);
const labelName = fc.oneof(ident, fc.constantFrom('__name__', 'job', 'instance', '', '__meta_x', 'le'), anyText(12));
const labelValue = fc.oneof(ident, fc.constant(''), anyText(40), fc.constant('a'.repeat(300)));
const timestamp = fc.oneof(fc.integer({ min: NOW - 3_600_000, max: NOW + 60_000 }), fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }), fc.constant(0));
const sampleValue = fc.oneof(fc.double(), fc.constantFrom(NaN, Infinity, -Infinity, 0, -0));

const series = fc.record({
  labels: fc.array(fc.tuple(labelName, labelValue), { maxLength: 8 }).map((ls) => [['__name__', 'fuzz_metric'] as const, ...ls]),
  samples: fc.array(fc.record({ tMs: timestamp, value: sampleValue }), { maxLength: 4 }),
});

/** `bytes` with a few bytes overwritten, cut short, or grown. */
function mutated(bytes: fc.Arbitrary<Uint8Array>): fc.Arbitrary<Uint8Array> {
  return fc.tuple(bytes, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }), fc.constantFrom('flip', 'cut', 'grow')).map(([b, edits, how]) => {
    const out = Uint8Array.from(b);
    if (out.length === 0) return Uint8Array.from(edits.map(([, v]) => v));
    if (how === 'cut') return out.subarray(0, edits[0][0] % out.length);
    for (const [i, v] of edits) out[i % out.length] = v;
    return how === 'grow' ? Uint8Array.from([...out, ...edits.map(([, v]) => v)]) : out;
  });
}

const randomBytes = fc.uint8Array({ maxLength: 512 });
const PROTOBUF = 'application/x-protobuf';
const RW2 = 'application/x-protobuf;proto=io.prometheus.write.v2.Request';
const contentType = (...good: string[]) => fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...good) }, fc.constantFrom('text/plain', 'application/json', 'application/x-www-form-urlencoded', 'application/x-protobuf;proto=nope', ''), printable(40));

function remoteWrite(version: 1 | 2): fc.Arbitrary<FuzzRequest> {
  const raw = fc.array(series, { maxLength: 6 }).map((s) => (version === 1 ? encodeRemoteWriteV1(s) : encodeRemoteWriteV2(s)));
  const body = fc.oneof(
    raw.map(snappyEncode),
    mutated(raw).map(snappyEncode),
    mutated(raw.map(snappyEncode)),
    randomBytes.map(snappyEncode),
    randomBytes,
    fc.constant(new Uint8Array(0)),
  );
  return fc.record({ body, type: contentType(version === 1 ? PROTOBUF : RW2), encoding: fc.oneof({ weight: 6, arbitrary: fc.constant('snappy') }, fc.constantFrom('gzip', '', 'identity')) }).map(({ body, type, encoding }) => ({
    method: 'POST',
    path: '/api/v1/write',
    headers: { 'Content-Type': type, ...(encoding === '' ? {} : { 'Content-Encoding': encoding }), 'X-Prometheus-Remote-Write-Version': version === 1 ? '0.1.0' : '2.0.0' },
    body,
  }));
}

const attr = fc.record({ key: labelName, value: fc.oneof(anyText(30).map((v) => ({ value: { case: 'stringValue' as const, value: v } })), fc.integer().map((v) => ({ value: { case: 'intValue' as const, value: BigInt(v) } }))) });
const dataPoint = fc.record({ timeUnixNano: timestamp.map((t) => (BigInt(Math.abs(t)) * 1_000_000n) % (1n << 64n)), attributes: fc.array(attr, { maxLength: 4 }), value: sampleValue.map((v) => ({ case: 'asDouble' as const, value: v })) });
const otlpMetric = fc.record({
  name: fc.oneof(ident, anyText(20)),
  unit: fc.constantFrom('', 's', 'By', '{request}', '%'),
  data: fc.oneof(
    fc.array(dataPoint, { maxLength: 3 }).map((dataPoints) => ({ case: 'gauge' as const, value: { dataPoints } })),
    fc.tuple(fc.array(dataPoint, { maxLength: 3 }), fc.integer({ min: 0, max: 3 }), fc.boolean()).map(([dataPoints, t, m]) => ({ case: 'sum' as const, value: { dataPoints, aggregationTemporality: t, isMonotonic: m } })),
  ),
});
const otlpInit: fc.Arbitrary<OtlpMetricsInit> = fc.array(fc.record({ resource: fc.record({ attributes: fc.array(attr, { maxLength: 4 }) }), scopeMetrics: fc.array(fc.record({ metrics: fc.array(otlpMetric, { maxLength: 4 }) }), { maxLength: 2 }) }), { maxLength: 3 }).map((resourceMetrics) => ({ resourceMetrics }));

function otlp(path: string): fc.Arbitrary<FuzzRequest> {
  const proto = fc.oneof(otlpInit.map((i) => encodeOtlpMetrics(i, 'protobuf')), mutated(otlpInit.map((i) => encodeOtlpMetrics(i, 'protobuf'))), randomBytes).map((body) => ({ body, good: PROTOBUF }));
  const json = fc.oneof(otlpInit.map((i) => encodeOtlpMetrics(i, 'json')), mutated(otlpInit.map((i) => encodeOtlpMetrics(i, 'json'))), fc.json().map((j) => enc.encode(j)), anyText(200).map((s) => enc.encode(s))).map((body) => ({ body, good: 'application/json' }));
  return fc.record({ b: fc.oneof(proto, json), wrongType: fc.option(contentType(PROTOBUF), { freq: 3 }), gzip: fc.boolean() }).map(({ b, wrongType, gzip }) => ({
    method: 'POST',
    path,
    headers: { 'Content-Type': wrongType ?? b.good, ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) },
    body: b.body,
  }));
}

const METRICS = ['up', 'llm_kv_cache_usage_ratio', 'llm_time_to_first_token_seconds_bucket', 'llm_generation_tokens_total', 'vllm:num_requests_running', 'fuzz_metric', 'nope'];
const RANGES = ['1s', '30s', '5m', '1h', '1d', '0s', '-1m', '1y'];
const selector = fc.tuple(fc.constantFrom(...METRICS), fc.array(fc.tuple(fc.oneof(ident, fc.constantFrom('job', 'instance', 'model_name', '__name__')), fc.constantFrom('=', '!=', '=~', '!~'), fc.oneof(ident, fc.constantFrom('.*', '.+', '(a+)+b', '(.|\\\\.|[a-z0-9.:-])*#', '[', 'a{1000}'), anyText(10))), { maxLength: 3 })).map(
  ([m, ms]) => `${m}{${ms.map(([n, op, v]) => `${n}${op}${JSON.stringify(v)}`).join(',')}}`,
);

/** Random PromQL: a small grammar of selectors, functions, aggregations and operators, plus garbage. */
const promql: fc.Arbitrary<string> = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 3, arbitrary: selector },
    fc.double({ noNaN: false }).map(String),
    fc.tuple(selector, fc.constantFrom(...RANGES), fc.constantFrom('rate', 'increase', 'count_over_time', 'max_over_time', 'quantile_over_time(0.9,', 'deriv', 'changes')).map(([s, r, f]) => (f.endsWith(',') ? `${f}${s}[${r}])` : `${f}(${s}[${r}])`)),
    fc.tuple(tie('expr'), fc.constantFrom(...RANGES), fc.constantFrom('', '1m', '5m', '1s')).map(([e, r, s]) => `max_over_time((${e})[${r}:${s}])`),
    fc.tuple(fc.constantFrom('sum', 'avg', 'count', 'max', 'topk(3,', 'quantile(0.5,', 'count_values("v",', 'stddev'), fc.constantFrom('', ' by (job)', ' without (instance)', ' by (__name__)'), tie('expr')).map(([a, g, e]) => (a.endsWith(',') ? `${a}${e})${g}` : `${a}${g}(${e})`)),
    fc.tuple(tie('expr'), fc.constantFrom('+', '-', '*', '/', '%', '^', '==', '>', 'and', 'or', 'unless', '/ on(job) group_left'), tie('expr')).map(([a, op, b]) => `(${a}) ${op} (${b})`),
    fc.tuple(fc.constantFrom('abs', 'histogram_quantile(0.99,', 'label_replace(', 'absent', 'sort_desc', 'clamp_max(', 'timestamp', 'vector', 'scalar'), tie('expr')).map(([f, e]) => (f.endsWith('(') ? (f.startsWith('label') ? `${f}${e}, "a", "$1", "job", "(.*)")` : `${f}${e}, 1)`) : f.endsWith(',') ? `${f}${e})` : `${f}(${e})`)),
    { weight: 1, arbitrary: anyText(30) },
    { weight: 1, arbitrary: printable(30) },
  ),
})).expr;

const timeParam = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: Math.floor(NOW / 1000) - 7200, max: Math.floor(NOW / 1000) + 60 }).map(String) }, fc.constantFrom('', 'NaN', 'Inf', '-Inf', '1e300', '0', 'yesterday', '2026-02-30T00:00:00Z'), printable(12), fc.double().map(String));
const durationParam = fc.oneof({ weight: 6, arbitrary: fc.constantFrom('15', '60', '1s', '5m', '30s', '0.5') }, fc.constantFrom('', '1', '0', '-1', 'NaN', '1e300', '0.0001', '1y'), printable(8));

/** A form as a query string or as a body; `names` are its parameter names. */
function formRequest(path: fc.Arbitrary<string>, params: fc.Arbitrary<[string, string][]>, methods: readonly string[]): fc.Arbitrary<FuzzRequest> {
  return fc.record({ path, params, method: fc.constantFrom(...methods), asBody: fc.boolean(), type: contentType('application/x-www-form-urlencoded') }).map(({ path, params, method, asBody, type }): FuzzRequest => {
    const q = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
    if (method === 'POST' && asBody) return { method, path, headers: { 'Content-Type': type }, body: enc.encode(q) };
    return { method, path: q === '' ? path : `${path}?${q}`, headers: {} };
  });
}

const param = (name: string, v: fc.Arbitrary<string>) => fc.option(v.map((x): [string, string] => [name, x]), { freq: 4 });
const params = (...ps: fc.Arbitrary<[string, string] | null>[]) => fc.tuple(...ps).map((xs) => xs.filter((x): x is [string, string] => x !== null));
const matches = fc.array(fc.oneof(selector, anyText(20), fc.constant('{}')).map((m): [string, string] => ['match[]', m]), { maxLength: 3 });

const gatewayBody = fc.oneof(
  fc.json().map((j) => enc.encode(j)),
  anyText(100).map((s) => enc.encode(s)),
  fc
    .record({
      model: fc.oneof({ weight: 6, arbitrary: fc.constant('openai/gpt-oss-20b') }, fc.constantFrom('nope', ''), fc.integer(), anyText(10)),
      messages: fc.oneof({ weight: 4, arbitrary: fc.array(fc.record({ role: fc.constantFrom('user', 'user', 'system', 5), content: fc.oneof(anyText(60), fc.array(fc.record({ text: anyText(10) }), { maxLength: 2 }), fc.constant(null)) }), { minLength: 1, maxLength: 3 }) }, fc.json()),
      prompt: fc.option(fc.oneof(anyText(40), fc.array(fc.oneof(fc.integer(), anyText(5)), { maxLength: 4 }))),
      stream: fc.oneof({ weight: 4, arbitrary: fc.boolean() }, fc.constant('yes')),
      stream_options: fc.option(fc.record({ include_usage: fc.oneof(fc.boolean(), fc.integer()) })),
      // Small, so that a request the sim serves ends soon; some invalid ones as well.
      max_tokens: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 1, max: 4 }) }, fc.constantFrom(0, -1, 1.5, 'x')),
      n: fc.option(fc.constantFrom(1, 2, 0, -3)),
    })
    .map((b) => enc.encode(JSON.stringify(b))),
);

const faultBody = fc.oneof(
  fc.json().map((j) => enc.encode(j)),
  anyText(60).map((s) => enc.encode(s)),
  fc
    .record({
      kind: fc.oneof(fc.constantFrom(...FAULT_KINDS), anyText(10)),
      scope: fc.option(fc.oneof(fc.record({ az: fc.oneof(fc.constantFrom('az-a', 'zz'), anyText(5)) }), fc.record({ component: anyText(10) }), fc.json())),
      duration: fc.option(fc.oneof(fc.constantFrom('10m', '1s', '0s', '-5m', '100y', 'x'), fc.integer())),
      params: fc.option(fc.dictionary(anyText(8), fc.oneof(fc.double(), anyText(5)), { maxKeys: 3 })),
    })
    .map((b) => enc.encode(JSON.stringify(b))),
);

const pathSegment = fc.oneof(ident, fc.constantFrom('..', '.', '%2e%2e', '%2F', '%00', '%ff', 'index.html', 'assets', '~', ''), printable(20).map((s) => encodeURIComponent(s)), fc.constant('x'.repeat(300)));

/** The query API's documented 503s: the query ran out of time, or the store is not open yet. */
const QUERY_5XX = /"errorType":"(timeout|unavailable)"/;

/** Every endpoint family the harness covers. */
export const ENDPOINTS: readonly FuzzEndpoint[] = [
  { name: 'remote write 1.0', listener: 'main', scope: 'write', requests: remoteWrite(1) },
  { name: 'remote write 2.0', listener: 'main', scope: 'write', requests: remoteWrite(2) },
  { name: 'OTLP (protobuf and JSON)', listener: 'main', scope: 'write', requests: otlp('/api/v1/otlp/v1/metrics') },
  {
    name: 'query',
    listener: 'main',
    scope: 'read',
    requests: formRequest(fc.constant('/api/v1/query'), params(param('query', promql), param('time', timeParam), param('timeout', durationParam), param('lookback_delta', durationParam), param('stats', fc.constantFrom('all', 'x'))), ['GET', 'POST']),
    documented5xx: [503],
    documented5xxBody: QUERY_5XX,
  },
  {
    name: 'query_range',
    listener: 'main',
    scope: 'read',
    requests: formRequest(
      fc.constant('/api/v1/query_range'),
      fc.oneof(
        // Half of them a well-formed window, so that random PromQL gets evaluated over data.
        fc.tuple(promql, fc.integer({ min: 60, max: 7200 }), fc.constantFrom('15', '60', '1m', '5m')).map(([q, span, step]): [string, string][] => [['query', q], ['start', String(Math.floor(NOW / 1000) - span)], ['end', String(Math.floor(NOW / 1000))], ['step', step]]),
        params(param('query', promql), param('start', timeParam), param('end', timeParam), param('step', durationParam), param('timeout', durationParam)),
      ),
      ['GET', 'POST'],
    ),
    documented5xx: [503],
    documented5xxBody: QUERY_5XX,
  },
  { name: 'series', listener: 'main', scope: 'read', requests: formRequest(fc.constant('/api/v1/series'), fc.tuple(matches, params(param('start', timeParam), param('end', timeParam), param('limit', durationParam))).map(([m, p]) => [...m, ...p]), ['GET', 'POST']) },
  { name: 'labels', listener: 'main', scope: 'read', requests: formRequest(fc.constant('/api/v1/labels'), fc.tuple(matches, params(param('start', timeParam), param('end', timeParam), param('limit', durationParam))).map(([m, p]) => [...m, ...p]), ['GET', 'POST']) },
  {
    name: 'label values',
    listener: 'main',
    scope: 'read',
    requests: formRequest(fc.oneof(labelName, fc.constant('__name__')).map((n) => `/api/v1/label/${encodeURIComponent(n)}/values`), fc.tuple(matches, params(param('start', timeParam), param('limit', durationParam))).map(([m, p]) => [...m, ...p]), ['GET']),
  },
  { name: 'federate', listener: 'main', scope: 'read', requests: formRequest(fc.constant('/federate'), matches, ['GET', 'POST']) },
  {
    name: 'other read API',
    listener: 'main',
    scope: 'read',
    requests: formRequest(
      fc.oneof(
        fc.constantFrom('/api/v1/query_exemplars', '/api/v1/format_query', '/api/v1/parse_query', '/api/v1/metadata', '/api/v1/targets', '/api/v1/targets/metadata', '/api/v1/status/buildinfo', '/api/v1/status/runtimeinfo', '/api/v1/status/flags', '/api/v1/status/tsdb', '/api/v1/dashboards', '/metrics', '/-/ready'),
        pathSegment.map((id) => `/api/v1/dashboards/${id}`),
        pathSegment.map((id) => `/api/v1/dashboards/${id}/grafana`),
      ),
      params(param('query', promql), param('metric', fc.oneof(fc.constantFrom(...METRICS), anyText(10))), param('limit', durationParam), param('match_target', selector), param('start', timeParam), param('end', timeParam), param('state', fc.constantFrom('active', 'dropped', 'any', 'x'))),
      ['GET', 'POST'],
    ),
  },
  {
    name: 'admin and lifecycle',
    listener: 'main',
    scope: 'admin',
    // Off by default, as in Prometheus: each is refused (`/-/quit` is left out: were it on, it would end the run).
    requests: formRequest(fc.constantFrom('/-/reload', '/api/v1/admin/tsdb/delete_series', '/api/v1/admin/tsdb/clean_tombstones', '/api/v1/admin/tsdb/snapshot'), matches, ['POST', 'PUT']),
    // Prometheus' answer while the admin API is off (docs/security.md).
    documented5xx: [503],
    documented5xxBody: /"error":"admin APIs disabled"/,
  },
  {
    name: 'static files',
    listener: 'main',
    scope: 'read',
    requests: fc.record({ segs: fc.array(pathSegment, { maxLength: 5 }), method: fc.constantFrom('GET', 'HEAD'), q: fc.option(printable(20).map(encodeURIComponent)) }).map(({ segs, method, q }) => ({ method, path: `/${segs.join('/')}${q === null ? '' : `?${q}`}`, headers: { Accept: 'text/html' } })),
  },
  {
    name: 'sim fault API',
    listener: 'main',
    scope: 'admin',
    requests: fc.oneof(
      fc.record({ body: faultBody, type: contentType('application/json') }).map(({ body, type }) => ({ method: 'POST', path: '/api/v1/sim/faults', headers: { 'Content-Type': type }, body })),
      pathSegment.map((id) => ({ method: 'DELETE', path: `/api/v1/sim/faults/${id}`, headers: {} })),
      fc.constantFrom('/api/v1/sim/faults', '/api/v1/sim/ground-truth', '/api/v1/sim/targets').map((path) => ({ method: 'GET', path, headers: {} })),
    ),
  },
  {
    name: 'gateway',
    listener: 'gateway',
    scope: 'write',
    requests: fc.record({ body: gatewayBody, path: fc.constantFrom('/v1/chat/completions', '/v1/completions'), type: contentType('application/json') }).map(({ body, path, type }) => ({ method: 'POST', path, headers: { 'Content-Type': type }, body })),
    // The gateway's documented upstream failures (docs/gateway.md): no replica, bad gateway, timeout.
    documented5xx: [502, 503, 504],
  },
];

/**
 * JSON exactly as Prometheus' API writes it (Go's encoding/json through jsoniter's
 * standard-library mode): compact, object keys in the order given (Go struct order; callers sort
 * maps), strings with `<`, `>`, `&`, U+2028 and U+2029 escaped, timestamps via
 * `formatTimestampJson` (`1700006700.500`). Byte-for-byte equality with Prometheus keeps the
 * goldens honest and any client's parser happy.
 */
import { rangeSeriesColumns } from '../../promql/index.js';
import { formatTimestampJson, samplePair, unixSecondsToMs, type InstantQueryData, type Metric, type QueryStatsWire, type RangeQueryData, type RangeSeries, type SamplePair } from '../../query/index.js';

/** Pre-encoded JSON text, inserted verbatim by `encodeJson`. */
export class RawJson {
  constructor(readonly text: string) {}
}

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };
// Control characters, the HTML-sensitive three, the JS line separators, and lone surrogates.
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[\u0000-\u001f"\\<>&\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A JSON string literal as Go writes it (lone surrogates, invalid in UTF-8, become U+FFFD). */
export function goString(s: string): string {
  return `"${s.replace(NEEDS_ESCAPE, (c) => ESCAPES[c] ?? (c.charCodeAt(0) >= 0xd800 ? '\\ufffd' : `\\u00${c.charCodeAt(0).toString(16).padStart(2, '0')}`))}"`;
}

/** Encodes plain data (objects, arrays, strings, finite numbers, booleans, null, `RawJson`). Undefined properties are left out. */
export function encodeJson(v: unknown): string {
  if (v instanceof RawJson) return v.text;
  if (v instanceof JsonParts) return v.text();
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return goString(v);
    case 'number':
      if (!Number.isFinite(v)) throw new Error(`cannot encode ${v} as JSON`);
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object': {
      if (Array.isArray(v)) return `[${v.map(encodeJson).join(',')}]`;
      const parts: string[] = [];
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (x !== undefined) parts.push(`${goString(k)}:${encodeJson(x)}`);
      return `{${parts.join(',')}}`;
    }
    default:
      throw new Error(`cannot encode a ${typeof v} as JSON`);
  }
}

/** A label set as Go marshals a map: keys sorted by byte order. */
export function metricJson(m: Metric): string {
  const keys = Object.keys(m).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${goString(k)}:${goString(m[k])}`).join(',')}}`;
}

/** A sample of a vector or matrix: the timestamp as `marshalTimestamp` writes it (`1.500`). */
function pairJson(p: SamplePair): string {
  return `[${formatTimestampJson(unixSecondsToMs(p[0]))},${goString(p[1])}]`;
}

/** A scalar or string result: Prometheus 2.x marshals `float64(t) / 1000` as a plain JSON number (`1.5`). */
function scalarPairJson(p: SamplePair): string {
  return `[${JSON.stringify(unixSecondsToMs(p[0]) / 1000)},${goString(p[1])}]`;
}

/**
 * JSON text produced in parts, for answers too big to build as one string (V8 refuses strings
 * past about 512 MiB): `parts()` yields the text in order, and `minBytes` is a lower bound of its
 * length, known before any part is built, so that an answer sure to pass the response cap is
 * refused before it is formatted.
 */
export class JsonParts {
  constructor(
    readonly parts: () => Iterable<string>,
    readonly minBytes: number,
  ) {}

  /** The whole text (for small answers and tests). */
  text(): string {
    let s = '';
    for (const p of this.parts()) s += p;
    return s;
  }
}

/** About how much text one part holds: big enough for few writes, small enough to bound memory. */
const PART_BYTES = 64 * 1024;

/** The least bytes a `[t,"v"]` pair with timestamp `tMs` takes, with its comma. */
function minPairBytes(tMs: number): number {
  return String(Math.floor(Math.abs(tMs) / 1000)).length + 7;
}

function* vectorParts(result: InstantQueryData & { resultType: 'vector' }): Generator<string> {
  let part = '[';
  for (let i = 0; i < result.result.length; i++) {
    const s = result.result[i];
    part += `${i > 0 ? ',' : ''}{"metric":${metricJson(s.metric)},"value":${pairJson(s.value)}}`;
    if (part.length >= PART_BYTES) {
      yield part;
      part = '';
    }
  }
  yield `${part}]`;
}

function* matrixParts(result: readonly RangeSeries[]): Generator<string> {
  let part = '[';
  for (let i = 0; i < result.length; i++) {
    const s = result[i];
    part += `${i > 0 ? ',' : ''}{"metric":${metricJson(s.metric)},"values":[`;
    // The engine's series are formatted from their columns, one pair at a time.
    const cols = rangeSeriesColumns(s);
    const n = cols === null ? s.values.length : cols.t.length;
    for (let k = 0; k < n; k++) {
      const pair = pairJson(cols === null ? s.values[k] : samplePair(cols.t[k], cols.f[k]));
      part += k > 0 ? `,${pair}` : pair;
      if (part.length >= PART_BYTES) {
        yield part;
        part = '';
      }
    }
    part += ']}';
  }
  yield `${part}]`;
}

function minMatrixBytes(result: readonly RangeSeries[]): number {
  let n = 2;
  for (const s of result) {
    const cols = rangeSeriesColumns(s);
    const len = cols === null ? s.values.length : cols.t.length;
    if (len === 0) continue;
    const first = cols === null ? unixSecondsToMs(s.values[0][0]) : cols.t[0];
    const last = cols === null ? unixSecondsToMs(s.values[len - 1][0]) : cols.t[len - 1];
    // Timestamps grow along a series, so the smaller magnitude of its ends bounds them all (1 digit if it crosses 0).
    const least = Math.sign(first) === Math.sign(last) ? Math.min(minPairBytes(first), minPairBytes(last)) : 8;
    n += 24 + len * least; // {"metric":{},"values":[]}, and each pair
  }
  return n;
}

/** The `data` of a query answer: `{"resultType":…,"result":…[,"stats":…]}`; vectors and matrices in parts. */
export function queryDataJson(d: InstantQueryData | RangeQueryData, stats?: QueryStatsWire): RawJson | JsonParts {
  const st = stats ?? d.stats;
  const head = `{"resultType":"${d.resultType}","result":`;
  const tail = `${st === undefined ? '' : `,"stats":${encodeJson(st)}`}}`;
  switch (d.resultType) {
    case 'scalar':
    case 'string':
      return new RawJson(`${head}${scalarPairJson(d.result)}${tail}`);
    case 'vector': {
      const min = head.length + tail.length + 2 + d.result.length * 28; // {"metric":{},"value":[0,"0"]}
      return new JsonParts(function* () {
        yield head;
        yield* vectorParts(d);
        yield tail;
      }, min);
    }
    case 'matrix': {
      const min = head.length + tail.length + minMatrixBytes(d.result);
      return new JsonParts(function* () {
        yield head;
        yield* matrixParts(d.result);
        yield tail;
      }, min);
    }
  }
}

/** The success envelope: `{"status":"success","data":…[,"warnings":[…]][,"infos":[…]]}`. */
export function successJson(data: unknown, warnings: readonly string[] = [], infos: readonly string[] = []): string {
  if (data instanceof JsonParts) return successParts(data, warnings, infos).text();
  return encodeJson({ status: 'success', data, warnings: warnings.length > 0 ? warnings : undefined, infos: infos.length > 0 ? infos : undefined });
}

/** The success envelope around data given in parts. */
export function successParts(data: JsonParts, warnings: readonly string[] = [], infos: readonly string[] = []): JsonParts {
  const tail = encodeJson({ warnings: warnings.length > 0 ? warnings : undefined, infos: infos.length > 0 ? infos : undefined });
  const rest = tail === '{}' ? '}' : `,${tail.slice(1)}`;
  const head = '{"status":"success","data":';
  return new JsonParts(function* () {
    yield head;
    yield* data.parts();
    yield rest;
  }, head.length + data.minBytes + rest.length);
}

/** The error envelope: `{"status":"error","errorType":…,"error":…}`. */
export function errorJson(errorType: string, error: string): string {
  return encodeJson({ status: 'error', errorType, error });
}

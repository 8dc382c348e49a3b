/**
 * JSON exactly as Prometheus' API writes it (Go's encoding/json through jsoniter's
 * standard-library mode): compact, object keys in the order given (Go struct order; callers sort
 * maps), strings with `<`, `>`, `&`, U+2028 and U+2029 escaped, timestamps via
 * `formatTimestampJson` (`1700006700.500`). Byte-for-byte equality with Prometheus keeps the
 * goldens honest and any client's parser happy.
 */
import { formatTimestampJson, unixSecondsToMs, type InstantQueryData, type Metric, type QueryStatsWire, type RangeQueryData, type SamplePair } from '../../query/index.js';

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

/** The `data` of a query answer: `{"resultType":…,"result":…[,"stats":…]}`. */
export function queryDataJson(d: InstantQueryData | RangeQueryData, stats?: QueryStatsWire): RawJson {
  let result: string;
  switch (d.resultType) {
    case 'scalar':
    case 'string':
      result = scalarPairJson(d.result);
      break;
    case 'vector':
      result = `[${d.result.map((s) => `{"metric":${metricJson(s.metric)},"value":${pairJson(s.value)}}`).join(',')}]`;
      break;
    case 'matrix':
      result = `[${d.result.map((s) => `{"metric":${metricJson(s.metric)},"values":[${s.values.map(pairJson).join(',')}]}`).join(',')}]`;
      break;
  }
  const st = stats ?? d.stats;
  return new RawJson(`{"resultType":"${d.resultType}","result":${result}${st === undefined ? '' : `,"stats":${encodeJson(st)}`}}`);
}

/** The success envelope: `{"status":"success","data":…[,"warnings":[…]][,"infos":[…]]}`. */
export function successJson(data: unknown, warnings: readonly string[] = [], infos: readonly string[] = []): string {
  return encodeJson({ status: 'success', data, warnings: warnings.length > 0 ? warnings : undefined, infos: infos.length > 0 ? infos : undefined });
}

/** The error envelope: `{"status":"error","errorType":…,"error":…}`. */
export function errorJson(errorType: string, error: string): string {
  return encodeJson({ status: 'error', errorType, error });
}

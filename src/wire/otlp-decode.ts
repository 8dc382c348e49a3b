import { WireError, WireErrorCode, errorMessage } from './errors.js';
import type { OtlpAnyValue, OtlpHistogramPoint, OtlpKeyValue, OtlpMetricView, OtlpMetricsRequest, OtlpNumberPoint, OtlpSummaryPoint } from './otlp-view.js';
import { ProtoReader, WireType } from './proto-reader.js';

/**
 * A protobuf `ExportMetricsServiceRequest` walked with `@bufbuild/protobuf`'s `BinaryReader`
 * straight into the plain objects of `otlp-view.ts`: no message classes, no reflection, only
 * the fields a receiver reads (the rest, exemplars and exponential histogram buckets included,
 * is skipped). Strings are interned per request, since attribute keys and values repeat on every
 * point. Field numbers are OTLP's (opentelemetry/proto/metrics/v1/metrics.proto).
 */

const MAX_DEPTH = 64;
/** The reader, the strings interned so far, and the attribute key being read (for error messages). */
type Reader = ProtoReader & { interned: Map<string, string>; key: string; metric: string };

function fail(r: ProtoReader, what: string): WireError {
  return new WireError(WireErrorCode.PROTOBUF, `protobuf: invalid ExportMetricsServiceRequest: ${what} at byte ${r.pos}`);
}

/** Iterates the fields of the sub-message that ends at `end`. */
function fields(r: Reader, end: number, fn: (no: number, wt: number) => boolean): void {
  while (r.pos < end) {
    const tag = r.tagNumber();
    const no = tag >>> 3;
    const wt = tag & 7;
    if (!fn(no, wt)) r.skipField(WIRE[wt], no);
  }
  if (r.pos !== end) throw fail(r, 'a sub-message overruns its length');
}

const WIRE: readonly WireType[] = [WireType.Varint, WireType.Bit64, WireType.LengthDelimited, WireType.StartGroup, WireType.EndGroup, WireType.Bit32];
const LEN = 2;
const I64 = 1;
const VARINT = 0;

function sub(r: Reader, wt: number, outer: number): number {
  if (wt !== LEN) throw fail(r, `wire type ${wt} where a message was expected`);
  const end = r.subEnd();
  if (end > outer) throw fail(r, 'a sub-message overruns its parent');
  return end;
}

/** What a string is, for the message that refuses it when it is not valid UTF-8. */
const enum Str {
  Other,
  AttributeKey,
  AttributeValue,
  MetricName,
  Unit,
}

/**
 * Reads a string, interned. Invalid UTF-8 throws a `WireError` naming the string by `what` and the
 * reader's context (the attribute key, the metric), without a try/catch on the hot path.
 */
function str(r: Reader, wt: number, what: Str = Str.Other): string {
  if (wt !== LEN) throw fail(r, `wire type ${wt} where a string was expected`);
  const end = r.subEnd();
  const from = r.pos;
  const key = r.binaryString(from, end);
  r.pos = end;
  let s = r.interned.get(key);
  if (s === undefined) {
    // For ASCII, the one-char-per-byte key is the string itself.
    const decoded = r.utf8Slice(from, end, key);
    if (decoded === null) throw invalidUtf8(r, what, r.lossyString(from, Math.min(end, from + 256)));
    s = decoded;
    if (r.interned.size < 100_000) r.interned.set(key, s);
  }
  return s;
}

function invalidUtf8(r: Reader, what: Str, lossy: string): WireError {
  const shown = JSON.stringify(lossy.length > 64 ? `${lossy.slice(0, 61)}...` : lossy);
  const name =
    what === Str.AttributeKey
      ? `attribute key ${shown}`
      : what === Str.AttributeValue
        ? `the value of attribute ${JSON.stringify(r.key)} (${shown})`
        : what === Str.MetricName
          ? `metric name ${shown}`
          : what === Str.Unit
            ? `the unit of metric ${JSON.stringify(r.metric)} (${shown})`
            : `a string (${shown})`;
  return fail(r, `${name} is not valid UTF-8`);
}

function fixed64(r: Reader, wt: number): bigint {
  if (wt !== I64) throw fail(r, `wire type ${wt} where a fixed64 was expected`);
  const v = r.fixed64();
  return typeof v === 'bigint' ? v : BigInt(v);
}

function double(r: Reader, wt: number): number {
  if (wt !== I64) throw fail(r, `wire type ${wt} where a double was expected`);
  return r.double();
}

function varint(r: Reader, wt: number): number {
  if (wt !== VARINT) throw fail(r, `wire type ${wt} where a varint was expected`);
  return r.uint32();
}

function anyValue(r: Reader, end: number, depth: number): OtlpAnyValue {
  if (depth > MAX_DEPTH) throw fail(r, `attribute values nested deeper than ${MAX_DEPTH}`);
  let value: OtlpAnyValue['value'] = { case: undefined };
  fields(r, end, (no, wt) => {
    if (no === 1) value = { case: 'stringValue', value: str(r, wt, Str.AttributeValue) };
    else if (no === 2) value = { case: 'boolValue', value: varint(r, wt) !== 0 };
    else if (no === 3 && wt === VARINT) {
      const v = r.int64();
      value = { case: 'intValue', value: typeof v === 'bigint' ? v : BigInt(v) };
    }
    else if (no === 4) value = { case: 'doubleValue', value: double(r, wt) };
    else if (no === 5 || no === 6) {
      const e = sub(r, wt, end);
      const values: (OtlpAnyValue | OtlpKeyValue)[] = [];
      fields(r, e, (n, w) => (n === 1 ? (values.push(no === 5 ? anyValue(r, sub(r, w, e), depth + 1) : keyValue(r, sub(r, w, e), depth + 1)), true) : false));
      value = no === 5 ? { case: 'arrayValue', value: { values: values as OtlpAnyValue[] } } : { case: 'kvlistValue', value: { values: values as OtlpKeyValue[] } };
    } else if (no === 7 && wt === LEN) value = { case: 'bytesValue', value: r.bytes() };
    else return false;
    return true;
  });
  return { value };
}

function keyValue(r: Reader, end: number, depth = 0): OtlpKeyValue {
  let key = '';
  let value: OtlpAnyValue | undefined;
  r.key = ''; // a value sent before its key is reported under ""
  fields(r, end, (no, wt) => {
    if (no === 1) r.key = key = str(r, wt, Str.AttributeKey);
    else if (no === 2) {
      value = anyValue(r, sub(r, wt, end), depth + 1);
      r.key = key; // a nested key-value list may have changed it
    } else return false;
    return true;
  });
  return { key, value };
}

/** Reads a repeated fixed64 or double field, packed or not, into `out`. */
function repeated<T>(r: Reader, wt: number, end: number, read: () => T, out: T[]): void {
  if (wt === I64) {
    out.push(read());
    return;
  }
  const e = sub(r, wt, end);
  if ((e - r.pos) % 8 !== 0) throw fail(r, 'a packed 64-bit field has a length that is not a multiple of 8');
  while (r.pos < e) out.push(read());
}

interface PointFields {
  attributes: OtlpKeyValue[];
  timeUnixNano: bigint;
  flags: number;
}

/** The fields every point kind shares; `attrField` differs per kind. */
function common(r: Reader, p: PointFields, no: number, wt: number, attrField: number, flagsField: number, end: number): boolean {
  if (no === attrField) p.attributes.push(keyValue(r, sub(r, wt, end)));
  else if (no === 3) p.timeUnixNano = fixed64(r, wt);
  else if (no === flagsField) p.flags = varint(r, wt);
  else return false;
  return true;
}

function numberPoint(r: Reader, end: number): OtlpNumberPoint {
  const p: PointFields & { value: OtlpNumberPoint['value'] } = { attributes: [], timeUnixNano: 0n, flags: 0, value: { case: undefined } };
  fields(r, end, (no, wt) => {
    if (common(r, p, no, wt, 7, 8, end)) return true;
    if (no === 4) p.value = { case: 'asDouble', value: double(r, wt) };
    else if (no === 6) p.value = { case: 'asInt', value: fixed64(r, wt) };
    else return false;
    return true;
  });
  if (p.value.case === 'asInt') p.value = { case: 'asInt', value: BigInt.asIntN(64, p.value.value) };
  return p;
}

function histogramPoint(r: Reader, end: number): OtlpHistogramPoint {
  const p: PointFields & { count: bigint; sum?: number; bucketCounts: bigint[]; explicitBounds: number[] } = { attributes: [], timeUnixNano: 0n, flags: 0, count: 0n, bucketCounts: [], explicitBounds: [] };
  fields(r, end, (no, wt) => {
    if (common(r, p, no, wt, 9, 10, end)) return true;
    if (no === 4) p.count = fixed64(r, wt);
    else if (no === 5) p.sum = double(r, wt);
    else if (no === 6) repeated(r, wt, end, () => fixed64(r, I64), p.bucketCounts);
    else if (no === 7) repeated(r, wt, end, () => r.double(), p.explicitBounds);
    else return false;
    return true;
  });
  return p;
}

function summaryPoint(r: Reader, end: number): OtlpSummaryPoint {
  const p: PointFields & { count: bigint; sum: number; quantileValues: { quantile: number; value: number }[] } = { attributes: [], timeUnixNano: 0n, flags: 0, count: 0n, sum: 0, quantileValues: [] };
  fields(r, end, (no, wt) => {
    if (common(r, p, no, wt, 7, 8, end)) return true;
    if (no === 4) p.count = fixed64(r, wt);
    else if (no === 5) p.sum = double(r, wt);
    else if (no === 6) {
      const q = { quantile: 0, value: 0 };
      fields(r, sub(r, wt, end), (n, w) => (n === 1 ? ((q.quantile = double(r, w)), true) : n === 2 ? ((q.value = double(r, w)), true) : false));
      p.quantileValues.push(q);
    } else return false;
    return true;
  });
  return p;
}

/** Reads Gauge/Sum/Histogram/ExponentialHistogram/Summary: points (field 1), temporality (2), monotonic (3). */
function metricData(r: Reader, end: number, kind: number): OtlpMetricView['data'] {
  const points: unknown[] = [];
  let temporality = 0;
  let monotonic = false;
  fields(r, end, (no, wt) => {
    if (no === 1) {
      const e = sub(r, wt, end);
      if (kind === 5 || kind === 7) points.push(numberPoint(r, e));
      else if (kind === 9) points.push(histogramPoint(r, e));
      else if (kind === 11) points.push(summaryPoint(r, e));
      else {
        points.push(null);
        r.pos = e;
      }
    } else if (no === 2 && kind !== 5 && kind !== 11) temporality = varint(r, wt);
    else if (no === 3 && kind === 7) monotonic = varint(r, wt) !== 0;
    else return false;
    return true;
  });
  if (kind === 5) return { case: 'gauge', value: { dataPoints: points as OtlpNumberPoint[] } };
  if (kind === 7) return { case: 'sum', value: { dataPoints: points as OtlpNumberPoint[], aggregationTemporality: temporality, isMonotonic: monotonic } };
  if (kind === 9) return { case: 'histogram', value: { dataPoints: points as OtlpHistogramPoint[], aggregationTemporality: temporality } };
  if (kind === 10) return { case: 'exponentialHistogram', value: { dataPoints: points, aggregationTemporality: temporality } };
  return { case: 'summary', value: { dataPoints: points as OtlpSummaryPoint[] } };
}

function metric(r: Reader, end: number): OtlpMetricView {
  let name = '';
  let unit = '';
  let data: OtlpMetricView['data'] = { case: undefined };
  fields(r, end, (no, wt) => {
    if (no === 1) r.metric = name = str(r, wt, Str.MetricName);
    else if (no === 3) unit = str(r, wt, Str.Unit);
    else if (no === 5 || no === 7 || no === 9 || no === 10 || no === 11) data = metricData(r, sub(r, wt, end), no);
    else return false;
    return true;
  });
  return { name, unit, data };
}

/**
 * Decodes a binary `ExportMetricsServiceRequest` into `OtlpMetricsRequest`. Throws `WireError`
 * `ERR_WIRE_PROTOBUF` for bytes that are not a valid message.
 */
export function decodeOtlpMetricsFast(body: Uint8Array): OtlpMetricsRequest {
  const r = Object.assign(new ProtoReader(body), { interned: new Map<string, string>(), key: '', metric: '' });
  const resourceMetrics: OtlpMetricsRequest['resourceMetrics'][number][] = [];
  try {
    fields(r, r.len, (no, wt) => {
      if (no !== 1) return false;
      const rmEnd = sub(r, wt, r.len);
      const attributes: OtlpKeyValue[] = [];
      const scopeMetrics: { metrics: OtlpMetricView[] }[] = [];
      fields(r, rmEnd, (n, w) => {
        if (n === 1) fields(r, sub(r, w, rmEnd), (a, aw) => (a === 1 ? (attributes.push(keyValue(r, sub(r, aw, rmEnd))), true) : false));
        else if (n === 2) {
          const metrics: OtlpMetricView[] = [];
          const smEnd = sub(r, w, rmEnd);
          fields(r, smEnd, (m, mw) => (m === 2 ? (metrics.push(metric(r, sub(r, mw, smEnd))), true) : false));
          scopeMetrics.push({ metrics });
        } else return false;
        return true;
      });
      resourceMetrics.push({ resource: { attributes }, scopeMetrics });
      return true;
    });
  } catch (e) {
    if (e instanceof WireError) throw e;
    throw new WireError(WireErrorCode.PROTOBUF, `protobuf: invalid ExportMetricsServiceRequest: ${errorMessage(e)}`, { cause: e });
  }
  return { resourceMetrics };
}
